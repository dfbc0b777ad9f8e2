/**
 * Every move statement is guarded by the lease owner and, where a move could allow a resend, by "no attempt
 * recorded"; the allowed source states come from the domain's transition table.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createCompany } from '../../src/admin.js';
import { newId } from '../../src/domain/ids.js';
import {
  claimDueMessages,
  failHandOffs,
  finishChecksRecordingAttempts,
  MOVE_SOURCES,
  requeueExpiredLeases,
  requeueMessages,
  requeueRefusedSends,
} from '../../src/store/message-moves.js';
import { insertMessages } from '../../src/store/message-inserts.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
let channelN = 0;
before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'guards')).companyId;
});
after(() => store.cleanup());

/** A fresh channel with one due QUEUED message; returns both ids. */
async function oneQueued(): Promise<{ channelId: string; id: string }> {
  channelN += 1;
  const channelId = `guard-channel-${channelN}`;
  await sql`insert into channels (id, company_id, waba_id, access_token) values (${channelId}, ${companyId}, 'waba', 'token')`.execute(store.db);
  const id = newId();
  await insertMessages(store.db, [
    { id, company_id: companyId, channel_id: channelId, template_id: 't', waba_id: 'waba', send_wizard_id: null, row_no: null, phone_number: '+15550001', full_name: null, status: 'QUEUED', payload: {}, due_at: new Date(Date.now() - 1000) },
  ]);
  return { channelId, id };
}

async function row(id: string) {
  const result = await sql<{ status: string; lease_owner: string | null; send_attempted_at: Date | null; version: number }>`
    select status, lease_owner, send_attempted_at, version from messages where id = ${id}`.execute(store.db);
  return result.rows[0];
}

/** A stalls holding the row; its lease runs out; maintenance puts it back; B claims, checks and records its attempt. */
async function takenOverByB(): Promise<string> {
  const { channelId, id } = await oneQueued();
  assert.equal((await claimDueMessages(store.db, channelId, 'A', 10, 30)).length, 1);
  await sql`update messages set lease_until = now() - interval '1 second' where id = ${id}`.execute(store.db);
  assert.equal((await requeueExpiredLeases(store.db, 100)).length, 1);
  assert.equal((await claimDueMessages(store.db, channelId, 'B', 10, 30)).length, 1);
  const moved = await finishChecksRecordingAttempts(store.db, 'B', [{ id, status: 'OPT_IN_SUCCESS', error_message: null, error_message_detail: null }], 30);
  assert.deepEqual(moved.filter((m) => m.attempted).map((m) => m.id), [id]);
  return id;
}

test('the move statements take their source states from the transition table', () => {
  assert.deepEqual(MOVE_SOURCES.claim, ['QUEUED']);
  assert.deepEqual(MOVE_SOURCES.numberCheck, ['AGENDA']);
  assert.deepEqual(MOVE_SOURCES.requeue, ['AGENDA', 'OPT_IN_SUCCESS']);
  assert.deepEqual(MOVE_SOURCES.handOff, ['OPT_IN_SUCCESS']);
  assert.deepEqual(MOVE_SOURCES.refusedSend, ['OPT_IN_SUCCESS']);
});

test("a stalled owner's requeue of a row another instance already handed to the network moves nothing", async () => {
  const id = await takenOverByB();
  const before = await row(id);
  const moved = await requeueMessages(store.db, 'A', [{ id, due_at: new Date().toISOString(), attempts_increment: 0 }]);
  assert.deepEqual(moved, []);
  const afterRow = await row(id);
  assert.equal(afterRow.status, 'OPT_IN_SUCCESS');
  assert.equal(afterRow.lease_owner, 'B');
  assert.ok(afterRow.send_attempted_at, 'the attempt mark stays');
  assert.equal(afterRow.version, before.version);
});

test('even the owner cannot put back an attempted row as if it had never been sent', async () => {
  const id = await takenOverByB();
  assert.deepEqual(await requeueMessages(store.db, 'B', [{ id, due_at: new Date().toISOString(), attempts_increment: 0 }]), []);
  assert.equal((await row(id)).status, 'OPT_IN_SUCCESS');
});

test("a stalled owner cannot requeue or fail another owner's refused send", async () => {
  const id = await takenOverByB();
  assert.deepEqual(await requeueRefusedSends(store.db, 'A', [{ id, due_at: new Date().toISOString(), attempts_increment: 0 }]), []);
  assert.deepEqual(await failHandOffs(store.db, 'A', [{ id, error_message: 'x', error_message_detail: 'y' }]), []);
  assert.equal((await row(id)).lease_owner, 'B');
});

test('the owner puts back a send the network refused (the refusal proves nothing was sent)', async () => {
  const id = await takenOverByB();
  const moved = await requeueRefusedSends(store.db, 'B', [{ id, due_at: new Date().toISOString(), attempts_increment: -1 }]);
  assert.equal(moved.length, 1);
  const afterRow = await row(id);
  assert.equal(afterRow.status, 'QUEUED');
  assert.equal(afterRow.send_attempted_at, null);
});

test('the number check and the attempt mark are one move: one row version, the attempt recorded with OPT_IN_SUCCESS', async () => {
  const { channelId, id } = await oneQueued();
  await claimDueMessages(store.db, channelId, 'A', 10, 30);
  const claimed = await row(id);
  const moved = await finishChecksRecordingAttempts(store.db, 'A', [{ id, status: 'OPT_IN_SUCCESS', error_message: null, error_message_detail: null }], 30);
  assert.deepEqual(moved.map((m) => [m.old_status, m.status, m.attempted]), [['AGENDA', 'OPT_IN_SUCCESS', true]]);
  const after = await row(id);
  assert.equal(after.version, claimed.version + 1);
  assert.ok(after.send_attempted_at);
  assert.equal(after.lease_owner, 'A');
});

test('a refused number moves without an attempt mark and drops the lease; a second move of the same row moves nothing', async () => {
  const { channelId, id } = await oneQueued();
  await claimDueMessages(store.db, channelId, 'A', 10, 30);
  const refused = { id, status: 'OPT_IN_FAILED_INVALID_NUMBER' as const, error_message: 'x', error_message_detail: 'y' };
  const moved = await finishChecksRecordingAttempts(store.db, 'A', [refused], 30);
  assert.deepEqual(moved.map((m) => [m.status, m.attempted]), [['OPT_IN_FAILED_INVALID_NUMBER', false]]);
  const after = await row(id);
  assert.equal(after.send_attempted_at, null);
  assert.equal(after.lease_owner, null);
  assert.deepEqual(await finishChecksRecordingAttempts(store.db, 'A', [{ ...refused, status: 'OPT_IN_SUCCESS' }], 30), []);
});

test("a stalled owner's checks and attempt marks move nothing once another owner holds the row", async () => {
  const { channelId, id } = await oneQueued();
  await claimDueMessages(store.db, channelId, 'A', 10, 30);
  await sql`update messages set lease_until = now() - interval '1 second' where id = ${id}`.execute(store.db);
  await requeueExpiredLeases(store.db, 100);
  await claimDueMessages(store.db, channelId, 'B', 10, 30);
  assert.deepEqual(await finishChecksRecordingAttempts(store.db, 'A', [{ id, status: 'OPT_IN_SUCCESS', error_message: null, error_message_detail: null }], 30), []);
  assert.equal((await row(id)).send_attempted_at, null);
});
