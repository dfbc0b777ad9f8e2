import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertRow, rowConverter, templateSlots, v1Field } from '../../src/domain/bulk-rows.js';
import type { StoredComponents } from '../../src/domain/templates/types.js';

const template = [
  { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
  { type: 'BODY', text: 'Order {{1}} ships {{2}}.' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://t.example/{{1}}' },
      { type: 'COPY_CODE', example: 'X' },
      { type: 'QUICK_REPLY', text: 'Stop' },
      { type: 'URL', text: 'Help', url: 'https://h.example/{{1}}' },
    ],
  },
] as unknown as StoredComponents;

test('a template’s variables become named columns', () => {
  assert.deepEqual(templateSlots(template).map((s) => s.column), ['HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1', 'BUTTONS.2', 'BUTTONS.3']);
});

test('v1 fields feed the columns (the second URL variable is url_button_param2)', () => {
  assert.deepEqual(templateSlots(template).map(v1Field), ['text_header_param', 'params[0]', 'params[1]', 'url_button_param', 'copy_code_param', null, 'url_button_param2']);
});

test('a full row converts to the network components', () => {
  const cells: Record<string, string> = { 'HEADER.1': 'Ali', 'BODY.1': 'A1', 'BODY.2': 'today', 'BUTTONS.0': 't', 'BUTTONS.1': 'C', 'BUTTONS.3': 'h' };
  const r = convertRow(template, templateSlots(template), (c) => cells[c], (c) => `rows[0].${c}`, 'row 1');
  assert.ok(r.ok);
  assert.equal(r.components.length, 5);
});

test('an empty required cell names its column', () => {
  const r = convertRow(template, templateSlots(template), (c) => (c === 'BODY.2' ? '' : 'x'), (c) => `rows[4].${c}`, 'row 5');
  assert.ok(!r.ok);
  assert.equal(r.errors[0].field, 'rows[4].BODY.2');
  assert.match(r.errors[0].message, /^row 5: BODY\.2/);
});

test('a network rule broken by a cell names that cell’s column', () => {
  const r = convertRow(template, templateSlots(template), (c) => (c === 'BODY.1' ? 'line\nbreak' : 'x'), (c) => c, 'row 1');
  assert.ok(!r.ok);
  assert.equal(r.errors[0].field, 'BODY.1');
});

test('a converter made once for a template checks each row on its own', () => {
  const convert = rowConverter(template, templateSlots(template));
  const bad = convert((c) => (c === 'BODY.2' ? '' : 'x'), (c) => `rows[0].${c}`, 'row 1');
  const good = convert(() => 'x', (c) => `rows[1].${c}`, 'row 2');
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors.map((e) => e.field), ['rows[0].BODY.2']);
  assert.ok(good.ok);
  assert.deepEqual(good, convertRow(template, templateSlots(template), () => 'x', (c) => c, 'row 2'));
});
