import { test } from 'node:test';
import assert from 'node:assert/strict';
import { templateSlots } from '../../src/domain/bulk-rows.js';
import { cellText, detectSheetKind, planColumns, sniffDelimiter } from '../../src/domain/sheet-files.js';
import type { StoredComponents } from '../../src/domain/templates/types.js';

const slots = templateSlots([
  { type: 'BODY', text: 'Hello {{1}}, code {{2}}' },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://x.example/{{1}}' }] },
] as unknown as StoredComponents);

test('a ZIP container is XLSX and UTF-8 text named .csv is CSV', () => {
  assert.equal(detectSheetKind(Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2]), 'list.bin'), 'xlsx');
  assert.equal(detectSheetKind(Buffer.from('phone_number\n+90555\n'), 'LIST.CSV'), 'csv');
  assert.throws(() => detectSheetKind(Buffer.from([0xff, 0xfe, 0x70, 0]), 'list.csv'), { code: 'FILE_TYPE_UNSUPPORTED' });
});

test('the delimiter is the most frequent of comma, semicolon and tab in the header line', () => {
  assert.equal(sniffDelimiter(Buffer.from('a;b;c\n1,2;3')), ';');
  assert.equal(sniffDelimiter(Buffer.from('a\tb\n')), '\t');
  assert.equal(sniffDelimiter(Buffer.from('phone_number\n')), ',');
});

test('cell text: numbers as written, dates as ISO 8601, rich text joined, formulas by result', () => {
  assert.equal(cellText(905551234567), '905551234567');
  assert.equal(cellText(new Date(Date.UTC(2026, 10, 23))), '2026-11-23');
  assert.equal(cellText({ richText: [{ text: 'Ay' }, { text: 'se' }] }), 'Ayse');
  assert.equal(cellText({ formula: 'A1', result: 7 }), '7');
  assert.equal(cellText(null), null);
});

test('without a mapping, headers that name targets are used (start field names too), others ignored', () => {
  const plan = planColumns(['Note', 'phone_number', 'BODY.1', 'body.2', 'url_button_param', 'full_name'], slots, null);
  assert.equal(plan.phone?.index, 1);
  assert.deepEqual(plan.others.map((c) => [c.label, c.target]), [['BODY.1', 'BODY.1'], ['body.2', 'BODY.2'], ['url_button_param', 'BUTTONS.0'], ['full_name', 'FULL_NAME']]);
});

test('a template column nothing feeds is MAPPING_INVALID on mapping', () => {
  assert.throws(() => planColumns(['phone_number', 'BODY.1'], slots, null), { code: 'MAPPING_INVALID', field: 'mapping' });
});

test('a user_id column names the recipients by BSUID: the phone column is then optional', () => {
  const plan = planColumns(['user_id', 'BODY.1', 'BODY.2', 'url_button_param'], slots, null);
  assert.equal(plan.phone, null);
  assert.deepEqual(plan.others.map((c) => [c.label, c.target]), [['user_id', 'USER_ID'], ['BODY.1', 'BODY.1'], ['BODY.2', 'BODY.2'], ['url_button_param', 'BUTTONS.0']]);
  const mapped = planColumns(['Tel', 'BSUID', 'a', 'b', 'c'], slots, { Tel: 'phone_number', BSUID: 'user_id', a: 'BODY.1', b: 'BODY.2', c: 'BUTTONS.0' });
  assert.deepEqual([mapped.phone?.label, mapped.others[0].target], ['Tel', 'USER_ID']);
});

test('a file with neither a phone nor a user_id column is MAPPING_INVALID naming both', () => {
  assert.throws(() => planColumns(['BODY.1', 'BODY.2', 'url_button_param'], slots, null), { code: 'MAPPING_INVALID', field: 'mapping', message: /phone_number \(or user_id/ });
});
