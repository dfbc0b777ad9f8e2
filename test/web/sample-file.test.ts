import { test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { sampleCsv, sampleRows, sampleXlsx } from '../../web/src/pages/wizard/sample-file.js';
import { autoMap, checkRows, missingTargets, FULL_NAME, PHONE, USER_ID, toStartRows } from '../../web/src/pages/wizard/mapping.js';
import { templateSlots } from '../../web/src/pages/wizard/slots.js';
import { parseDelimited, parseXlsx } from '../../web/src/pages/wizard/table.js';
import type { ApiComponent } from '../../web/src/pages/templates/types.js';

const template: ApiComponent[] = [
  { type: 'HEADER', format: 'IMAGE' },
  { type: 'BODY', text: 'Hi {{1}}, use {{2}} & save.', example: { body_text: [['Ayse', 'SAVE<10>']] } },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://s.example/{{1}}', example: ['https://s.example/x1'] }, { type: 'COPY_CODE', example: 'C0DE' }, { type: 'QUICK_REPLY', text: 'Stop' }] },
];
const slots = templateSlots(template);

test('the sample XLSX opens in exceljs and in the wizard, and its header maps every value by itself', async () => {
  const rows = sampleRows(template, slots);
  const bytes = sampleXlsx(rows);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(Buffer.from(bytes) as never);
  const sheet = workbook.worksheets[0];
  assert.equal(sheet.name, 'Recipients');
  const cells = (r: number) => rows[0].map((_, c) => String(sheet.getRow(r).getCell(c + 1).value ?? ''));
  assert.deepEqual([cells(1), cells(2), cells(3)], rows);
  assert.deepEqual(rows[1], ['+905551234567', '', 'Ayse Yilmaz', '', 'Ayse', 'SAVE<10>', 'x1', 'C0DE', ''], 'the link button takes the end of the example link');
  assert.deepEqual(rows[2].slice(0, 3), ['', 'TR.13491208655302741918', 'Mehmet Kaya'], 'the second customer is known by BSUID only');
  const table = await parseXlsx(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
  assert.deepEqual(table.headers, rows[0]);
  assert.equal(table.rows[0][0], '+905551234567', 'the phone number stays text');
  const mapping = autoMap(table.headers, slots);
  assert.deepEqual(missingTargets(mapping, slots), []);
  assert.equal(mapping[PHONE], 0);
  assert.equal(mapping[USER_ID], 1);
  assert.equal(mapping[FULL_NAME], 2);
  assert.deepEqual(slots.map((s) => mapping[s.column]), [3, 4, 5, 6, 7, 8]);
  assert.deepEqual(checkRows(table, mapping, slots).filter((i) => i.target === PHONE || i.target === USER_ID), [], 'both example rows name a valid recipient');
  assert.equal(table.rows[0][mapping['BODY.2'] as number], 'SAVE<10>');
});

test('the sample CSV reads back to the same header and example rows', () => {
  const rows = sampleRows(template, slots);
  const table = parseDelimited(sampleCsv(rows));
  assert.deepEqual([table.headers, ...table.rows], rows);
});

test('a fixed value fills its target in every row, and a blank one leaves the target missing', () => {
  const table = { headers: ['phone', 'BODY.1', 'url', 'code'], rows: [['905551234567', 'A', 'u1', 'c1'], ['905551234568', 'B', 'u2', 'c2']] };
  const mapping = { ...autoMap(table.headers, slots), HEADER: { fixed: 'https://img.example/a.png' }, 'BODY.2': { fixed: 'SPRING' } };
  assert.deepEqual(missingTargets(mapping, slots), []);
  const body = toStartRows(table, mapping, slots);
  const at = (h: string) => body.param_headers.indexOf(h);
  assert.deepEqual(body.rows.map((r) => [r[at('HEADER')], r[at('BODY.2')]]), [['https://img.example/a.png', 'SPRING'], ['https://img.example/a.png', 'SPRING']]);
  assert.deepEqual(missingTargets({ ...mapping, 'BODY.2': { fixed: '  ' } }, slots), ['BODY.2']);
});
