import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTemplate, type TemplateRuleOptions } from '../../../src/domain/templates/validate.js';

type Json = Record<string, unknown>;
const where = (errors: { code: string; field?: string }[]) => errors.map((e) => `${e.code} ${e.field}`);

const qr = (text = 'Stop promos'): Json => ({ type: 'QUICK_REPLY', text });
const url = (change: Json = {}): Json => ({ type: 'URL', text: 'Shop', url: 'https://shop.example.com/p?c={{1}}', example: ['summer'], ...change });
const phone = (change: Json = {}): Json => ({ type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+905551112233', ...change });
const code = (change: Json = {}): Json => ({ type: 'COPY_CODE', example: '25OFF', ...change });

/** A valid template whose components[1] is BUTTONS with the given buttons. */
function withButtons(buttons: unknown, options?: TemplateRuleOptions) {
  return validateTemplate({
    name: 'promo',
    category: 'MARKETING',
    language: 'tr',
    components: [{ type: 'BODY', text: 'Hello {{1}}, see our offers.', example: { body_text: [['Ayşe']] } }, { type: 'BUTTONS', buttons }],
  }, options);
}

test('all four button kinds together pass', () => {
  assert.deepEqual(withButtons([url(), phone(), code(), qr()]), []);
});
test('button types are accepted in any case', () => {
  assert.deepEqual(withButtons([{ ...url(), type: 'url' }, { ...qr(), type: 'Quick_Reply' }]), []);
});
test('buttons: an empty list fails', () => {
  assert.deepEqual(where(withButtons([])), ['TEMPLATE_INVALID components[1].buttons']);
});
test('buttons: 10 in total pass, 11 fail', () => {
  assert.deepEqual(withButtons([url(), url({ text: 'More' }), phone(), ...Array.from({ length: 7 }, (_, i) => qr(`Q${i}`))]), []);
  assert.deepEqual(where(withButtons([url(), url(), phone(), ...Array.from({ length: 8 }, (_, i) => qr(`Q${i}`))])),
    ['TEMPLATE_INVALID components[1].buttons']);
});
test('quick replies: 10 pass, 11 fail (also over the total)', () => {
  assert.deepEqual(withButtons(Array.from({ length: 10 }, (_, i) => qr(`Q${i}`))), []);
  assert.deepEqual(where(withButtons(Array.from({ length: 11 }, (_, i) => qr(`Q${i}`)))),
    ['TEMPLATE_INVALID components[1].buttons', 'TEMPLATE_INVALID components[1].buttons']);
});
test('quick replies: one group before or after the others passes', () => {
  assert.deepEqual(withButtons([qr('a'), qr('b'), url(), phone()]), []);
  assert.deepEqual(withButtons([url(), phone(), qr('a'), qr('b')]), []);
});
test('quick replies: split around another button fails on the first stray one', () => {
  assert.deepEqual(where(withButtons([qr('a'), url(), qr('b')])), ['TEMPLATE_INVALID components[1].buttons[2].type']);
  assert.deepEqual(where(withButtons([qr('a'), url(), qr('b'), phone(), qr('c')])), ['TEMPLATE_INVALID components[1].buttons[2].type']);
});
test('labels: 25 characters pass, 26 fail, for URL, PHONE_NUMBER and QUICK_REPLY', () => {
  assert.deepEqual(withButtons([url({ text: 'u'.repeat(25) }), phone({ text: 'p'.repeat(25) }), qr('q'.repeat(25))]), []);
  assert.deepEqual(where(withButtons([url({ text: 'u'.repeat(26) }), phone({ text: 'p'.repeat(26) }), qr('q'.repeat(26))])), [
    'TEMPLATE_INVALID components[1].buttons[0].text', 'TEMPLATE_INVALID components[1].buttons[1].text', 'TEMPLATE_INVALID components[1].buttons[2].text',
  ]);
});
test('labels: empty or missing fails', () => {
  assert.deepEqual(where(withButtons([qr(' '), { type: 'QUICK_REPLY' }])), [
    'TEMPLATE_INVALID components[1].buttons[1].text', 'TEMPLATE_INVALID components[1].buttons[0].text',
  ]);
});

// URL
test('URL: two pass, a third fails on its type', () => {
  assert.deepEqual(withButtons([url(), url()]), []);
  assert.deepEqual(where(withButtons([url(), url(), url()])), ['TEMPLATE_INVALID components[1].buttons[2].type']);
});
test('URL: a static url needs no example', () => {
  assert.deepEqual(withButtons([url({ url: 'https://www.example.com/', example: undefined })]), []);
});
test('URL: 2,000 characters pass, 2,001 fail', () => {
  const base = 'https://shop.example.com/';
  assert.deepEqual(withButtons([url({ url: base + 'a'.repeat(2000 - base.length), example: undefined })]), []);
  assert.deepEqual(where(withButtons([url({ url: base + 'a'.repeat(2001 - base.length), example: undefined })])),
    ['TEMPLATE_INVALID components[1].buttons[0].url']);
});
test('URL: two variables fail', () => {
  assert.deepEqual(where(withButtons([url({ url: 'https://x.example/{{1}}/{{1}}' })])), ['TEMPLATE_INVALID components[1].buttons[0].url']);
});
test('URL: a variable not at the end fails', () => {
  assert.deepEqual(where(withButtons([url({ url: 'https://x.example/{{1}}/buy' })])), ['TEMPLATE_INVALID components[1].buttons[0].url']);
});
test('URL: the variable must be {{1}}', () => {
  assert.deepEqual(where(withButtons([url({ url: 'https://x.example/{{2}}' })])), ['TEMPLATE_INVALID components[1].buttons[0].url']);
  assert.deepEqual(where(withButtons([url({ url: 'https://x.example/{{code}}' })])), ['TEMPLATE_INVALID components[1].buttons[0].url']);
});
test('URL: must be http or https', () => {
  for (const u of ['ftp://x.example/file', 'www.example.com', 'javascript:alert(1)']) {
    assert.deepEqual(where(withButtons([url({ url: u, example: undefined })])), ['TEMPLATE_INVALID components[1].buttons[0].url'], u);
  }
  assert.deepEqual(withButtons([url({ url: 'http://x.example/a', example: undefined })]), []);
});
test('URL: missing url fails', () => {
  assert.deepEqual(where(withButtons([url({ url: undefined })])), ['TEMPLATE_INVALID components[1].buttons[0].url']);
});
test('URL: a variable needs one example', () => {
  assert.deepEqual(where(withButtons([url({ example: undefined })])), ['TEMPLATE_INVALID components[1].buttons[0].example']);
  assert.deepEqual(where(withButtons([url({ example: ['a', 'b'] })])), ['TEMPLATE_INVALID components[1].buttons[0].example']);
  assert.deepEqual(withButtons([url({ example: 'summer' })]), []);
});

// PHONE_NUMBER
test('PHONE_NUMBER: one passes, a second fails on its type', () => {
  assert.deepEqual(where(withButtons([phone(), phone()])), ['TEMPLATE_INVALID components[1].buttons[1].type']);
});
test('PHONE_NUMBER: digits with an optional leading + pass', () => {
  assert.deepEqual(withButtons([phone({ phone_number: '15550051310' })]), []);
});
test('PHONE_NUMBER: letters, spaces or an inner + fail', () => {
  for (const n of ['+1 555 0051', '1555-0051', 'call-me', '1+555', '']) {
    assert.deepEqual(where(withButtons([phone({ phone_number: n })])), ['TEMPLATE_INVALID components[1].buttons[0].phone_number'], n);
  }
});
test('PHONE_NUMBER: 20 characters pass, 21 fail', () => {
  assert.deepEqual(withButtons([phone({ phone_number: '+' + '1'.repeat(19) })]), []);
  assert.deepEqual(where(withButtons([phone({ phone_number: '1'.repeat(21) })])), ['TEMPLATE_INVALID components[1].buttons[0].phone_number']);
});

// COPY_CODE
test('COPY_CODE: a second fails on its type', () => {
  assert.deepEqual(where(withButtons([code(), code()])), ['TEMPLATE_INVALID components[1].buttons[1].type']);
});
test('COPY_CODE: an example of 20 characters passes, 21 fails (2025-12 changelog)', () => {
  assert.deepEqual(withButtons([code({ example: 'C'.repeat(20) })]), []);
  assert.deepEqual(where(withButtons([code({ example: 'C'.repeat(21) })])), ['TEMPLATE_INVALID components[1].buttons[0].example']);
});
test('COPY_CODE: the example is required and not empty', () => {
  assert.deepEqual(where(withButtons([code({ example: undefined })])), ['TEMPLATE_INVALID components[1].buttons[0].example']);
  assert.deepEqual(where(withButtons([code({ example: ' ' })])), ['TEMPLATE_INVALID components[1].buttons[0].example']);
});
test('a null button slot keeps the indexes of the buttons after it', () => {
  assert.deepEqual(where(withButtons([null, url({ text: '' })])), [
    'TEMPLATE_INVALID components[1].buttons[0]', 'TEMPLATE_INVALID components[1].buttons[1].text',
  ]);
});

const contact = (change: Json = {}): Json => ({ type: 'REQUEST_CONTACT_INFO', ...change });

test('REQUEST_CONTACT_INFO: the bare button passes beside the other kinds, in any case', () => {
  assert.deepEqual(withButtons([url(), contact(), qr()]), []);
  assert.deepEqual(withButtons([{ type: 'request_contact_info' }]), []);
});
test('REQUEST_CONTACT_INFO: a label or any other field is refused (the network lets nothing be customised)', () => {
  assert.deepEqual(where(withButtons([contact({ text: 'Share your number' })])), ['TEMPLATE_INVALID components[1].buttons[0].text']);
});
test('REQUEST_CONTACT_INFO: UTILITY passes, AUTHENTICATION fails on the button type', () => {
  const template = (category: string) => validateTemplate({
    name: 'ask_phone', category, language: 'tr',
    components: [{ type: 'BODY', text: 'Share your number with us.' }, { type: 'BUTTONS', buttons: [contact()] }],
  }, { allowedCategories: ['MARKETING', 'UTILITY', 'AUTHENTICATION'] });
  assert.deepEqual(template('UTILITY'), []);
  assert.deepEqual(where(template('AUTHENTICATION')), ['TEMPLATE_INVALID components[1].buttons[0].type']);
});
test('REQUEST_CONTACT_INFO: counts as another button for the quick-reply group rule', () => {
  assert.deepEqual(where(withButtons([qr('a'), contact(), qr('b')])), ['TEMPLATE_INVALID components[1].buttons[2].type']);
});
