/**
 * A stop answers at once whatever the list's size: the bulk send is STOPPED in the stop's transaction with one
 * bounded batch of its rows cancelled; the rest is cancelled in batches behind the answer (the dispatcher's
 * maintenance), the reports list says how many are still being cancelled, the counters are exact at the end, and
 * no row of it reaches the network after the answer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { WITHDRAW_BATCH } from '../../src/store/bulk-sends.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, startV1, v1Rows } from '../support/bulk.js';
import { assertCountersExact } from '../support/lifecycle.js';

let h: Harness;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';
const ROWS = 2 * WITHDRAW_BATCH + 500;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  template = await approvedTemplate(h, main);
});
after(() => h.close());

test('a stop of a list larger than one batch answers STOPPED with one batch cancelled; the rest is cancelled behind it', async () => {
  const scheduledAt = new Date(Date.now() + 3600_000).toISOString();
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(ROWS, '9055710')), total_time: 0, channel_id: main, scheduled_at: scheduledAt });
  const res = await h.call('POST', `${A}/stop`, { body: { send_wizard_id: id, channel_id: main } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.status, 'STOPPED');
  assert.equal(res.body.data.cancelled_count, WITHDRAW_BATCH, 'the stop itself cancels one batch');
  assert.equal(res.body.data.cancelling_count, ROWS - WITHDRAW_BATCH, 'the answer says what is left to cancel');
  assert.equal((await listItem(h, main, id)).status, 'STOPPED');
  const done = await eventually(async () => {
    const item = await listItem(h, main, id);
    return item.cancelling_count === 0 ? item : undefined;
  }, 60_000);
  assert.equal(done.cancelled_count, ROWS);
  assert.equal(done.waiting + done.queued, 0);
  await assertCountersExact(h, id);
});

test('no row of a stopped list reaches the network after the answer, while its rows are still being cancelled', async () => {
  const before = (await simAdmin(h, '/_sim/received')).messages as number;
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(ROWS, '9055720')), total_time: 0, channel_id: main });
  await eventually(async () => (await listItem(h, main, id)).processed_count >= 20, 30_000);
  const res = await h.call('POST', `${A}/stop`, { body: { send_wizard_id: id, channel_id: main } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  // Every send the network gets from now on must have had its attempt recorded before the stop answered.
  const attempted = Number((await sql<{ n: number }>`
    select count(*)::int as n from messages where send_wizard_id = ${id} and send_attempted_at is not null`.execute(h.store.db)).rows[0].n);
  await eventually(async () => (await listItem(h, main, id)).cancelling_count === 0, 60_000);
  await eventually(async () => (await listItem(h, main, id)).queued === 0, 10_000);
  await new Promise((r) => setTimeout(r, 1000));
  const sent = ((await simAdmin(h, '/_sim/received')).messages as number) - before;
  assert.equal(sent, attempted, `${sent} sends reached the network, ${attempted} were attempted before the stop answered`);
  const counters = await assertCountersExact(h, id);
  assert.equal(counters.cancelled_count, ROWS - attempted);
});
