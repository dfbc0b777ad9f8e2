import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertRow, resolveColumn, templateSlots, v1Field } from '../../../src/domain/bulk-rows.js';
import { normalizeComponents } from '../../../src/domain/templates/normalize.js';
import { parameterFormatOf } from '../../../src/domain/templates/placeholders.js';
import { checkSendComponents, toNetworkComponents } from '../../../src/domain/templates/send-parameters.js';
import type { StoredComponents } from '../../../src/domain/templates/types.js';
import { validateTemplate } from '../../../src/domain/templates/validate.js';

const where = (errors: { code: string; field?: string }[]) => errors.map((e) => `${e.code} ${e.field}`);
const BODY = 'Hi {{first_name}}, order {{order_id}} ships to {{first_name}}.';
const create = (components: unknown[]) => ({ name: 'named_t', category: 'MARKETING', language: 'en_US', components });

/** A named template as stored: text header with one name, body with two (first_name used twice). */
const named: StoredComponents = [
  { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}' },
  { type: 'BODY', text: BODY },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://t.example.com/{{1}}' }] },
];

// Format
test('the parameter format is NAMED when a header or body uses {{name}} placeholders', () => {
  assert.equal(parameterFormatOf(named), 'NAMED');
  assert.equal(parameterFormatOf([{ type: 'BODY', text: 'Hi {{1}}.' }]), 'POSITIONAL');
  assert.equal(parameterFormatOf([{ type: 'BODY', text: 'No variables.' }]), 'POSITIONAL');
});
test('the parameter format follows named card bodies and a stored NAMED value (templates imported from the WABA)', () => {
  const card = { components: [{ type: 'HEADER' as const, format: 'IMAGE' as const }, { type: 'BODY' as const, text: 'Only {{price}} now' }] };
  assert.equal(parameterFormatOf([{ type: 'BODY', text: 'Picks.' }, { type: 'CAROUSEL', cards: [card, card] }]), 'NAMED');
  assert.equal(parameterFormatOf([{ type: 'BODY', text: 'Hello.' }], 'NAMED'), 'NAMED');
});

// Creation examples
test('positional-style examples of a named body become named examples in order of first appearance', () => {
  const { components, errors } = normalizeComponents([{ type: 'body', text: BODY, example: { body_text: [['Pablo', '86019']] } }]);
  assert.deepEqual(errors, []);
  assert.deepEqual(components[0], { type: 'BODY', text: BODY, example: { body_text_named_params: [
    { param_name: 'first_name', example: 'Pablo' }, { param_name: 'order_id', example: '86019' },
  ] } });
});
test('a positional-style header example of a named header becomes header_text_named_params', () => {
  const { components } = normalizeComponents([{ type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text: ['Monday'] } }]);
  assert.deepEqual(components[0], { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text_named_params: [{ param_name: 'day', example: 'Monday' }] } });
});
test('a named template validates with either example form', () => {
  const headerNamed = { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text_named_params: [{ param_name: 'day', example: 'Mon' }] } };
  assert.deepEqual(validateTemplate(create([headerNamed, { type: 'BODY', text: BODY, example: { body_text: [['Pablo', '86019']] } }])), []);
  assert.deepEqual(validateTemplate(create([{ type: 'BODY', text: BODY, example: { body_text_named_params: [
    { param_name: 'order_id', example: '1' }, { param_name: 'first_name', example: 'P' },
  ] } }])), []);
});
test('positional-style examples of the wrong count are refused on example.body_text', () => {
  const errors = validateTemplate(create([{ type: 'BODY', text: BODY, example: { body_text: [['Pablo']] } }]));
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].example.body_text']);
  assert.match(errors[0].message, /first_name, order_id/);
});
test('named examples for a positional text are refused on the named field', () => {
  const errors = validateTemplate(create([{ type: 'BODY', text: 'Hi {{1}}, welcome.', example: { body_text: [['a']], body_text_named_params: [{ param_name: 'x', example: 'a' }] } }]));
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].example.body_text_named_params']);
});
test('a name given twice in the named examples is refused', () => {
  const errors = validateTemplate(create([{ type: 'BODY', text: BODY, example: { body_text_named_params: [
    { param_name: 'first_name', example: 'a' }, { param_name: 'first_name', example: 'b' }, { param_name: 'order_id', example: '1' },
  ] } }]));
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].example.body_text_named_params']);
});
test('a header named while the body is positional is refused on the body text', () => {
  const errors = validateTemplate(create([
    { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text: ['Mon'] } },
    { type: 'BODY', text: 'Hi {{1}}, welcome.', example: { body_text: [['a']] } },
  ]));
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[1].text']);
});
test('a name that is not lower snake case is refused', () => {
  const errors = validateTemplate(create([{ type: 'BODY', text: 'Hi {{FirstName}}, welcome.', example: { body_text: [['a']] } }]));
  assert.deepEqual(where(errors), ['TEMPLATE_INVALID components[0].text']);
});

