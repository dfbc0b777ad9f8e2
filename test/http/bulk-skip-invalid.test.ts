/**
 * `skip_invalid_rows` (beyond the interface): the bad rows of a start are left out instead of refusing it; they are
 * counted on the bulk send and listed by `send-wizard/reports/skipped`, never dropped without a trace.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, untilWizard } from '../support/bulk.js';
import { csvPart, fieldParts, startFile } from '../support/files.js';

let h: Harness;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  template = await approvedTemplate(h, main);
});
after(() => h.close());

const bulkSends = async () => Number((await sql<{ n: string }>`select count(*) as n from send_wizards`.execute(h.store.db)).rows[0].n);
const skippedRows = async (id: string, token = h.a.token) => h.call('POST', `${A}/reports/skipped`, { token, body: { id, data: { page: 1, page_size: 50 } } });

/** v1 rows: the 2nd has a number too short, the 4th lacks its second body value. */
const rows = [
  { id: 11, phone_number: '905557810013', params: ['Ayse', 'K1'], url_button_param: 'a' },
  { id: 12, phone_number: '90555', params: ['Can', 'K2'], url_button_param: 'c' },
  { id: 13, phone_number: '905557810033', params: ['Deniz', 'K3'], url_button_param: 'd' },
  { id: 14, phone_number: '905557810043', params: ['Elif'], url_button_param: 'e' },
];

test('without skip_invalid_rows a bad row still refuses the whole start and nothing is stored', async () => {
  const before = await bulkSends();
  const res = await h.call('POST', `${A}/start`, { body: { message_template_id: template, channel_id: main, total_time: 0, rows } });
  assert.equal(res.status, 400);
  assert.equal(await bulkSends(), before);
});

test('a start that skips invalid rows sends the good ones and lists the skipped ones with their row, id, phone and problem', async () => {
  const res = await h.call('POST', `${A}/start`, { body: { message_template_id: template, channel_id: main, total_time: 0, rows, skip_invalid_rows: true } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual({ ...res.body.data, send_wizard_id: undefined }, { send_wizard_id: undefined, summary: 2, duplicate_count: 0, skipped_count: 2 });
  const id = res.body.data.send_wizard_id;
  const item = await untilWizard(h, main, id, ['COMPLETED'], 60_000);
  assert.equal(item.skipped_count, 2);
  const listed = await skippedRows(id);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  assert.equal(listed.body.pagination.total, 2);
  const [second, fourth] = listed.body.data.skipped_rows;
  assert.deepEqual([second.row, second.row_id, second.phone_number, second.field], [2, 12, '90555', 'rows[1].phone_number']);
  assert.match(second.message, /digits/);
  assert.deepEqual([fourth.row, fourth.row_id, fourth.phone_number], [4, 14, '905557810043']);
  assert.ok(fourth.field.startsWith('rows[3]'), fourth.field);
  for (const [phone, times] of [['905557810013', 1], ['905557810033', 1], ['905557810043', 0]] as const) {
    assert.equal((await simAdmin(h, `/_sim/received?to=%2B${phone}`)).messages.length, times, phone);
  }
  // Another company sees no such bulk send.
  assert.equal((await skippedRows(id, h.b.token)).status, 404);
});

test('a dry run that skips invalid rows answers their count and the first of them, and stores nothing', async () => {
  const before = await bulkSends();
  const res = await h.call('POST', `${A}/startv2`, {
    body: {
      message_template_id: template, channel_id: main, total_time: 0, dry_run: true, skip_invalid_rows: true,
      param_headers: ['ROW', 'PHONE', 'BODY.1', 'BODY.2', 'BUTTONS.0'],
      rows: [[1, '905557820013', 'A', 'B', 'u'], [7, 'x', 'A', 'B', 'u'], [9, '905557820033', '', 'B', 'u']],
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 1);
  assert.equal(res.body.data.skipped_count, 2);
  assert.deepEqual(res.body.data.skipped_rows.map((r: { row: number; field: string }) => [r.row, r.field]), [[7, 'rows[1].PHONE'], [9, 'rows[2].BODY.1']]);
  assert.equal(await bulkSends(), before);
});

test('a file start skips invalid rows by sheet row', async () => {
  const res = await startFile(h, [
    ...fieldParts({ message_template_id: template, channel_id: main, total_time: 0, skip_invalid_rows: true }),
    csvPart([['phone_number', 'BODY.1', 'BODY.2', 'BUTTONS.0'], ['905557830013', 'A', 'B', 'u'], ['123', 'A', 'B', 'u'], ['905557830033', 'C', 'D', 'v']]),
  ]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.skipped_count, 1);
  const listed = await skippedRows(res.body.data.send_wizard_id);
  assert.deepEqual(listed.body.data.skipped_rows.map((r: { row: number; phone_number: string; field: string }) => [r.row, r.phone_number, r.field]), [[3, '123', 'rows[3].phone_number']]);
  assert.equal((await listItem(h, main, res.body.data.send_wizard_id)).summary, 2);
});

test('when every row is invalid the start is refused even when skipping, and nothing is stored', async () => {
  const before = await bulkSends();
  const res = await h.call('POST', `${A}/start`, { body: { message_template_id: template, channel_id: main, total_time: 0, rows: [rows[1], rows[3]], skip_invalid_rows: true } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
  assert.equal(res.body.errors[0].field, 'rows[0].phone_number');
  assert.equal(await bulkSends(), before);
});

test('skip_invalid_rows must be a boolean (400 naming it, on the JSON and the file starts)', async () => {
  const json = await h.call('POST', `${A}/start`, { body: { message_template_id: template, channel_id: main, total_time: 0, rows, skip_invalid_rows: 'yes' } });
  assert.equal(json.status, 400);
  assert.equal(json.body.errors[0].field, 'skip_invalid_rows');
  const file = await startFile(h, [
    ...fieldParts({ message_template_id: template, channel_id: main, total_time: 0, skip_invalid_rows: 'maybe' }),
    csvPart([['phone_number', 'BODY.1', 'BODY.2', 'BUTTONS.0'], ['905557840013', 'A', 'B', 'u']]),
  ]);
  assert.equal(file.status, 400);
  assert.equal(file.body.errors[0].field, 'skip_invalid_rows');
});
