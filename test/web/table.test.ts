import { test } from 'node:test';
import assert from 'node:assert/strict';
import ExcelJS from 'exceljs';
import { parseCsvHead, parseDelimited, parseXlsx, TableError, toTable } from '../../web/src/pages/wizard/table.js';

test('a CSV with a header row becomes headers and text rows', () => {
  const t = parseDelimited('phone_number,full_name,BODY.1\n905551234567,Ayse,SAVE10\n905551234568,"Ali, Jr",X\n');
  assert.deepEqual(t.headers, ['phone_number', 'full_name', 'BODY.1']);
  assert.deepEqual(t.rows, [['905551234567', 'Ayse', 'SAVE10'], ['905551234568', 'Ali, Jr', 'X']]);
});

test('semicolon CSV with a byte-order mark and blank lines is read', () => {
  const t = parseDelimited('\uFEFFphone;name\r\n\r\n905551234567;Ayse\r\n');
  assert.deepEqual(t.headers, ['phone', 'name']);
  assert.deepEqual(t.rows, [['905551234567', 'Ayse']]);
});

test('text pasted from a spreadsheet (tab separated) without a header gets generated column names', () => {
  const t = parseDelimited('905551234567\tAyse\n905551234568\tAli');
  assert.deepEqual(t.headers, ['Column 1', 'Column 2']);
  assert.equal(t.rows.length, 2);
});

test('short rows are padded to the header width', () => {
  const t = toTable([['phone', 'name', 'BODY.1'], ['905551234567']]);
  assert.deepEqual(t.rows, [['905551234567', '', '']]);
});

test('a header without rows is refused with a message', () => {
  assert.throws(() => parseDelimited('phone,name\n'), TableError);
});

test('the first sheet of an XLSX becomes a table, long numbers exact', async () => {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('list');
  ws.addRow(['phone_number', 'full_name', 'BODY.1', 'amount']);
  ws.addRow([905551234567, 'Ayse', 'SAVE10', 12.5]);
  ws.addRow(['+90 555 123 45 68', 'Ali', '', 3]);
  const buffer = await wb.xlsx.writeBuffer();
  const t = await parseXlsx(new Uint8Array(buffer as ArrayBuffer).buffer as ArrayBuffer);
  assert.deepEqual(t.headers, ['phone_number', 'full_name', 'BODY.1', 'amount']);
  assert.deepEqual(t.rows, [['905551234567', 'Ayse', 'SAVE10', '12.5'], ['+90 555 123 45 68', 'Ali', '', '3']]);
});

test('a file that is not a workbook is refused with a message', async () => {
  await assert.rejects(parseXlsx(new TextEncoder().encode('phone\n1').buffer as ArrayBuffer), TableError);
});

test('the head of a large CSV gives its header and first rows; a cut last line is dropped', () => {
  const text = 'phone,name\n' + Array.from({ length: 20000 }, (_, i) => `9055500${String(i).padStart(5, '0')},Name ${i}`).join('\n');
  const head = text.slice(0, 256 * 1024);
  const t = parseCsvHead(head, 50);
  assert.deepEqual(t.headers, ['phone', 'name']);
  assert.equal(t.rows.length, 50);
  assert.deepEqual(t.rows[49], ['905550000049', 'Name 49']);
  const all = parseCsvHead(head, 100000);
  assert.ok(all.rows.every((r) => /^9055500\d{5}$/.test(r[0]) && /^Name \d+$/.test(r[1])), 'no cut row');
});
