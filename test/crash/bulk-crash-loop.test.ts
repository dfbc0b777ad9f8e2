import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { FINAL_STATUSES } from '../../src/domain/message-states.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { phones, v1Rows } from '../support/bulk.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';

/** Kills in one run: 3 by default (CI), TMS_CRASH_KILLS=10 for the full form. */
const KILLS = Number(process.env.TMS_CRASH_KILLS ?? 3);
const ROWS = Number(process.env.TMS_CRASH_ROWS ?? 400);
const A = '/agent-app/message-template/send-wizard';
let world: CrashWorld;

before(async () => {
  world = await startCrashWorld(['--mps', '80']);
});
after(() => world?.close());

test(`kill -9 the service ${KILLS} times during a bulk send: every row final, nobody gets a row twice, counters equal the rows`, async () => {
  let service = await world.startService();
  const numbers = phones(ROWS, '9055900');
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id;
  for (let kill = 0; kill < KILLS; kill += 1) {
    await new Promise((r) => setTimeout(r, 400 + Math.floor(Math.random() * 900)));
    await service.kill('SIGKILL');
    service = await world.startService();
  }
  await until(async () => {
    const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main });
    const it = res.body.items?.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
    return it && it.status === 'COMPLETED';
  }, 180_000, 'bulk send COMPLETED');

  // What the phones got is final once every row is settled.
  const stats = await world.sim('/_sim/stats');
  assert.equal(stats.duplicate_sends, 0, 'a number received the same row twice');
  let received = 0;
  for (const n of numbers) {
    const got = await world.sim(`/_sim/received?to=%2B${n}`);
    assert.ok(got.messages.length <= 1, `${n} received ${got.messages.length} messages`);
    received += got.messages.length;
  }
  // A send in doubt across a kill may first end OUTCOME_UNKNOWN after the reconciliation window; the network's
  // retried status webhook (at most 30 s apart) then moves it to its network state. Wait for those to land.
  const readRows = async () => {
    const out: Array<{ status: string; phone_number: string }> = [];
    for (let page = 1; (page - 1) * 500 < ROWS; page += 1) {
      const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 500 }, id });
      out.push(...res.body.data.report_details);
    }
    return out;
  };
  const inNetworkState = (r: { status: string }) => ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED'].includes(r.status);
  let rows = await readRows();
  try {
    rows = await until(async () => {
      const current = await readRows();
      return current.filter(inNetworkState).length === received ? current : undefined;
    }, 90_000, 'late status webhooks');
  } catch {
    rows = await readRows(); // the assertion below reports the difference
  }
  assert.equal(rows.length, ROWS);
  const unsettled = rows.filter((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status));
  assert.deepEqual(unsettled, []);
  assert.equal(received, rows.filter(inNetworkState).length, 'every row the network got is a row in a network state');
  const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main });
  const item = res.body.items.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
  const count = (statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).length;
  assert.equal(item.summary, ROWS);
  assert.equal(item.waiting + item.queued + item.awaiting_backend_count, 0);
  assert.equal(item.failed_count, count(['OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'SENT_TO_BACKEND_FAILED', 'BACKEND_FAILED']));
  assert.equal(item.processed_count, ROWS - count(['CANCELLED']));
  assert.ok(item.delivered_count >= count(['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN']));
  await service.kill('SIGTERM');
});
