import { test } from 'node:test';
import assert from 'node:assert/strict';
import { autoMap, checkRows, countDuplicates, FULL_NAME, issuesFromErrors, issuesFromFileErrors, missingTargets, PHONE, toFileMapping, toStartRows, USER_ID } from '../../web/src/pages/wizard/mapping.js';
import { templateSlots } from '../../web/src/pages/wizard/slots.js';
import { duration, pacingText } from '../../web/src/pages/wizard/pacing.js';
import type { ApiComponent } from '../../web/src/pages/templates/types.js';
import { templateSlots as serviceSlots } from '../../src/domain/bulk-rows.js';
import type { StoredComponents } from '../../src/domain/templates/types.js';

const everyKind: ApiComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
  { type: 'BODY', text: 'Order {{1}} ships {{2}}.' },
  { type: 'BUTTONS', buttons: [
    { type: 'URL', text: 'Track', url: 'https://t.example/{{1}}' },
    { type: 'COPY_CODE', example: 'X' },
    { type: 'QUICK_REPLY', text: 'Stop' },
    { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+905550000000' },
  ] },
];

const carousel: ApiComponent[] = [
  { type: 'BODY', text: 'Picks for {{1}} this week' },
  { type: 'CAROUSEL', cards: [0, 1].map(() => ({ components: [
    { type: 'HEADER', format: 'IMAGE' },
    { type: 'BODY', text: 'Only {{1}} today' },
    { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'More' }, { type: 'URL', text: 'Buy', url: 'https://b.example/{{1}}' }] },
  ] })) },
];

test('a template’s slots are the startv2 columns, in the service’s order', () => {
  assert.deepEqual(templateSlots(everyKind).map((s) => s.column), ['HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1', 'BUTTONS.2']);
  assert.deepEqual(templateSlots(carousel).map((s) => s.column), [
    'BODY.1', 'CAROUSEL.0.HEADER', 'CAROUSEL.0.BODY.1', 'CAROUSEL.0.BUTTONS.0', 'CAROUSEL.0.BUTTONS.1',
    'CAROUSEL.1.HEADER', 'CAROUSEL.1.BODY.1', 'CAROUSEL.1.BUTTONS.0', 'CAROUSEL.1.BUTTONS.1',
  ]);
});

test('the console’s columns are the service’s columns (positional, named, media, carousel)', () => {
  const named: ApiComponent[] = [{ type: 'HEADER', format: 'TEXT', text: 'Hi {{first_name}}' }, { type: 'BODY', text: 'Use {{code}} by {{date}}.' }];
  const media: ApiComponent[] = [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'See {{2}} and {{1}}.' }];
  for (const t of [everyKind, carousel, named, media]) {
    assert.deepEqual(templateSlots(t).map((s) => [s.column, s.optional]), serviceSlots(t as StoredComponents).map((s) => [s.column, s.optional]));
  }
});

test('headers named like the columns map themselves, in any case', () => {
  const headers = ['Phone Number', 'Full Name', 'body.1', 'CAROUSEL.0.BODY.1', 'carousel.1.buttons.1', 'CAROUSEL.0.HEADER', 'Carousel_1_Header', 'CAROUSEL.0.BUTTONS.1', 'CAROUSEL.1.BODY.1'];
  const m = autoMap(headers, templateSlots(carousel));
  assert.equal(m[PHONE], 0);
  assert.equal(m[FULL_NAME], 1);
  assert.equal(m['BODY.1'], 2);
  assert.equal(m['CAROUSEL.0.BODY.1'], 3);
  assert.equal(m['CAROUSEL.1.BUTTONS.1'], 4);
  assert.equal(m['CAROUSEL.0.HEADER'], 5);
  assert.equal(m['CAROUSEL.1.HEADER'], 6);
  assert.equal(m['CAROUSEL.0.BUTTONS.0'], null);
  assert.deepEqual(missingTargets(m, templateSlots(carousel)), []);
});

