/**
 * The outbox claim hands out only the head of each subject's queue. With an endpoint down, its heads wait for
 * their retry while new events of the same subjects keep coming: those followers must not be due, or every claim
 * reads all of them to find the heads (a cost that grew with the backlog: 431k pending, minutes a claim). The
 * connection's own table counters (`pg_stat_xact_user_tables`) say how many rows the claim read.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { claimDeliveries, markAttemptFailed, markDelivered } from '../../src/store/webhook-deliveries.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
const SUBJECTS = 100;

before(async () => {
  store = await createTestStore();
  const db = store.db;
  await sql`insert into companies (id, name) values ('ca', 'A')`.execute(db);
  await sql`insert into channels (id, company_id, waba_id, access_token) values ('101', 'ca', '9', 'x')`.execute(db);
  await sql`insert into webhook_endpoints (id, company_id, url, events, secret) values ('down', 'ca', 'http://127.0.0.1:9/x', array['*'], 's')`.execute(db);
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload)
    select 'm' || lpad(g::text, 5, '0'), 'ca', '101', 't', '9', '+90555' || g, 'NONE', '{}'::jsonb from generate_series(1, ${SUBJECTS}) g`.execute(db);
});
after(() => store?.cleanup());

/** Rows of webhook_deliveries read by `work` (by index or scan), in one transaction. */
async function dueEntriesRead<T>(work: (tx: typeof store.db) => Promise<T>): Promise<{ result: T; read: number }> {
  return store.db.transaction().execute(async (tx) => {
    const count = async () => Number((await sql<{ n: string }>`
      select coalesce(sum(coalesce(idx_tup_fetch, 0) + seq_tup_read), 0)::text as n from pg_stat_xact_user_tables
      where relname = 'webhook_deliveries'`.execute(tx)).rows[0].n);
    const before = await count();
    const result = await work(tx);
    return { result, read: (await count()) - before };
  });
}

test("an endpoint's followers wait with their failing head: a claim reads the due heads, not the backlog", async () => {
  const db = store.db;
  await sql`update messages set status = 'QUEUED'`.execute(db);
  // Every head is attempted once and fails: its retry is an hour away.
  const heads = await claimDeliveries(db, 'down', 'w1', SUBJECTS, 60);
  assert.equal(heads.length, SUBJECTS);
  const retryAt = new Date(Date.now() + 3600_000);
  for (const h of heads) await markAttemptFailed(db, 'w1', String(h.id), { statusCode: null, error: 'connection refused', retryAt });
  // Three more events per subject arrive while the endpoint is down.
  for (const status of ['AGENDA', 'OPT_IN_SUCCESS', 'SENT_TO_BACKEND']) await sql`update messages set status = ${status}`.execute(db);
  const pending = Number((await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where state = 'PENDING'`.execute(db)).rows[0].n);
  assert.equal(pending, 4 * SUBJECTS);
  const { result, read } = await dueEntriesRead((tx) => claimDeliveries(tx, 'down', 'w2', 8, 60));
  assert.deepEqual(result, [], 'nothing is due: every head waits for its retry');
  assert.ok(read <= 8, `the claim read ${read} rows (the ${3 * SUBJECTS} followers wait with their heads)`);
});

test('a delivered head lets its subject\'s next event go at once, in order', async () => {
  const db = store.db;
  const [head] = (await sql<{ id: string }>`
    select id::text from webhook_deliveries where order_key = 'm00001' and state = 'PENDING' order by id limit 1`.execute(db)).rows;
  await markDelivered(db, head.id, 200);
  const claimed = await claimDeliveries(db, 'down', 'w3', 8, 60);
  assert.equal(claimed.length, 1);
  assert.equal(claimed[0].order_key, 'm00001');
  assert.equal((claimed[0].data as { status: string }).status, 'AGENDA', 'the next event of the subject, not a later one');
});
