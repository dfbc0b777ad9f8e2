/**
 * The status batch's lookup (`findMessagesForEvents`, by wamid or by our id) probes the unique indexes
 * even on a table the planner has no statistics for (right after a bulk load, or with autovacuum off). With one
 * `or` over both keys it scanned the whole of `messages` for every status batch, a cost that grew with the table.
 * The connection's own table counters (`pg_stat_xact_user_tables`, read before and after) say whether it scanned.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createCompany } from '../../src/admin.js';
import { findMessagesForEvents } from '../../src/store/message-status-events.js';
import { createTestStore } from '../support/db.js';
import { capturedStatements } from '../support/plans.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
const ids: string[] = [];
const wamid = (id: string) => `wamid.lookup-${id}`;

before(async () => {
  store = await createTestStore();
  const companyId = (await createCompany(store.db, 'status-lookup')).companyId;
  await sql`insert into channels (id, company_id, waba_id, access_token) values ('lookup-channel', ${companyId}, 'waba', 'token')`.execute(store.db);
  // 20,000 handed-off rows (large enough that probing 100 keys is cheaper than reading the table).
  const generated = await sql<{ id: string }>`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at)
    select lpad(n::text, 24, '0'), ${companyId}, 'lookup-channel', 't', 'waba', '+1555' || lpad(n::text, 7, '0'), 'QUEUED', '{}', now()
    from generate_series(1, 20000) as n
    returning id`.execute(store.db);
  ids.push(...generated.rows.map((r) => r.id));
  // Handed off: a wamid and an attempt on every row (what status events name).
  await sql`update messages set status = 'SENT_TO_BACKEND', ext_id = 'wamid.lookup-' || id, send_attempted_at = now()`.execute(store.db);
});
after(() => store.cleanup());

test('a status batch finds its messages by wamid and by id through the indexes, without statistics', async () => {
  const byWamid = ids.slice(0, 60).map(wamid);
  const byId = ids.slice(40, 100);
  await store.db.transaction().execute(async (tx) => {
    const seqScans = async () => Number((await sql<{ n: string }>`
      select coalesce(sum(seq_scan), 0)::text as n from pg_stat_xact_user_tables where relname = 'messages'`.execute(tx)).rows[0].n);
    // Ten runs: the text is prepared from its third and may keep a generic plan from the sixth run of the prepared
    // statement (both databases prepare repeated texts: prepared-statements.ts, pglite-dialect.ts).
    for (let run = 1; run <= 10; run += 1) {
      const before = await seqScans();
      const found = await findMessagesForEvents(tx, byWamid, byId);
      assert.equal(await seqScans(), before, `no sequential scan of messages (run ${run})`);
      assert.deepEqual(found.map((m) => m.id).sort(), ids.slice(0, 100).sort(), 'each message once, found by either key');
      assert.ok(found.every((m) => m.guard.length > 0 && m.status === 'SENT_TO_BACKEND'));
    }
  });
});

test('a batch whose messages are all found by wamid reads them with one statement, not again by id', async () => {
  const statements = await capturedStatements(store.db, (db) => findMessagesForEvents(db, ids.slice(300, 340).map(wamid), ids.slice(300, 340)));
  assert.equal(statements.length, 1);
  assert.match(statements[0].sql, /ext_id = any/);
  assert.doesNotMatch(statements[0].sql, /\bid = any/, 'the primary key is not probed for rows found by wamid');
});

test('a message named by id alone is found only once its send was attempted', async () => {
  await sql`update messages set send_attempted_at = null where id = ${ids[200]}`.execute(store.db);
  const found = await findMessagesForEvents(store.db, [], [ids[200], ids[201]]);
  assert.deepEqual(found.map((m) => m.id), [ids[201]]);
});
