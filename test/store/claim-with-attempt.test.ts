/**
 * With the local number check the claim records the check and the send attempt in one move
 * (QUEUED → OPT_IN_*, one row version instead of AGENDA then OPT_IN_*), after pacing, and only once: a row another
 * sender moved first, a row a stop cancelled and a row of a bulk send its user paused are not attempted.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createCompany } from '../../src/admin.js';
import { newId } from '../../src/domain/ids.js';
import {
  claimRecordingAttempts,
  deferQueuedRows,
  requeueRefusedSends,
  withdrawRowsOfHeldBulkSends,
  peekDueMessages,
} from '../../src/store/message-moves.js';
import { insertMessages } from '../../src/store/message-inserts.js';
import { insertBulkSend } from '../../src/store/bulk-sends.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
let channelN = 0;
before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'claim-attempt')).companyId;
});
after(() => store.cleanup());

const ok = (id: string) => ({ id, status: 'OPT_IN_SUCCESS' as const, error_message: null, error_message_detail: null });

/** A fresh channel with `n` due QUEUED messages (of `wizardId` when given); returns the channel and the ids. */
async function queued(n: number, wizardId: string | null = null, channel?: string): Promise<{ channelId: string; ids: string[] }> {
  let channelId = channel;
  if (!channelId) {
    channelN += 1;
    channelId = `claim-attempt-${channelN}`;
    await sql`insert into channels (id, company_id, waba_id, access_token) values (${channelId}, ${companyId}, 'waba', 'token')`.execute(store.db);
  }
  const ids = Array.from({ length: n }, () => newId());
  await insertMessages(store.db, ids.map((id, k) => ({
    id, company_id: companyId, channel_id: channelId, template_id: 't', waba_id: 'waba', send_wizard_id: wizardId, row_no: wizardId ? k + 1 : null,
    phone_number: `+1555000${k}`, full_name: null, status: 'QUEUED' as const, payload: {}, due_at: new Date(Date.now() - 1000),
  })));
  return { channelId, ids };
}

async function rowsOf(ids: string[]) {
  const result = await sql<{ id: string; status: string; lease_owner: string | null; send_attempted_at: Date | null; attempts: number; version: number }>`
    select id, status, lease_owner, send_attempted_at, attempts, version from messages where id = any(${ids}::text[]) order by id`.execute(store.db);
  return result.rows;
}

test('the claim records the check and the attempt in one row version (QUEUED → OPT_IN_SUCCESS, no AGENDA)', async () => {
  const { channelId, ids } = await queued(3);
  const peeked = await peekDueMessages(store.db, channelId, 10);
  assert.deepEqual(peeked.map((m) => m.id).sort(), [...ids].sort());
  // Peeking writes nothing.
  assert.ok((await rowsOf(ids)).every((r) => r.status === 'QUEUED' && r.version === 0 && r.lease_owner === null));
  const checks = [ok(ids[0]), ok(ids[1]), { id: ids[2], status: 'OPT_IN_FAILED_INVALID_NUMBER' as const, error_message: 'Invalid Number', error_message_detail: 'not an E.164 number' }];
  const moved = await claimRecordingAttempts(store.db, 'A', checks, 30);
  assert.deepEqual(moved.filter((m) => m.attempted).map((m) => m.id).sort(), [ids[0], ids[1]].sort());
  assert.ok(moved.every((m) => m.old_status === 'QUEUED'));
  const after = new Map((await rowsOf(ids)).map((r) => [r.id, r]));
  for (const id of [ids[0], ids[1]]) {
    const r = after.get(id)!;
    assert.equal(r.status, 'OPT_IN_SUCCESS');
    assert.equal(r.version, 1, 'one version for the claim, the check and the attempt');
    assert.equal(r.lease_owner, 'A');
    assert.equal(r.attempts, 1);
    assert.ok(r.send_attempted_at);
  }
  assert.equal(after.get(ids[2])!.status, 'OPT_IN_FAILED_INVALID_NUMBER');
  assert.equal(after.get(ids[2])!.lease_owner, null);
  assert.equal(after.get(ids[2])!.send_attempted_at, null);
});

test('two senders that peeked the same rows: only the first claim attempts them, the second moves nothing', async () => {
  const { channelId, ids } = await queued(2);
  const a = await peekDueMessages(store.db, channelId, 10);
  const b = await peekDueMessages(store.db, channelId, 10);
  assert.equal(a.length, 2);
  assert.equal(b.length, 2);
  assert.equal((await claimRecordingAttempts(store.db, 'A', a.map((m) => ok(m.id)), 30)).length, 2);
  assert.deepEqual(await claimRecordingAttempts(store.db, 'B', b.map((m) => ok(m.id)), 30), []);
  assert.ok((await rowsOf(ids)).every((r) => r.lease_owner === 'A' && r.attempts === 1));
});

