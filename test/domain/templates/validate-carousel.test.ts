import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTemplate, type TemplateRuleOptions } from '../../../src/domain/templates/validate.js';
import { normalizeComponents } from '../../../src/domain/templates/normalize.js';

type Json = Record<string, unknown>;
const where = (errors: { code: string; field?: string }[]) => errors.map((e) => `${e.code} ${e.field}`);

/** One v2 (lower-case) card: image header, body with 1 variable, quick reply + URL with a variable. */
function card(i: number): { components: Json[] } {
  return {
    components: [
      { type: 'header', format: 'image', example: { header_handle: [`4::aW${i}`] } },
      { type: 'body', text: `Card ${i}: use code {{1}} for 15% off.`, example: { body_text: [['15OFF']] } },
      { type: 'buttons', buttons: [{ type: 'quick_reply', text: 'Send more' }, { type: 'url', text: 'Buy now', url: 'https://shop.example.com/item/{{1}}', example: ['BLUE_ELF'] }] },
    ],
  };
}
/** A v2 carousel template with `n` cards, as family A templatev2 sends it. */
function carousel(n = 3, change?: (cards: { components: Json[] }[]) => void) {
  const cards = Array.from({ length: n }, (_, i) => card(i));
  change?.(cards);
  return {
    name: 'succulent_carousel',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'body', text: 'Rare succulents for sale! {{1}}, add these to your collection today.', example: { body_text: [['Pablo']] } },
      { type: 'carousel', cards },
    ] as Json[],
  };
}
const check = (t: ReturnType<typeof carousel>, options?: TemplateRuleOptions) => where(validateTemplate(t, options));

