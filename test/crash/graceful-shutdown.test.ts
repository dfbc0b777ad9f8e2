/**
 * Graceful shutdown of a real `tms serve` process: SIGTERM in the middle of a bulk send whose network calls take
 * 3 s each. Readiness answers 503 at once, the sends in flight finish and their outcomes are stored, the process
 * exits with code 0 (1 would mean SHUTDOWN_TIMEOUT_MS passed first), and nothing is left claimed or in doubt.
 * After a restart every row is sent exactly once. Then the deadline: calls of 8 s against SHUTDOWN_TIMEOUT_MS=1000
 * make the process exit with code 1 without waiting, and after a restart still nothing is sent twice.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { FINAL_STATUSES } from '../../src/domain/message-states.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { DEMO_COMPANY_ID } from '../../src/admin.js';
import { openDatabase } from '../../src/store/db.js';
import { tmsJson } from '../support/processes.js';
import { phones, v1Rows } from '../support/bulk.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';

const ROWS = 150;
const A = '/agent-app/message-template/send-wizard';
let world: CrashWorld;

before(async () => {
  world = await startCrashWorld(['--mps', '80'], { SHUTDOWN_TIMEOUT_MS: '60000' });
});
after(() => world?.close());

/** Sets the channel's messages per second (the service must be stopped: PGlite is one process's database). */
async function throughput(mps: number): Promise<void> {
  await tmsJson(['channel', 'update', '--company', DEMO_COMPANY_ID, '--phone-number-id', SIM_CHANNEL_IDS.main, '--throughput', String(mps)], world.env);
}

/** Reads the stopped service's database directly. */
async function rowsAfterExit() {
  const store = await openDatabase(world.env.DATABASE_URL ? { databaseUrl: world.env.DATABASE_URL } : { dataDir: world.env.DATA_DIR });
  try {
    const result = await sql<{ held: number; handed_off: number; queued: number }>`
      select (count(*) filter (where status in ('AGENDA', 'OPT_IN_SUCCESS') or lease_owner is not null))::int as held,
        (count(*) filter (where ext_id is not null))::int as handed_off,
        (count(*) filter (where status = 'QUEUED'))::int as queued
      from messages`.execute(store.db);
    return result.rows[0];
  } finally {
    await store.close();
  }
}

test('SIGTERM during a bulk send: readiness 503 at once, sends in flight finish and are stored, exit code 0; after a restart every row is sent once', async () => {
  // 10 messages a second, each network call 3 s: about 30 sends in flight at any time, and the rest still queued.
  await throughput(10);
  let service = await world.startService();
  const base = `http://127.0.0.1:${world.servicePort}`;
  const numbers = phones(ROWS, '9055710');
  await world.sim('/_sim/faults', { latencyMs: 3000 });
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id;
  // Some sends answered, more in flight (each network call takes 3 s).
  await until(async () => (await world.sim('/_sim/stats')).sends_accepted >= 10, 120_000, 'first sends accepted');

  service.child.kill('SIGTERM');
  // The signal reaches the process asynchronously: a request may still be answered before it; then 503 while draining.
  const draining = await until(async () => {
    const ready = await fetch(`${base}/readyz`);
    return ready.status === 503 ? ((await ready.json()) as { status: string }) : undefined;
  }, 20_000, 'readiness 503 while draining');
  assert.equal(draining.status, 'draining');
  const exit = await service.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, service.output());

  // Every send the network accepted is stored as handed off; nothing is still claimed or awaiting its answer.
  const stats = await world.sim('/_sim/stats');
  const after = await rowsAfterExit();
  assert.equal(after.held, 0, 'rows left claimed or in doubt');
  assert.equal(after.handed_off, stats.sends_accepted, 'a send the network accepted is not stored as handed off');
  assert.ok(after.queued > 0, 'the bulk send finished before the signal: the test proves nothing');

  await world.sim('/_sim/faults', { latencyMs: 0 });
  service = await world.startService();
  await until(async () => {
    const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main });
    const item = res.body.items?.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
    return item && item.status === 'COMPLETED';
  }, 180_000, 'bulk send COMPLETED after the restart');
  assert.equal((await world.sim('/_sim/stats')).duplicate_sends, 0);
  for (const n of numbers) {
    const got = await world.sim(`/_sim/received?to=%2B${n}`);
    assert.equal(got.messages.length, 1, `${n} received ${got.messages.length} messages`);
  }
  const rows: Array<{ status: string }> = [];
  for (let page = 1; (page - 1) * 500 < ROWS; page += 1) {
    const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 500 }, id });
    rows.push(...res.body.data.report_details);
  }
  assert.equal(rows.length, ROWS);
  assert.deepEqual(rows.filter((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status) && r.status !== 'SENT_TO_BACKEND'), []);
  await service.kill('SIGTERM');
});

/** Report rows of a bulk send. */
async function reportRows(id: string, count: number): Promise<Array<{ status: string }>> {
  const rows: Array<{ status: string }> = [];
  for (let page = 1; (page - 1) * 500 < count; page += 1) {
    const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 500 }, id });
    rows.push(...res.body.data.report_details);
  }
  return rows;
}

test('past SHUTDOWN_TIMEOUT_MS the process exits with code 1 without waiting; after a restart no row is sent twice and every row settles', async () => {
  const rowsCount = 60;
  // 5 messages a second, each network call 8 s: about 40 sends in flight when the signal comes, answered after the deadline.
  await throughput(5);
  let service = await world.startService({ SHUTDOWN_TIMEOUT_MS: '1000' });
  const numbers = phones(rowsCount, '9055720');
  const accepted = (await world.sim('/_sim/stats')).sends_accepted as number;
  await world.sim('/_sim/faults', { latencyMs: 8000 });
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id;
  await until(async () => (await world.sim('/_sim/stats')).sends_accepted > accepted, 120_000, 'first send accepted');

  service.child.kill('SIGTERM');
  const exit = await service.exited;
  assert.deepEqual(exit, { code: 1, signal: null }, service.output());
  assert.match(service.output(), /SHUTDOWN_TIMEOUT_MS/);

  await world.sim('/_sim/faults', { latencyMs: 0 });
  service = await world.startService();
  const inNetworkState = (r: { status: string }) => ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED'].includes(r.status);
  let received = 0;
  // Sends cut off by the exit settle by their status webhooks (retried by the network) or the reconciliation window.
  const rows = await until(async () => {
    const current = await reportRows(id, rowsCount);
    if (current.some((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status))) return undefined;
    received = 0;
    for (const n of numbers) received += (await world.sim(`/_sim/received?to=%2B${n}`)).messages.length;
    return current.filter(inNetworkState).length === received ? current : undefined;
  }, 240_000, 'every row final and every received row in a network state');
  assert.equal(rows.length, rowsCount);
  assert.equal((await world.sim('/_sim/stats')).duplicate_sends, 0);
  for (const n of numbers) {
    const got = await world.sim(`/_sim/received?to=%2B${n}`);
    assert.ok(got.messages.length <= 1, `${n} received ${got.messages.length} messages`);
  }
  await service.kill('SIGTERM');
});
