/**
 * Status events read their messages without a lock (with their row version) and update them with one guarded
 * statement: an update computed from a row that changed since it was read is not applied (the caller reads it again),
 * so no lock is needed while reading and no concurrent move is overwritten.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createCompany } from '../../src/admin.js';
import { newId } from '../../src/domain/ids.js';
import {
  applyEventUpdates,
  eventTimeOf,
  findMessagesForEvents,
  findMessagesForEventsById,
  type EventUpdate,
  type StatusTarget,
} from '../../src/store/message-status-events.js';
import { insertMessages } from '../../src/store/message-inserts.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'guard')).companyId;
  await sql`insert into channels (id, company_id, waba_id, access_token) values ('guard-channel', ${companyId}, 'waba', 'token')`.execute(store.db);
});
after(() => store.cleanup());

/** A handed-off message with a wamid. */
async function handedOff(wamid: string): Promise<string> {
  const id = newId();
  await insertMessages(store.db, [
    { id, company_id: companyId, channel_id: 'guard-channel', template_id: 't', waba_id: 'waba', send_wizard_id: null, row_no: null, phone_number: '+15550001', full_name: null, status: 'QUEUED', payload: {}, due_at: new Date() },
  ]);
  await sql`update messages set status = 'SENT_TO_BACKEND', reached_rank = 1, ext_id = ${wamid}, send_attempted_at = now(),
    backend_sended_time = now() where id = ${id}`.execute(store.db);
  return id;
}

/** The update a `delivered` event computes from what was read. */
function delivered(m: StatusTarget): EventUpdate {
  return {
    id: m.id, guard: m.guard, expected_status: m.status, status: 'BACKEND_DELIVERED', reached_rank: 3, ext_id: m.ext_id,
    backend_sended_time: null, sended_time: new Date().toISOString(), delivered_time: new Date().toISOString(), seen_time: null,
    failed_time: null, error_message: null, error_message_detail: null, webhook_response: { status: 'delivered' }, clear_failure: false,
    pricing_category: null, pricing_type: null, pricing_billable: null, pricing_model: null, pricing_rank: null, user_id: null,
    parent_user_id: null, username: null,
  };
}

test('a status update computed from a row read before another change of it is not applied; read again, it is', async () => {
  const id = await handedOff('wamid.guard-1');
  const [read] = await findMessagesForEvents(store.db, ['wamid.guard-1'], []);
  assert.equal(read.id, id);
  // Another transaction fills a time the update was computed without (the status stays the same).
  await sql`update messages set sended_time = now() - interval '5 seconds' where id = ${id}`.execute(store.db);
  assert.deepEqual(await applyEventUpdates(store.db, [delivered(read)]), []);
  const row = (await sql<{ status: string; delivered_time: Date | null }>`select status, delivered_time from messages where id = ${id}`.execute(store.db)).rows[0];
  assert.deepEqual(row, { status: 'SENT_TO_BACKEND', delivered_time: null });
  const [again] = await findMessagesForEventsById(store.db, [id]);
  const moved = await applyEventUpdates(store.db, [delivered(again)]);
  assert.deepEqual(moved.map((m) => [m.id, m.old_status, m.status]), [[id, 'SENT_TO_BACKEND', 'BACKEND_DELIVERED']]);
});

test('an unchanged row takes its update, and a re-read by id gives the guard of the read by callback id', async () => {
  const id = await handedOff('wamid.guard-2');
  const [plain] = await findMessagesForEvents(store.db, [], [id]);
  const [byId] = await findMessagesForEventsById(store.db, [id]);
  assert.equal(plain.guard, byId.guard);
  assert.equal((await applyEventUpdates(store.db, [delivered(plain)])).length, 1);
});

test('an update that must not wait applies free rows and skips a row another transaction holds (PostgreSQL: a second connection holds it)', async () => {
  const free = await handedOff('wamid.guard-3');
  const [freeRead] = await findMessagesForEvents(store.db, ['wamid.guard-3'], []);
  assert.deepEqual((await applyEventUpdates(store.db, [delivered(freeRead)], false)).map((m) => m.id), [free]);
  if (store.kind !== 'postgres') return; // PGlite is one connection: no other transaction can hold a row meanwhile
  const held = await handedOff('wamid.guard-4');
  const [heldRead] = await findMessagesForEvents(store.db, ['wamid.guard-4'], []);
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const isLocked = new Promise<void>((r) => (locked = r));
  const holder = store.db.transaction().execute(async (tx) => {
    await sql`select id from messages where id = ${held} for update`.execute(tx);
    locked();
    await released;
  });
  await isLocked;
  try {
    assert.deepEqual(await applyEventUpdates(store.db, [delivered(heldRead)], false), []);
  } finally {
    release();
    await holder;
  }
  assert.equal((await applyEventUpdates(store.db, [delivered(heldRead)], true)).length, 1);
});

test('the times a status batch reads are the stored ones in epoch milliseconds, exact, and null when unset', async () => {
  const id = await handedOff('wamid.guard-5');
  // Microseconds past an exact millisecond are dropped as a Date would drop them; an exact millisecond stays itself.
  await sql`update messages set send_attempted_at = '2026-11-26T04:29:48.123Z', backend_sended_time = '2026-11-26T04:29:48.999999Z',
    sended_time = '2026-11-26T04:29:49.000001Z', delivered_time = '1999-12-31T23:59:59.001Z',
    failed_time = '1969-12-31T23:59:58.5Z' where id = ${id}`.execute(store.db);
  for (const [m] of [await findMessagesForEvents(store.db, ['wamid.guard-5'], []), await findMessagesForEvents(store.db, ['wamid.guard-5'], [id]), await findMessagesForEventsById(store.db, [id])]) {
    assert.equal(eventTimeOf(m, 'send_attempted_at'), Date.parse('2026-11-26T04:29:48.123Z'));
    assert.equal(eventTimeOf(m, 'backend_sended_time'), Date.parse('2026-11-26T04:29:48.999Z'));
    assert.equal(eventTimeOf(m, 'sended_time'), Date.parse('2026-11-26T04:29:49.000Z'));
    assert.equal(eventTimeOf(m, 'delivered_time'), Date.parse('1999-12-31T23:59:59.001Z'));
    assert.equal(eventTimeOf(m, 'seen_time'), null);
    assert.equal(eventTimeOf(m, 'failed_time'), Date.parse('1969-12-31T23:59:58.5Z'), 'before 1970: negative');
  }
  await sql`update messages set send_attempted_at = null, failed_time = null where id = ${id}`.execute(store.db);
  const [m] = await findMessagesForEventsById(store.db, [id]);
  assert.equal(eventTimeOf(m, 'send_attempted_at'), null, 'the first unset');
  assert.equal(eventTimeOf(m, 'failed_time'), null, 'the last unset');
  assert.equal(eventTimeOf(m, 'backend_sended_time'), Date.parse('2026-11-26T04:29:48.999Z'));
});