test('a full v2 lower-case carousel template passes', () => {
  assert.deepEqual(validateTemplate(carousel()), []);
});
test('a v2 carousel is stored upper case', () => {
  const { components, errors } = normalizeComponents(carousel(2).components);
  assert.deepEqual(errors, []);
  assert.deepEqual(components.map((c) => c.type), ['BODY', 'CAROUSEL']);
  const cards = components[1].type === 'CAROUSEL' ? components[1].cards : [];
  assert.deepEqual(cards[0].components.map((c) => c.type), ['HEADER', 'BODY', 'BUTTONS']);
});
test('carousel: 2 and 10 cards pass; 1 and 11 fail on cards', () => {
  assert.deepEqual(validateTemplate(carousel(2)), []);
  assert.deepEqual(validateTemplate(carousel(10)), []);
  assert.deepEqual(check(carousel(1)), ['TEMPLATE_INVALID components[1].cards']);
  assert.deepEqual(check(carousel(11)), ['TEMPLATE_INVALID components[1].cards']);
});
test('carousel: a card header must be IMAGE or VIDEO', () => {
  assert.deepEqual(validateTemplate(carousel(2, (cards) => cards.forEach((c) => (c.components[0].format = 'VIDEO')))), []);
  const t = carousel(2, (cards) => cards.forEach((c) => (c.components[0] = { type: 'header', format: 'document', example: { header_handle: ['h'] } })));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[0].components[0].format', 'TEMPLATE_INVALID components[1].cards[1].components[0].format']);
});
test('carousel: a TEXT card header fails on its format', () => {
  const t = carousel(2, (cards) => (cards[1].components[0] = { type: 'header', format: 'text', text: 'Hi' }));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[1].components[0].format']);
});
test('carousel: a card header needs its header_handle even when requireHeaderHandle is off', () => {
  const t = carousel(2, (cards) => (cards[1].components[0].example = undefined));
  assert.deepEqual(check(t, { requireHeaderHandle: false }), ['TEMPLATE_INVALID components[1].cards[1].components[0].example.header_handle']);
});
test('carousel: a card without a header fails on its components', () => {
  const t = carousel(2, (cards) => cards.forEach((c) => c.components.shift()));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[0].components', 'TEMPLATE_INVALID components[1].cards[1].components']);
});
test('carousel: card body 160 characters pass, 161 fail', () => {
  const body = (text: string) => (cards: { components: Json[] }[]) => cards.forEach((c) => (c.components[1] = { type: 'body', text }));
  assert.deepEqual(validateTemplate(carousel(2, body('b'.repeat(160)))), []);
  assert.deepEqual(check(carousel(2, body('b'.repeat(161)))), [
    'TEMPLATE_INVALID components[1].cards[0].components[1].text', 'TEMPLATE_INVALID components[1].cards[1].components[1].text',
  ]);
});
test('carousel: cards without a body pass when all cards have none', () => {
  assert.deepEqual(validateTemplate(carousel(2, (cards) => cards.forEach((c) => c.components.splice(1, 1)))), []);
});
test('carousel: a body on some cards only fails on the differing card', () => {
  assert.deepEqual(check(carousel(3, (cards) => cards[2].components.splice(1, 1))), ['TEMPLATE_INVALID components[1].cards[2]']);
});
test('carousel: a card body follows the body placeholder rules', () => {
  const t = carousel(2, (cards) => cards.forEach((c) => (c.components[1] = { type: 'body', text: '{{1}} off', example: { body_text: [['15%']] } })));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[0].components[1].text', 'TEMPLATE_INVALID components[1].cards[1].components[1].text']);
});
test('carousel: a card with 3 buttons fails on its buttons', () => {
  const t = carousel(2, (cards) => cards.forEach((c) => (c.components[2].buttons as Json[]).unshift({ type: 'quick_reply', text: 'No' })));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[0].components[2].buttons', 'TEMPLATE_INVALID components[1].cards[1].components[2].buttons']);
});
test('carousel: card buttons may be PHONE_NUMBER', () => {
  const t = carousel(2, (cards) => cards.forEach((c) => ((c.components[2].buttons as Json[])[0] = { type: 'phone_number', text: 'Call', phone_number: '+15550051310' })));
  assert.deepEqual(validateTemplate(t), []);
});
test('carousel: COPY_CODE is not a card button', () => {
  const t = carousel(2, (cards) => cards.forEach((c) => ((c.components[2].buttons as Json[])[0] = { type: 'copy_code', example: 'X1' })));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[0].components[2].buttons[0].type', 'TEMPLATE_INVALID components[1].cards[1].components[2].buttons[0].type']);
});
test('carousel: button kinds in another order on one card fail on that card', () => {
  const t = carousel(2, (cards) => (cards[1].components[2].buttons as Json[]).reverse());
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[1]']);
});
test('carousel: a different body variable count on one card fails on that card', () => {
  const t = carousel(2, (cards) => (cards[1].components[1] = { type: 'body', text: 'Code {{1}} gives {{2}} off.', example: { body_text: [['A', 'B']] } }));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[1]']);
});
test('carousel: a URL with a variable on one card and without on another fails', () => {
  const t = carousel(2, (cards) => ((cards[1].components[2].buttons as Json[])[1] = { type: 'url', text: 'Buy', url: 'https://shop.example.com/' }));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[1]']);
});
test('carousel: a second HEADER in a card fails on its type', () => {
  const t = carousel(2, (cards) => cards.forEach((c) => c.components.push({ type: 'header', format: 'image', example: { header_handle: ['x'] } })));
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[1].cards[0].components[3].type', 'TEMPLATE_INVALID components[1].cards[1].components[3].type']);
});
test('carousel: only MARKETING templates', () => {
  const t = { ...carousel(2), category: 'UTILITY' };
  assert.deepEqual(check(t, { allowedCategories: ['MARKETING', 'UTILITY'] }), ['TEMPLATE_INVALID category']);
});
test('carousel: the template needs its top-level BODY', () => {
  const t = carousel(2);
  t.components.shift();
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components']);
});
test('carousel: no top-level HEADER, FOOTER or BUTTONS beside it', () => {
  const t = carousel(2);
  t.components.push({ type: 'footer', text: 'Bye' });
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[2].type']);
});
test('carousel: the top-level body keeps the 4-parameter limit', () => {
  const t = carousel(2);
  t.components[0] = { type: 'body', text: 'a {{1}} b {{2}} c {{3}} d {{4}} e {{5}} f', example: { body_text: [['1', '2', '3', '4', '5']] } };
  assert.deepEqual(check(t), ['TEMPLATE_INVALID components[0].text']);
});

test('carousel: a REQUEST_CONTACT_INFO button in a card fails on its type', () => {
  const errors = check(carousel(2, (cards) => {
    for (const card of cards) card.components[2] = { type: 'buttons', buttons: [{ type: 'request_contact_info' }] };
  }));
  assert.ok(errors.includes('TEMPLATE_INVALID components[1].cards[0].components[2].buttons[0].type'), errors.join('\n'));
});
