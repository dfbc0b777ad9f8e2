/**
 * Scheduling across a restart: the schedule lives in the database. A bulk send is scheduled,
 * the service is killed (SIGKILL) before its time and started again after it: the bulk send starts once and
 * every recipient gets its row exactly once. On PostgreSQL two instances run after the restart, both polling
 * for due schedules: the status-guarded activation lets only one start it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { phones, v1Rows } from '../support/bulk.js';
import { onPostgres } from '../support/db.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { freePort, type Proc } from '../support/processes.js';

const A = '/agent-app/message-template/send-wizard';
const MAIN = SIM_CHANNEL_IDS.main;
const ROWS = 40;
let world: CrashWorld;
const running: Proc[] = [];

before(async () => {
  world = await startCrashWorld(['--mps', '80']);
});
after(async () => {
  for (const p of running) await p.kill();
  await world?.close();
});

async function item(id: string, port?: number) {
  const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 50, channel_id: MAIN }, port);
  return res.body.items?.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
}

test('a scheduled bulk send survives a kill -9: started again after its time, it runs once and nobody gets a row twice', async () => {
  const first = await world.startService();
  running.push(first);
  const numbers = phones(ROWS, '9055960');
  const at = new Date(Date.now() + 8000);
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 2, channel_id: MAIN, scheduled_at: at.toISOString() });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id;
  assert.equal((await item(id)).status, 'SCHEDULED');
  await first.kill('SIGKILL');
  // Down across the scheduled time.
  await new Promise((r) => setTimeout(r, Math.max(0, at.getTime() - Date.now()) + 2000));
  assert.equal((await world.sim('/_sim/received')).messages, 0, 'nothing was sent while the service was down');
  running.push(await world.startService());
  let secondPort: number | undefined;
  if (onPostgres) {
    secondPort = await freePort();
    running.push(await world.startService({}, secondPort));
  }
  const done = await until(async () => {
    const it = await item(id);
    return it && it.status === 'COMPLETED' ? it : undefined;
  }, 120_000, 'scheduled bulk send COMPLETED');
  assert.equal(done.summary, ROWS);
  assert.equal(done.delivered_count, ROWS);
  if (secondPort) assert.equal((await item(id, secondPort)).status, 'COMPLETED');
  const stats = await world.sim('/_sim/stats');
  assert.equal(stats.duplicate_sends, 0);
  for (const n of numbers) assert.equal((await world.sim(`/_sim/received?to=%2B${n}`)).messages.length, 1, n);
});