test('a row cancelled after the peek is not attempted', async () => {
  const { channelId, ids } = await queued(1);
  const peeked = await peekDueMessages(store.db, channelId, 10);
  await sql`update messages set status = 'CANCELLED' where id = ${ids[0]}`.execute(store.db);
  assert.deepEqual(await claimRecordingAttempts(store.db, 'A', peeked.map((m) => ok(m.id)), 30), []);
  assert.equal((await rowsOf(ids))[0].status, 'CANCELLED');
});

test('a QUEUED row of a bulk send its user paused is not attempted; it is parked (NONE)', async () => {
  channelN += 1;
  const channelId = `claim-attempt-${channelN}`;
  await sql`insert into channels (id, company_id, waba_id, access_token) values (${channelId}, ${companyId}, 'waba', 'token')`.execute(store.db);
  const wizardId = newId();
  await insertBulkSend(store.db, { id: wizardId, company_id: companyId, channel_id: channelId, template_id: 't', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });
  await sql`update send_wizards set status = 'PAUSED_BY_USER' where id = ${wizardId}`.execute(store.db);
  const { ids } = await queued(2, wizardId, channelId);
  const peeked = await peekDueMessages(store.db, channelId, 10);
  assert.deepEqual(await claimRecordingAttempts(store.db, 'A', peeked.map((m) => ok(m.id)), 30), []);
  const parked = await withdrawRowsOfHeldBulkSends(store.db, ids);
  assert.equal(parked.length, 2);
  assert.ok(parked.every((p) => p.old_status === 'QUEUED' && p.status === 'NONE'));
  assert.ok((await rowsOf(ids)).every((r) => r.status === 'NONE' && r.send_attempted_at === null));
});

test('a QUEUED row of a stopped bulk send is not attempted; it is cancelled', async () => {
  channelN += 1;
  const channelId = `claim-attempt-${channelN}`;
  await sql`insert into channels (id, company_id, waba_id, access_token) values (${channelId}, ${companyId}, 'waba', 'token')`.execute(store.db);
  const wizardId = newId();
  await insertBulkSend(store.db, { id: wizardId, company_id: companyId, channel_id: channelId, template_id: 't', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });
  await sql`update send_wizards set status = 'STOPPED' where id = ${wizardId}`.execute(store.db);
  const { ids } = await queued(2, wizardId, channelId);
  const peeked = await peekDueMessages(store.db, channelId, 10);
  assert.deepEqual(await claimRecordingAttempts(store.db, 'A', peeked.map((m) => ok(m.id)), 30), []);
  const withdrawn = await withdrawRowsOfHeldBulkSends(store.db, ids);
  assert.ok(withdrawn.length === 2 && withdrawn.every((p) => p.old_status === 'QUEUED' && p.status === 'CANCELLED'));
  assert.ok((await rowsOf(ids)).every((r) => r.status === 'CANCELLED' && r.send_attempted_at === null));
});

test('a row put off by the pair rate only changes its due time (still QUEUED, not due now)', async () => {
  const { channelId, ids } = await queued(1);
  await deferQueuedRows(store.db, [{ id: ids[0], due_at: new Date(Date.now() + 60_000).toISOString() }]);
  assert.equal((await rowsOf(ids))[0].status, 'QUEUED');
  assert.deepEqual(await peekDueMessages(store.db, channelId, 10), []);
});

test('a refused attempt of a row whose bulk send was stopped meanwhile is cancelled, not queued for a retry', async () => {
  channelN += 1;
  const channelId = `claim-attempt-${channelN}`;
  await sql`insert into channels (id, company_id, waba_id, access_token) values (${channelId}, ${companyId}, 'waba', 'token')`.execute(store.db);
  const bulkSendId = newId();
  await insertBulkSend(store.db, { id: bulkSendId, company_id: companyId, channel_id: channelId, template_id: 't', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });
  await sql`update send_wizards set status = 'RUNNING' where id = ${bulkSendId}`.execute(store.db);
  const { ids } = await queued(1, bulkSendId, channelId);
  const peeked = await peekDueMessages(store.db, channelId, 10);
  assert.equal((await claimRecordingAttempts(store.db, 'A', peeked.map((m) => ok(m.id)), 30)).length, 1);
  await sql`update send_wizards set status = 'STOPPED' where id = ${bulkSendId}`.execute(store.db);
  const moved = await requeueRefusedSends(store.db, 'A', [{ id: ids[0], due_at: new Date(Date.now() + 60_000).toISOString(), attempts_increment: 0 }]);
  assert.deepEqual(moved.map((m) => [m.old_status, m.status]), [['OPT_IN_SUCCESS', 'CANCELLED']]);
  assert.equal((await rowsOf(ids))[0].send_attempted_at, null);
});