// Single send
const namedSend = () => [
  { type: 'header', parameters: [{ type: 'text', parameter_name: 'day', text: 'Friday' }] },
  { type: 'body', parameters: [{ type: 'text', parameter_name: 'order_id', text: '86019' }, { type: 'text', parameter_name: 'first_name', text: 'Pablo' }] },
  { type: 'button', sub_type: 'url', index: 0, parameters: ['A1'] },
];
test('a named send keeps parameter_name on header and body parameters; the URL button stays positional', () => {
  const out = toNetworkComponents(named, namedSend());
  assert.deepEqual(out[0], { type: 'header', parameters: [{ type: 'text', text: 'Friday', parameter_name: 'day' }] });
  assert.deepEqual(out[1], { type: 'body', parameters: [{ type: 'text', text: '86019', parameter_name: 'order_id' }, { type: 'text', text: 'Pablo', parameter_name: 'first_name' }] });
  assert.deepEqual(out[2], { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'A1' }] });
});
test('a named header parameter without parameter_name names its field', () => {
  const send = namedSend();
  send[0] = { type: 'header', parameters: ['Friday'] as never };
  assert.deepEqual(where(checkSendComponents(named, send)), ['PARAMETERS_INVALID message_template[0].parameters[0].parameter_name']);
});
test('a positional template refuses parameter_name', () => {
  const positional: StoredComponents = [{ type: 'BODY', text: 'Hi {{1}}, welcome.' }];
  const errors = checkSendComponents(positional, [{ type: 'body', parameters: [{ type: 'text', text: 'a', parameter_name: 'first_name' }] }]);
  assert.deepEqual(where(errors), ['PARAMETERS_INVALID message_template[0].parameters[0].parameter_name']);
});

// Bulk rows
test('a named template’s columns are HEADER.<name> and BODY.<name>, in order of first appearance', () => {
  const slots = templateSlots(named);
  assert.deepEqual(slots.map((s) => s.column), ['HEADER.day', 'BODY.first_name', 'BODY.order_id', 'BUTTONS.0']);
  assert.deepEqual(slots.map(v1Field), ['text_header_param', 'params[0]', 'params[1]', 'url_button_param']);
});
test('startv2 headers resolve by name in any case of the part, or by position', () => {
  const slots = templateSlots(named);
  assert.equal(resolveColumn(slots, 'BODY.first_name'), 'BODY.first_name');
  assert.equal(resolveColumn(slots, 'body.FIRST_NAME'), 'BODY.first_name');
  assert.equal(resolveColumn(slots, 'BODY.2'), 'BODY.order_id');
  assert.equal(resolveColumn(slots, 'HEADER.1'), 'HEADER.day');
  assert.equal(resolveColumn(slots, 'buttons.0'), 'BUTTONS.0');
  assert.equal(resolveColumn(slots, 'BODY.last_name'), undefined);
  assert.equal(resolveColumn(slots, 'BODY.3'), undefined);
});
test('positional templates keep their numbered columns', () => {
  const slots = templateSlots([{ type: 'BODY', text: 'Hi {{1}} and {{2}}.' }]);
  assert.deepEqual(slots.map((s) => s.column), ['BODY.1', 'BODY.2']);
  assert.equal(resolveColumn(slots, 'body.2'), 'BODY.2');
  assert.equal(resolveColumn(slots, 'BODY.first_name'), undefined);
});
test('a named row converts with parameter_name on each text parameter', () => {
  const cells: Record<string, string> = { 'HEADER.day': 'Friday', 'BODY.first_name': 'Pablo', 'BODY.order_id': '86019', 'BUTTONS.0': 'A1' };
  const r = convertRow(named, templateSlots(named), (c) => cells[c], (c) => `rows[0].${c}`, 'row 1');
  assert.ok(r.ok);
  assert.deepEqual(r.components.slice(0, 2), [
    { type: 'header', parameters: [{ type: 'text', text: 'Friday', parameter_name: 'day' }] },
    { type: 'body', parameters: [{ type: 'text', text: 'Pablo', parameter_name: 'first_name' }, { type: 'text', text: '86019', parameter_name: 'order_id' }] },
  ]);
});
test('an empty named cell names its column', () => {
  const r = convertRow(named, templateSlots(named), (c) => (c === 'BODY.order_id' ? '' : 'x'), (c) => `rows[3].${c}`, 'row 4');
  assert.ok(!r.ok);
  assert.equal(r.errors[0].field, 'rows[3].BODY.order_id');
});
