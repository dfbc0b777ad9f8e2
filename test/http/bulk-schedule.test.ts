/** Scheduled bulk sends (beyond the interface): SCHEDULED with NONE rows until their time. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { countersSnapshot, receivedCounts } from '../support/lifecycle.js';
import { csvPart, fieldParts, startFile } from '../support/files.js';

let h: Harness;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';
const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  template = await approvedTemplate(h, main);
});
after(() => h.close());

const received = (numbers: string[]) => receivedCounts(h, numbers);

test('a scheduled bulk send stays SCHEDULED with NONE rows, then runs at its time and sends each row once', async () => {
  const numbers = phones(6, '9055710');
  // A long lead: on a loaded machine the start request itself can take seconds.
  const at = inSeconds(20);
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 0, channel_id: main, scheduled_at: at });
  const item = await listItem(h, main, id);
  assert.equal(item.status, 'SCHEDULED');
  assert.equal(item.scheduled_at, new Date(at).toISOString());
  assert.equal(item.waiting, 6);
  await new Promise((r) => setTimeout(r, 1500));
  assert.deepEqual((await reportRows(h, id)).map((r: { status: string }) => r.status), Array(6).fill('NONE'));
  assert.deepEqual(await received(numbers), Array(6).fill(0));
  assert.equal((await listItem(h, main, id)).status, 'SCHEDULED');
  const done = await untilWizard(h, main, id, ['COMPLETED'], 60_000);
  assert.equal(done.summary, 6);
  assert.deepEqual(await received(numbers), Array(6).fill(1));
  const first = Math.min(...(await reportRows(h, id)).map((r: { backend_sended_time: string }) => Date.parse(r.backend_sended_time)));
  assert.ok(first >= Date.parse(at), `sent at ${new Date(first).toISOString()}, before its time ${at}`);
});

test('total_time spreads the rows from the time the schedule starts', async () => {
  const at = inSeconds(10);
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(4, '9055720')), total_time: 2, channel_id: main, scheduled_at: at });
  await untilWizard(h, main, id, ['COMPLETED'], 40_000);
  const rows = (await sql<{ due_at: Date; started_at: Date }>`
    select m.due_at, w.started_at from messages m join send_wizards w on w.id = m.send_wizard_id
    where m.send_wizard_id = ${id} order by m.row_no`.execute(h.store.db)).rows;
  const start = rows[0].started_at.getTime();
  assert.ok(start >= Date.parse(at), 'started before its time');
  rows.forEach((r, i) => assert.ok(Math.abs(r.due_at.getTime() - (start + i * 500)) < 5, `row ${i + 1} due ${r.due_at.toISOString()}`));
});

test('a scheduled bulk send stopped before its time cancels every row, counters exact, and never starts', async () => {
  const numbers = phones(5, '9055730');
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 0, channel_id: main, scheduled_at: inSeconds(8) });
  const res = await h.call('POST', `${A}/stop`, { body: { send_wizard_id: id, channel_id: main } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.cancelled_count, 5);
  await new Promise((r) => setTimeout(r, 9000)); // past its time: it must not start
  const item = await listItem(h, main, id);
  assert.equal(item.status, 'STOPPED');
  assert.equal(item.cancelled_count, 5);
  assert.equal(item.waiting, 0);
  const s = await countersSnapshot(h, id);
  for (const c of ['waiting', 'queued', 'cancelled_count', 'processed_count']) assert.equal(s[c], s[`r_${c}`], c);
  assert.deepEqual(await received(numbers), Array(5).fill(0));
});

test('scheduled_at in the past, without an offset, not a date or over 90 days ahead is 400 naming the field; nothing is stored', async () => {
  const before = (await sql<{ n: number }>`select count(*)::int as n from send_wizards`.execute(h.store.db)).rows[0].n;
  for (const bad of [new Date(Date.now() - 60_000).toISOString(), '2030-01-01T10:00:00', '2030-02-30T10:00:00Z', 'tomorrow', 17, inSeconds(91 * 86400)]) {
    const res = await h.call('POST', `${A}/start`, { body: { message_template_id: template, rows: v1Rows(phones(1, '9055740')), total_time: 0, channel_id: main, scheduled_at: bad } });
    assert.equal(res.status, 400, `${bad}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errors[0].field, 'scheduled_at');
  }
  const v2 = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: template, channel_id: main, total_time: 0, param_headers: ['row', 'phone', 'BODY.1', 'BODY.2', 'BUTTONS.0'], rows: [[1, '905574000013', 'a', 'b', 'c']], scheduled_at: '2020-01-01T00:00:00Z' },
  });
  assert.equal(v2.status, 400);
  assert.equal(v2.body.errors[0].field, 'scheduled_at');
  assert.equal((await sql<{ n: number }>`select count(*)::int as n from send_wizards`.execute(h.store.db)).rows[0].n, before);
});

test('startv2 takes scheduled_at too', async () => {
  const res = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: template, channel_id: main, total_time: 0, param_headers: ['row', 'phone', 'BODY.1', 'BODY.2', 'BUTTONS.0'], rows: [[1, '905575000013', 'a', 'b', 'c']], scheduled_at: inSeconds(3600) },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const item = await listItem(h, main, res.body.data.send_wizard_id);
  assert.equal(item.status, 'SCHEDULED');
  assert.equal(item.waiting, 1);
});

test('the file start (start-file) takes scheduled_at too, and refuses a bad one naming the field', async () => {
  const table = [['id', 'phone_number', 'BODY.1', 'BODY.2', 'url_button_param'], [1, '905576000013', 'a', 'b', 'c']];
  const ok = await startFile(h, [...fieldParts({ message_template_id: template, channel_id: main, total_time: 0, scheduled_at: inSeconds(3600) }), csvPart(table)]);
  assert.equal(ok.status, 200, JSON.stringify(ok.body));
  assert.equal((await listItem(h, main, ok.body.data.send_wizard_id)).status, 'SCHEDULED');
  const bad = await startFile(h, [...fieldParts({ message_template_id: template, channel_id: main, total_time: 0, scheduled_at: '2020-01-01T00:00:00Z' }), csvPart(table)]);
  assert.equal(bad.status, 400, JSON.stringify(bad.body));
  assert.equal(bad.body.errors[0].field, 'scheduled_at');
});
