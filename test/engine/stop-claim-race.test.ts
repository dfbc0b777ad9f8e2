/**
 * A claim whose statement read its bulk send before a stop (or a user pause) committed must not record attempts:
 * otherwise its rows reach the network after the stop has answered. The claim's counter update waits for the stop's
 * lock of the bulk send and sees the new status, and the claim is undone. Two connections are needed to interleave
 * them, so this runs on a PostgreSQL database whatever TMS_TEST_DB says (PGlite's one connection serialises them).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { createCompany } from '../../src/admin.js';
import { newId } from '../../src/domain/ids.js';
import { recordAttemptsWithCounters } from '../../src/engine/counters.js';
import { migrate, openDatabase, type Store } from '../../src/store/db.js';
import { insertMessages } from '../../src/store/message-inserts.js';
import { claimRecordingAttempts } from '../../src/store/message-moves.js';
import { insertBulkSend } from '../../src/store/bulk-sends.js';
import { createPgDatabase } from '../support/db.js';

let store: Store;
let database: Awaited<ReturnType<typeof createPgDatabase>>;
let other: pg.Client;
let companyId: string;

before(async () => {
  database = await createPgDatabase();
  store = await openDatabase({ databaseUrl: database.url });
  await migrate(store.db);
  companyId = (await createCompany(store.db, 'stop-race')).companyId;
  await sql`insert into channels (id, company_id, waba_id, access_token) values ('race', ${companyId}, 'waba', 'token')`.execute(store.db);
  other = new pg.Client({ connectionString: database.url });
  await other.connect();
});
after(async () => {
  await other.end();
  await store.close();
  await database.drop();
});

/** A RUNNING bulk send with `n` due QUEUED rows. */
async function runningList(n: number): Promise<{ wizardId: string; ids: string[] }> {
  const wizardId = newId();
  await insertBulkSend(store.db, { id: wizardId, company_id: companyId, channel_id: 'race', template_id: 't', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });
  await sql`update send_wizards set status = 'RUNNING', summary = ${n}, queued = ${n} where id = ${wizardId}`.execute(store.db);
  const ids = Array.from({ length: n }, () => newId());
  await insertMessages(store.db, ids.map((id, k) => ({
    id, company_id: companyId, channel_id: 'race', template_id: 't', waba_id: 'waba', send_wizard_id: wizardId, row_no: k + 1,
    phone_number: `+1555100${k}`, full_name: null, status: 'QUEUED' as const, payload: {}, due_at: new Date(Date.now() - 1000),
  })));
  return { wizardId, ids };
}

const ok = (id: string) => ({ id, status: 'OPT_IN_SUCCESS' as const, error_message: null, error_message_detail: null });

/** Claims the rows while the other connection holds the bulk send with `change` uncommitted, then commits it. */
async function claimAcross(wizardId: string, ids: string[], change: string) {
  await other.query('begin');
  await other.query(`update send_wizards set ${change} where id = $1`, [wizardId]);
  const claim = recordAttemptsWithCounters(store.db, async (tx) => ({ attempts: await claimRecordingAttempts(tx, 'owner-a', ids.map(ok), 30) }));
  // The claim has read the bulk send as RUNNING and waits for its lock in the counter update.
  for (let i = 0; ; i += 1) {
    const waiting = await other.query(`select 1 from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`);
    if (waiting.rowCount) break;
    assert.ok(i < 500, 'the claim never waited for the bulk send');
    await new Promise((r) => setTimeout(r, 10));
  }
  await other.query('commit');
  return claim;
}

async function rowsOf(ids: string[]) {
  return (await sql<{ status: string; send_attempted_at: Date | null }>`
    select status, send_attempted_at from messages where id = any(${ids}::text[])`.execute(store.db)).rows;
}

test('a claim that read its bulk send before a stop committed records no attempt', async () => {
  const { wizardId, ids } = await runningList(3);
  const result = await claimAcross(wizardId, ids, "status = 'STOPPED', cancelling = true");
  assert.equal(result, null, 'the claim is undone');
  assert.ok((await rowsOf(ids)).every((r) => r.status === 'QUEUED' && r.send_attempted_at === null));
  const counters = (await sql<{ processed_count: number; queued: number }>`select processed_count, queued from send_wizards where id = ${wizardId}`.execute(store.db)).rows[0];
  assert.deepEqual(counters, { processed_count: 0, queued: 3 });
});

test('a claim that read its bulk send before a user pause committed records no attempt', async () => {
  const { wizardId, ids } = await runningList(2);
  assert.equal(await claimAcross(wizardId, ids, "status = 'PAUSED_BY_USER'"), null);
  assert.ok((await rowsOf(ids)).every((r) => r.status === 'QUEUED' && r.send_attempted_at === null));
});

test('a claim that waited for another change of its bulk send records its attempts', async () => {
  const { wizardId, ids } = await runningList(2);
  const result = await claimAcross(wizardId, ids, 'updated_at = now()');
  assert.equal(result?.attempts.filter((m) => m.attempted).length, 2);
  assert.ok((await rowsOf(ids)).every((r) => r.status === 'OPT_IN_SUCCESS' && r.send_attempted_at !== null));
});
