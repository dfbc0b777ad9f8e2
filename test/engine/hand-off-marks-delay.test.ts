/**
 * Delayed hand-off marks (engine/hand-off-marks.ts) on the store: a mark is written once it has waited its delay
 * and not before, `flushAll` writes every waiting one at once, and a mark finds nothing to write on a row its
 * statuses already moved past the hand-off (no new row version), while it still fills what they left missing; a
 * company that takes each message status change at an endpoint gets its marks at once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { DelayedHandOffs } from '../../src/engine/hand-off-marks.js';
import { OutcomeWriter } from '../../src/engine/send-outcomes.js';
import { markHandedOff } from '../../src/store/message-moves.js';
import { insertWebhookEndpoint } from '../../src/store/webhook-endpoints.js';
import { createTestStore } from '../support/db.js';
import { attemptedMessage, bulkSendOnChannel } from '../support/outcomes.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000891';
const owner = 'instance-marks';
const log = pino({ level: 'silent' });

before(async () => {
  store = await createTestStore();
  companyId = await bulkSendOnChannel(store.db, 'Marks', channelId, 'wiz-marks');
});
after(() => store.cleanup());

let rowNo = 0;
/** A bulk-send message attempted by `owner`, waiting for its outcome; returns its id. */
function attempted(tag: string): Promise<string> {
  rowNo += 1;
  return attemptedMessage(store.db, {
    id: `marks-${tag}`, companyId, channelId, owner, phone: `90555000${String(rowNo).padStart(4, '0')}`, sendWizardId: 'wiz-marks', rowNo,
  });
}

async function row(id: string) {
  const result = await sql<{ status: string; ext_id: string | null; version: number; xmin: string }>`
    select status, ext_id, version, xmin::text as xmin from messages where id = ${id}`.execute(store.db);
  return result.rows[0];
}

/** What the status rules leave on a row a `read` moved before its hand-off mark (status-events.ts). */
async function movedByStatus(id: string, status = 'BACKEND_SEEN', rank = 4): Promise<void> {
  await sql`
    update messages set status = ${status}, reached_rank = ${rank}, ext_id = ${`wamid.${id}`},
      backend_sended_time = now(), sended_time = now(), lease_owner = null, lease_until = null, version = version + 1
    where id = ${id}`.execute(store.db);
}