test('the v1 row field names map too (params, url_button_param, copy_code_param, text_header_param)', () => {
  const m = autoMap(['phone', 'name', 'text_header_param', 'params[0]', 'params[1]', 'url_button_param', 'copy_code_param'], templateSlots(everyKind));
  assert.deepEqual([m[PHONE], m[FULL_NAME], m['HEADER.1'], m['BODY.1'], m['BODY.2'], m['BUTTONS.0'], m['BUTTONS.1'], m['BUTTONS.2']], [0, 1, 2, 3, 4, 5, 6, null]);
});

test('a named template maps its variable names and BODY.<name>; a bare "name" column still goes to the name when no variable is called so', () => {
  const named: ApiComponent[] = [{ type: 'BODY', text: 'Hi {{first_name}}, use {{code}}.' }];
  const m = autoMap(['name', 'msisdn', 'first_name', 'BODY.code'], templateSlots(named));
  assert.deepEqual([m[PHONE], m['BODY.first_name'], m['BODY.code'], m[FULL_NAME]], [1, 2, 3, 0]);
});

test('the required targets left unmapped are listed (the quick-reply payload is optional)', () => {
  const m = autoMap(['phone_number', 'BODY.1'], templateSlots(everyKind));
  assert.deepEqual(missingTargets(m, templateSlots(everyKind)), ['HEADER.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1']);
});

test('row checks name the row and column of a bad phone and an empty required cell', () => {
  const slots = templateSlots([{ type: 'BODY', text: 'Code {{1}} for {{2}}.' }]);
  const table = { headers: ['phone', 'BODY.1', 'BODY.2'], rows: [['905551234567', 'A', 'B'], ['12ab', 'A', 'B'], ['905551234568', '', 'B']] };
  const issues = checkRows(table, autoMap(table.headers, slots), slots);
  assert.deepEqual(issues.map((i) => [i.row, i.target]), [[1, PHONE], [2, 'BODY.1']]);
});

test('duplicates count numbers written differently once', () => {
  const table = { headers: ['phone'], rows: [['905551234567'], ['+90 555 123 45 67'], ['00905551234567'], ['905551234568']] };
  assert.equal(countDuplicates(table, { [PHONE]: 0 }), 2);
});

test('the startv2 body holds row numbers, the phone, mapped columns and the name; an empty payload is null', () => {
  const slots = templateSlots(everyKind);
  const table = { headers: ['full_name', 'phone_number', 'HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1', 'BUTTONS.2'], rows: [['Ayse', ' 905551234567 ', 'Ayse', 'A1', 'Mon', 't1', 'C1', '']] };
  const body = toStartRows(table, autoMap(table.headers, slots), slots);
  assert.deepEqual(body.param_headers, ['ROW', 'PHONE', 'HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1', 'BUTTONS.2', 'FULL_NAME']);
  assert.deepEqual(body.rows, [[1, '905551234567', 'Ayse', 'A1', 'Mon', 't1', 'C1', null, 'Ayse']]);
});

test('the service’s error paths become row issues at their column', () => {
  const headers = ['ROW', 'PHONE', 'BODY.1', 'FULL_NAME'];
  const issues = issuesFromErrors([
    { field: 'rows[3].PHONE', message: 'row 4: bad phone' },
    { field: 'rows[5].BODY.1', message: 'row 6: BODY.1 is required' },
    { field: 'rows[7][0]', message: 'row number' },
    { field: 'rows[8][2]', message: 'cell too long' },
    { field: 'message_template_id', message: 'not approved' },
  ], headers);
  assert.deepEqual(issues.map((i) => [i.row, i.target]), [[3, PHONE], [5, 'BODY.1'], [7, null], [8, 'BODY.1'], [null, null]]);
});

test('pacing is explained per message', () => {
  assert.match(pacingText(3600, 1000), /1,000 messages are spread evenly over 1 h: about one message every 3.6 s/);
  assert.match(pacingText(60, 600), /about 10 messages per second/);
  assert.match(pacingText(0, 5), /as fast as the channel allows/);
  assert.equal(duration(5400), '1 h 30 min');
});

