import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { phones, v1Rows } from '../support/bulk.js';
import { onPostgres } from '../support/db.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const ROWS = 30;
const CONCURRENCY = 4;
const A = '/agent-app/message-template/send-wizard';
let world: CrashWorld;
let receiver: Receiver;

before(async () => {
  // Every answer is held 150 ms, so deliveries are in flight when the service is killed.
  receiver = await startReceiver(() => 200, 150);
  world = await startCrashWorld([], { CLIENT_WEBHOOK_TIMEOUT_MS: '2000', CLIENT_WEBHOOK_CONCURRENCY: String(CONCURRENCY) });
});
after(async () => {
  await world?.close();
  await receiver?.close();
});

test('kill -9 of the service mid-delivery: after a restart every event arrives, in order per message, duplicates only of the in-flight ones', async () => {
  let service = await world.startService();
  const registered = await world.api('POST', '/api/v1/webhook-endpoints', { url: receiver.url });
  assert.equal(registered.status, 200, JSON.stringify(registered.body));
  receiver.setSecret(registered.body.data.secret);
  const endpointId = registered.body.data.id;
  const numbers = phones(ROWS, '9055910');
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id;

  await until(async () => receiver.received.length >= 20, 120_000, '20 events received');
  await service.kill('SIGKILL');
  const atKill = receiver.received.length;
  service = await world.startService();

  const pendingLeft = async () => (await world.api('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries?status=PENDING&page_size=1`)).body.pagination.total;
  const readRows = async () => (await world.api('POST', `${A}/reports/detail`, { data: { page: 1, page_size: 500 }, id })).body.data.report_details as Array<{ phone_number: string; status: string }>;
  const settled = (s: string) => ['BACKEND_SEEN', 'BACKEND_FAILED', 'SENT_TO_BACKEND_FAILED', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER'].includes(s);
  let rows: Array<{ phone_number: string; status: string }> = [];
  try {
    rows = await until(async () => {
      const current = await readRows();
      return current.length === ROWS && current.every((r) => settled(r.status)) && (await pendingLeft()) === 0 ? current : undefined;
    }, 240_000, 'every row settled and every delivery made');
  } catch (error) {
    throw new Error(`${(error as Error).message}; received ${receiver.received.length} (${atKill} at the kill)\n${service.output()}`);
  }
  assert.ok(receiver.received.length > atKill, 'deliveries went on after the restart');
  assert.equal((await world.api('GET', `/api/v1/webhook-endpoints/${endpointId}/deliveries?status=FAILED&page_size=1`)).body.pagination.total, 0);
  assert.ok(receiver.received.every((r) => r.verified === true), 'every POST verifies');

  // Nothing lost: per message, the first receipts form the whole chain from the status its row was stored in to its
  // final status, in order (a start that begins now stores its rows QUEUED on PostgreSQL, NONE on PGlite).
  const firsts = receiver.firstReceipts();
  const final = new Map(rows.map((r) => [r.phone_number.replace(/^\+/, ''), r.status]));
  const byMessage = new Map<string, typeof firsts>();
  for (const r of firsts.filter((e) => e.body.type === 'message.status_changed' && e.body.data.send_wizard_id === id)) {
    byMessage.set(r.body.data.message_id, [...(byMessage.get(r.body.data.message_id) ?? []), r]);
  }
  assert.equal(byMessage.size, ROWS, 'events of every row arrived');
  for (const [messageId, events] of byMessage) {
    let previous = onPostgres ? 'QUEUED' : 'NONE';
    for (const e of events) {
      assert.equal(e.body.data.previous_status, previous, `${messageId}: ${events.map((x) => `${x.body.data.previous_status}>${x.body.data.status}`).join(' ')}`);
      previous = e.body.data.status;
    }
    assert.equal(previous, final.get(String(events[0]!.body.data.phone_number).replace(/^\+/, '')), `${messageId} ends at its row's status`);
  }
  const bulk = firsts.filter((e) => e.body.type === 'bulk_send.status_changed' && e.body.data.send_wizard_id === id);
  assert.deepEqual(bulk.map((e) => `${e.body.data.previous_status}>${e.body.data.status}`), ['PENDING>RUNNING', 'RUNNING>COMPLETED']);

  // Duplicates only as at-least-once allows: at most the deliveries in flight at the kill are sent again.
  const duplicates = receiver.received.length - firsts.length;
  assert.ok(duplicates <= CONCURRENCY, `${duplicates} duplicates (at most ${CONCURRENCY} were in flight)`);
  await service.kill('SIGTERM');
});