async function until(condition: () => Promise<boolean>, what: string, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test('a waiting hand-off mark is written once its delay has passed, not before', async () => {
  let now = 0;
  const marks = new DelayedHandOffs({ db: store.db, owner, log, delayMs: 10_000, now: () => now });
  const id = await attempted('delay');
  marks.add({ id, kind: 'sent', wamid: `wamid.${id}`, bulk: true });
  now = 9_000;
  await new Promise((resolve) => setTimeout(resolve, 600)); // two ticks of the writer
  assert.equal((await row(id)).status, 'OPT_IN_SUCCESS');
  assert.equal(marks.size, 1);
  now = 10_000;
  await until(async () => (await row(id)).status === 'SENT_TO_BACKEND', 'the mark');
  assert.equal((await row(id)).ext_id, `wamid.${id}`);
  assert.equal(marks.size, 0);
});

test('flushAll writes every waiting hand-off mark at once', async () => {
  const marks = new DelayedHandOffs({ db: store.db, owner, log, delayMs: 60_000 });
  const ids = [await attempted('flush-1'), await attempted('flush-2')];
  for (const id of ids) marks.add({ id, kind: 'sent', wamid: `wamid.${id}`, bulk: true });
  await marks.flushAll();
  for (const id of ids) assert.equal((await row(id)).status, 'SENT_TO_BACKEND');
  assert.equal(marks.size, 0);
});

test('a mark written late dates the hand-off when the network accepted, not when it was written', async () => {
  const marks = new DelayedHandOffs({ db: store.db, owner, log, delayMs: 60_000 });
  const id = await attempted('dated');
  const acceptedAt = new Date(Date.now() + 50);
  marks.add({ id, kind: 'sent', wamid: `wamid.${id}`, bulk: true, acceptedAt: acceptedAt.toISOString() });
  await new Promise((resolve) => setTimeout(resolve, 800));
  await marks.flushAll();
  const stored = await sql<{ backend_sended_time: Date }>`select backend_sended_time from messages where id = ${id}`.execute(store.db);
  const handed = new Date(stored.rows[0].backend_sended_time).getTime();
  assert.ok(Math.abs(handed - acceptedAt.getTime()) < 5, `handed ${handed - acceptedAt.getTime()} ms from the acceptance`);
});

test('the outcome writer confirms a bulk-send message\'s tier slot at once, keeps its mark waiting, and writes a single send\'s', async () => {
  const marks = new DelayedHandOffs({ db: store.db, owner, log, delayMs: 60_000 });
  let told = 0;
  const writer = new OutcomeWriter({ db: store.db, owner, channelId, log, handOffs: marks, handedOff: () => (told += 1) });
  const bulk = await attempted('writer-bulk');
  await sql`
    insert into tier_recipients (channel_id, phone_number, last_sent_at, pending_message_id)
    values (${channelId}, 'writer-bulk-recipient', now(), ${bulk})`.execute(store.db);
  writer.add({ id: bulk, kind: 'sent', wamid: `wamid.${bulk}`, bulk: true }, 0);
  await writer.flush();
  assert.equal((await row(bulk)).status, 'OPT_IN_SUCCESS');
  assert.equal(marks.size, 1);
  const slot = await sql<{ pending_message_id: string | null }>`
    select pending_message_id from tier_recipients where phone_number = 'writer-bulk-recipient'`.execute(store.db);
  assert.equal(slot.rows[0].pending_message_id, null, 'the accepted send spends its tier slot while its mark waits');
  assert.equal(told, 1, 'the sending signal is told when the mark starts waiting');
  const single = await attempted('writer-single');
  writer.add({ id: single, kind: 'sent', wamid: `wamid.${single}`, bulk: false }, 0);
  await writer.flush();
  assert.equal((await row(single)).status, 'SENT_TO_BACKEND');
  await marks.flushAll();
  assert.equal((await row(bulk)).status, 'SENT_TO_BACKEND');
});

test('a hand-off mark writes no row version on a message its statuses already moved past the hand-off', async () => {
  const id = await attempted('moved');
  await movedByStatus(id);
  const before = await row(id);
  assert.deepEqual(await markHandedOff(store.db, [{ id, ext_id: `wamid.${id}` }]), []);
  const afterMark = await row(id);
  assert.equal(afterMark.xmin, before.xmin, 'the row was written again');
  assert.equal(afterMark.version, before.version);
  assert.equal(afterMark.status, 'BACKEND_SEEN');
});

test('a hand-off mark still fills in what a status left missing, without lowering it', async () => {
  const id = await attempted('failed');
  await sql`
    update messages set status = 'BACKEND_FAILED', failed_time = now(), lease_owner = null, lease_until = null,
      version = version + 1
    where id = ${id}`.execute(store.db);
  const moved = await markHandedOff(store.db, [{ id, ext_id: `wamid.${id}` }]);
  assert.equal(moved.length, 1);
  const afterMark = await row(id);
  assert.equal(afterMark.status, 'BACKEND_FAILED');
  assert.equal(afterMark.ext_id, `wamid.${id}`);
});

test('a bulk-send mark is written at once for a company that takes each message status change at an endpoint', async () => {
  await insertWebhookEndpoint(store.db, {
    id: 'endpoint-marks', company_id: companyId, url: 'https://example.com/hook', description: '', events: ['message.status_changed'], secret: 's',
  });
  const marks = new DelayedHandOffs({ db: store.db, owner, log, delayMs: 60_000 });
  const writer = new OutcomeWriter({ db: store.db, owner, channelId, log, handOffs: marks });
  const id = await attempted('subscribed');
  writer.add({ id, kind: 'sent', wamid: `wamid.${id}`, bulk: true }, 0);
  await writer.flush();
  assert.equal((await row(id)).status, 'SENT_TO_BACKEND', 'its events keep the OPT_IN_SUCCESS→SENT_TO_BACKEND step');
  assert.equal(marks.size, 0);
});