test('a file start maps file headers to targets, and its sheet-row errors land on the target', () => {
  const slots = templateSlots(everyKind);
  const headers = ['Phone Number', 'Full Name', 'HEADER.1', 'BODY.1', 'BODY.2', 'url_button_param', 'copy_code_param'];
  const m = autoMap(headers, slots);
  assert.deepEqual(toFileMapping(headers, m), {
    'Phone Number': 'phone_number', 'Full Name': 'full_name', 'HEADER.1': 'HEADER.1', 'BODY.1': 'BODY.1', 'BODY.2': 'BODY.2',
    url_button_param: 'BUTTONS.0', copy_code_param: 'BUTTONS.1',
  });
  const issues = issuesFromFileErrors([
    { field: 'rows[15001].Phone Number', message: 'bad phone' },
    { field: 'rows[7].BODY.2', message: 'empty' },
    { field: 'mapping.BODY.1', message: 'unknown target' },
    { field: 'file', message: 'not a CSV' },
  ], headers, m);
  assert.deepEqual(issues.map((i) => [i.row, i.sheetRow, i.target]), [[null, 15001, PHONE], [null, 7, 'BODY.2'], [null, undefined, 'BODY.1'], [null, undefined, null]]);
});

test('a user_id (BSUID) column maps by itself and makes the phone column optional', () => {
  const slots = templateSlots([{ type: 'BODY', text: 'Code {{1}}.' }]);
  const headers = ['BSUID', 'BODY.1'];
  const m = autoMap(headers, slots);
  assert.equal(m[USER_ID], 0);
  assert.deepEqual(missingTargets(m, slots), []);
  assert.deepEqual(missingTargets({ ...m, [USER_ID]: null }, slots), [PHONE]);
  assert.deepEqual(toFileMapping(headers, m), { BSUID: 'user_id', 'BODY.1': 'BODY.1' });
});

test('row checks want a phone number or a BSUID, and name a malformed BSUID at its column', () => {
  const slots = templateSlots([{ type: 'BODY', text: 'Code {{1}}.' }]);
  const table = { headers: ['phone', 'user_id', 'BODY.1'], rows: [['', 'TR.1234567890', 'A'], ['', '', 'A'], ['905551234567', 'tr-123', 'A'], ['905551234568', 'US.ENT.99', 'A']] };
  const issues = checkRows(table, autoMap(table.headers, slots), slots);
  assert.deepEqual(issues.map((i) => [i.row, i.target]), [[1, PHONE], [2, USER_ID]]);
});

test('a BSUID repeated, or given with a phone number an earlier row has, is a duplicate', () => {
  const table = { headers: ['phone', 'user_id'], rows: [['', 'TR.1'], ['', 'TR.1'], ['905551234567', 'TR.2'], ['+90 555 123 45 67', ''], ['', 'TR.2'], ['', 'TR.3']] };
  assert.equal(countDuplicates(table, { [PHONE]: 0, [USER_ID]: 1 }), 3);
});

test('the startv2 body carries a USER_ID column; an empty phone or BSUID cell is null, and its errors land on the target', () => {
  const slots = templateSlots([{ type: 'BODY', text: 'Code {{1}}.' }]);
  const table = { headers: ['phone', 'user_id', 'BODY.1'], rows: [['', 'TR.1234567890', 'A'], ['905551234567', '', 'B']] };
  const body = toStartRows(table, autoMap(table.headers, slots), slots);
  assert.deepEqual(body.param_headers, ['ROW', 'PHONE', 'BODY.1', 'USER_ID']);
  assert.deepEqual(body.rows, [[1, null, 'A', 'TR.1234567890'], [2, '905551234567', 'B', null]]);
  const issues = issuesFromErrors([{ field: 'rows[0].USER_ID', message: 'row 1: not a BSUID' }], body.param_headers);
  assert.deepEqual(issues.map((i) => [i.row, i.target]), [[0, USER_ID]]);
});
