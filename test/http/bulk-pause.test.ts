/** Pause and resume by the user (beyond the interface): PAUSED_BY_USER, distinct from the service's PAUSED. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { assertCountersExact, receivedCounts } from '../support/lifecycle.js';

let h: Harness;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } }, { channelMaxAgeMs: 300 });
  template = await approvedTemplate(h, main);
  // Warm up: the first send of a process reads the channel from the network; later spreads start on time.
  await untilWizard(h, main, await startV1(h, { message_template_id: template, rows: v1Rows(phones(1, '9055800')), total_time: 0, channel_id: main }), ['COMPLETED'], 60_000);
});
after(() => h.close());

const pause = (id: string) => h.call('POST', `${A}/pause`, { body: { send_wizard_id: id, channel_id: main } });
const resume = (id: string) => h.call('POST', `${A}/resume`, { body: { send_wizard_id: id, channel_id: main } });

test('pause holds every row not handed off, counters stay exact; resume spreads the rest of the window and sends every row once', async () => {
  const numbers = phones(20, '9055810');
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 12, channel_id: main });
  await eventually(async () => (await listItem(h, main, id))?.processed_count >= 2, 20_000);
  const paused = await pause(id);
  assert.equal(paused.status, 200, JSON.stringify(paused.body));
  assert.equal(paused.body.data.status, 'PAUSED_BY_USER');
  assert.ok(paused.body.data.parked_count > 0 && paused.body.data.parked_count <= 18, String(paused.body.data.parked_count));
  await sleep(500); // sends already with the network finish
  const heldAt = sum(await receivedCounts(h, numbers));
  await sleep(2000);
  assert.equal(sum(await receivedCounts(h, numbers)), heldAt, 'a row was handed off while paused');
  const item = await listItem(h, main, id);
  assert.equal(item.status, 'PAUSED_BY_USER');
  assert.equal(item.waiting, 20 - heldAt);
  assert.equal(item.queued, 0);
  await assertCountersExact(h, id);
  const again = await pause(id);
  assert.equal(again.status, 200);
  assert.equal(again.body.data.status, 'PAUSED_BY_USER');
  assert.equal(again.body.data.parked_count, 0);

  const resumedAt = Date.now();
  const resumed = await resume(id);
  assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
  assert.equal(resumed.body.data.status, 'RUNNING');
  const window = resumed.body.data.window_seconds;
  assert.ok(window >= 1 && window <= 12, `window ${window}`);
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  assert.deepEqual(await receivedCounts(h, numbers), Array(20).fill(1));
  await assertCountersExact(h, id);
  // The rows that waited were spread over the rest of the window from the resume, not sent in one burst.
  const dues = (await sql<{ due_at: Date }>`
    select due_at from messages where send_wizard_id = ${id} and backend_sended_time >= ${new Date(resumedAt).toISOString()}::timestamptz order by row_no`.execute(h.store.db)).rows.map((r) => r.due_at.getTime());
  assert.ok(dues.length >= 5, String(dues.length));
  assert.ok(dues[dues.length - 1] - dues[0] >= (window - 1) * 1000 * 0.8, `spread ${dues[dues.length - 1] - dues[0]} ms over a ${window} s window`);
  assert.equal((await simAdmin(h, '/_sim/stats')).duplicate_sends, 0);
});

test("the service never lifts a user pause, and a user resume keeps the service's reason while it holds", async () => {
  const numbers = phones(30, '9055820');
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 15, channel_id: main });
  try {
    await eventually(async () => (await listItem(h, main, id))?.processed_count >= 2, 20_000);
    await simAdmin(h, `/_sim/channels/${main}`, { status: 'FLAGGED' });
    const held = await untilWizard(h, main, id, ['PAUSED'], 20_000);
    assert.match(held.paused_reason, /FLAGGED/);
    const paused = await pause(id);
    assert.equal(paused.body.data.status, 'PAUSED_BY_USER');
    assert.match(paused.body.data.paused_reason, /FLAGGED/);
    // The channel recovers: the service would resume its own pause, never the user's.
    await simAdmin(h, `/_sim/channels/${main}`, { status: 'CONNECTED' });
    await sleep(500);
    const heldAt = sum(await receivedCounts(h, numbers));
    await sleep(2500);
    assert.equal((await listItem(h, main, id)).status, 'PAUSED_BY_USER');
    assert.equal(sum(await receivedCounts(h, numbers)), heldAt);
    // FLAGGED again, then the user resumes: the service's reason still holds, so it stays held.
    await simAdmin(h, `/_sim/channels/${main}`, { status: 'FLAGGED' });
    await sleep(800);
    const resumed = await resume(id);
    assert.equal(resumed.status, 200, JSON.stringify(resumed.body));
    assert.equal(resumed.body.data.status, 'PAUSED');
    await sleep(2000);
    const still = await listItem(h, main, id);
    assert.equal(still.status, 'PAUSED');
    assert.equal(sum(await receivedCounts(h, numbers)), heldAt);
    await simAdmin(h, `/_sim/channels/${main}`, { status: 'CONNECTED' });
    await untilWizard(h, main, id, ['COMPLETED'], 40_000);
    // Sends the network refused while it flagged the channel (before the service saw it) fail; nobody gets two.
    const counts = await receivedCounts(h, numbers);
    const rows = await reportRows(h, id);
    rows.forEach((r: { status: string; error_message?: string }, i: number) => {
      assert.ok(counts[i] === 1 || r.status === 'SENT_TO_BACKEND_FAILED', `row ${i + 1}: ${r.status} ${r.error_message ?? ''}, received ${counts[i]}`);
      assert.ok(counts[i] <= 1);
    });
    assert.ok(counts.filter((c) => c === 1).length >= heldAt + 10, 'the rows held by the pause were sent after the resume');
    await assertCountersExact(h, id);
  } finally {
    await simAdmin(h, `/_sim/channels/${main}`, { status: 'CONNECTED' });
  }
});

test('stop of a user-paused bulk send cancels its waiting rows with exact counters', async () => {
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(20, '9055830')), total_time: 20, channel_id: main });
  await eventually(async () => (await listItem(h, main, id))?.processed_count >= 1, 10_000);
  assert.equal((await pause(id)).status, 200);
  const stopped = await h.call('POST', `${A}/stop`, { body: { send_wizard_id: id, channel_id: main } });
  assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
  assert.ok(stopped.body.data.cancelled_count >= 15);
  assert.equal((await listItem(h, main, id)).status, 'STOPPED');
  await assertCountersExact(h, id);
});

test('pause and resume answer 409 for finished and scheduled bulk sends; resume of a running one changes nothing', async () => {
  const done = await startV1(h, { message_template_id: template, rows: v1Rows(phones(1, '9055840')), total_time: 0, channel_id: main });
  await untilWizard(h, main, done, ['COMPLETED']);
  for (const call of [pause, resume]) {
    const res = await call(done);
    assert.equal(res.status, 409);
    assert.equal(res.body.errors[0].code, 'BULK_SEND_FINISHED');
    assert.equal(res.body.errors[0].field, 'send_wizard_id');
  }
  const scheduled = await startV1(h, { message_template_id: template, rows: v1Rows(phones(1, '9055841')), total_time: 0, channel_id: main, scheduled_at: new Date(Date.now() + 3600_000).toISOString() });
  for (const call of [pause, resume]) {
    const res = await call(scheduled);
    assert.equal(res.status, 409);
    assert.equal(res.body.errors[0].code, 'BULK_SEND_NOT_STARTED');
  }
  const running = await startV1(h, { message_template_id: template, rows: v1Rows(phones(5, '9055842')), total_time: 30, channel_id: main });
  const res = await resume(running);
  assert.equal(res.status, 200);
  assert.equal(res.body.data.status, 'RUNNING');
  await h.call('POST', `${A}/stop`, { body: { send_wizard_id: running, channel_id: main } });
});

test("family B pause and resume by id; another company's bulk send is 404 in both families", async () => {
  const numbers = phones(10, '9055850');
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 10, channel_id: main });
  const p = await h.call('POST', `/api/v1/send-wizards/${id}/pause`);
  assert.equal(p.status, 200, JSON.stringify(p.body));
  assert.equal(p.body.success, true);
  assert.equal(p.body.status_code, 200);
  assert.equal(p.body.data.status, 'PAUSED_BY_USER');
  for (const path of [`/api/v1/send-wizards/${id}/pause`, `/api/v1/send-wizards/${id}/resume`, `/api/v1/send-wizards/${id}/retry`]) {
    const other = await h.call('POST', path, { token: h.b.token, ...(path.endsWith('retry') ? { body: {} } : {}) });
    assert.equal(other.status, 404, `${path}: ${JSON.stringify(other.body)}`);
    assert.equal(other.body.errors[0].code, 'NOT_FOUND');
  }
  const otherA = await h.call('POST', `${A}/resume`, { token: h.b.token, body: { send_wizard_id: id, channel_id: main } });
  assert.equal(otherA.status, 404);
  assert.equal((await h.call('POST', '/api/v1/send-wizards/000000000000000000000000/pause')).status, 404);
  const r = await h.call('POST', `/api/v1/send-wizards/${id}/resume`);
  assert.equal(r.status, 200, JSON.stringify(r.body));
  assert.equal(r.body.data.status, 'RUNNING');
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  assert.deepEqual(await receivedCounts(h, numbers), Array(10).fill(1));
});
