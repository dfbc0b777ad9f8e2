import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeComponents } from '../../../src/domain/templates/normalize.js';

const where = (errors: { code: string; field?: string }[]) => errors.map((e) => `${e.code} ${e.field}`);

test('lower-case v2 component, button and format types are stored upper case', () => {
  const { components, errors } = normalizeComponents([
    { type: 'header', format: 'image', example: { header_handle: ['4::aW'] } },
    { type: 'body', text: 'Hi {{1}} there', example: { body_text: [['Ann']] } },
    { type: 'Footer', text: 'bye' },
    { type: 'buttons', buttons: [{ type: 'url', text: 'Go', url: 'https://x.example/{{1}}', example: ['a'] }, { type: 'quick_reply', text: 'Stop' }] },
  ]);
  assert.deepEqual(errors, []);
  assert.deepEqual(components, [
    { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aW'] } },
    { type: 'BODY', text: 'Hi {{1}} there', example: { body_text: [['Ann']] } },
    { type: 'FOOTER', text: 'bye' },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Go', url: 'https://x.example/{{1}}', example: ['a'] }, { type: 'QUICK_REPLY', text: 'Stop' }] },
  ]);
});

test('carousel cards are normalised recursively', () => {
  const { components, errors } = normalizeComponents([
    { type: 'carousel', cards: [{ components: [{ type: 'header', format: 'video', example: { header_handle: ['h'] } }, { type: 'buttons', buttons: [{ type: 'phone_number', text: 'Call', phone_number: '+1555' }] }] }] },
  ]);
  assert.deepEqual(errors, []);
  assert.deepEqual(components, [{ type: 'CAROUSEL', cards: [{ components: [
    { type: 'HEADER', format: 'VIDEO', example: { header_handle: ['h'] } },
    { type: 'BUTTONS', buttons: [{ type: 'PHONE_NUMBER', text: 'Call', phone_number: '+1555' }] },
  ] }] }]);
});

test('an unknown component kind is an error on its type, and it is left out', () => {
  const { components, errors } = normalizeComponents([{ type: 'BODY', text: 'x' }, { type: 'gallery' }]);
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[1].type']);
  assert.deepEqual(components, [{ type: 'BODY', text: 'x' }]);
});

test('an unknown button kind is an error on its type', () => {
  const { errors } = normalizeComponents([{ type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'a' }, { type: 'FLOW', text: 'b' }] }]);
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].buttons[1].type']);
});

test('an unknown header format is an error on the format', () => {
  const { errors } = normalizeComponents([{ type: 'HEADER', format: 'GIF' }]);
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].format']);
});

test('components that are not an array are one error on components', () => {
  for (const raw of [undefined, null, 'BODY', 3, { type: 'BODY' }]) {
    assert.deepEqual(where(normalizeComponents(raw).errors), ['TEMPLATE_INVALID components'], String(raw));
  }
});

test('a wrongly typed field is an error on that field', () => {
  const { errors } = normalizeComponents([{ type: 'BODY', text: 5 }, { type: 'FOOTER' }, { type: 'BUTTONS', buttons: 'x' }, 7]);
  assert.deepEqual(where(errors), [
    'TEMPLATE_INVALID components[0].text', 'TEMPLATE_INVALID components[1].text',
    'TEMPLATE_INVALID components[2].buttons', 'TEMPLATE_INVALID components[3]',
  ]);
});

test('a FOOTER inside a carousel card is an error', () => {
  const { errors } = normalizeComponents([{ type: 'CAROUSEL', cards: [{ components: [{ type: 'footer', text: 'x' }] }] }]);
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].cards[0].components[0].type']);
});

test('a flat body_text list is taken as the single example row', () => {
  const { components } = normalizeComponents([{ type: 'BODY', text: 'a {{1}} b {{2}} c', example: { body_text: ['x', 'y'] } }]);
  assert.deepEqual(components, [{ type: 'BODY', text: 'a {{1}} b {{2}} c', example: { body_text: [['x', 'y']] } }]);
});

test('unknown keys are dropped from the stored form', () => {
  const { components } = normalizeComponents([{ type: 'BODY', text: 'x', color: 'red', example: { body_text: [['a']], junk: 1 } }]);
  assert.deepEqual(components, [{ type: 'BODY', text: 'x', example: { body_text: [['a']] } }]);
});

test('weird shapes never throw', () => {
  const weird: unknown[] = [
    [null], [[]], [{ type: null }], [{ type: {} }], [{ type: 'header' }], [{ type: 'header', format: 7 }],
    [{ type: 'header', format: 'text', example: 'x' }], [{ type: 'body', text: 'x', example: { body_text: [[1]] } }],
    [{ type: 'buttons', buttons: [null, 1, 'url', { type: 'url', url: {} }, { type: 'copy_code', example: [] }] }],
    [{ type: 'carousel' }], [{ type: 'carousel', cards: [null, {}, { components: {} }, { components: [{ type: 'carousel', cards: [] }] }] }],
    [{ type: 'body', text: 'x', example: { body_text_named_params: [{ param_name: 1 }] } }],
    [Object.create(null)], [{ __proto__: { type: 'BODY' } }], [{ type: 'BODY', text: 'x', example: [] }],
  ];
  for (const raw of weird) {
    const { errors } = normalizeComponents(raw);
    assert.ok(errors.length > 0, JSON.stringify(raw));
    assert.ok(errors.every((e) => e.code === 'TEMPLATE_INVALID' && typeof e.field === 'string'));
  }
});
