import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createQueryId, sql, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { listChannelsWithDueWork } from '../../src/store/message-moves.js';
import { findUserIdsOfPhones } from '../../src/store/recipient-links.js';
import type { Database } from '../../src/store/schema.js';
import { confirmWindowSends } from '../../src/store/tier-window.js';
import { createTestStore } from '../support/db.js';

// Statements a sender runs on every batch must read what they need whatever the planner's statistics say: PGlite never
// gathers them, PostgreSQL with autovacuum off only after a start. Each case builds the table a large send leaves and
// checks the plan of the real statement (captured as it is sent, then run again under EXPLAIN ANALYZE).
let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000781';
const ROWS = 20_000;

/** The plan of the first statement `run` sends, executed again under EXPLAIN ANALYZE. */
async function planOf(run: (db: Kysely<Database>) => Promise<unknown>): Promise<string> {
  let node: RootOperationNode | null = null;
  const capture: KyselyPlugin = { transformQuery: (args) => (node ??= args.node), transformResult: async (args) => args.result };
  await run(store.db.withPlugin(capture));
  const compiled = store.db.getExecutor().compileQuery(node!, createQueryId());
  const explained = await store.db.executeQuery<{ 'QUERY PLAN': string }>({ ...compiled, sql: `explain (analyze, buffers, costs off, timing off) ${compiled.sql}` });
  return explained.rows.map((r) => r['QUERY PLAN']).join('\n');
}

/** The most buffers any node of the plan visited. */
const mostBuffers = (plan: string) =>
  Math.max(0, ...[...plan.matchAll(/Buffers: shared hit=(\d+)(?: read=(\d+))?/g)].map((m) => Number(m[1]) + Number(m[2] ?? 0)));

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Planning')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
});
after(() => store.cleanup());

test('the BSUIDs of a batch of phone numbers are probed number by number, not read from every link of the company', async () => {
  await sql`
    insert into recipient_links (company_id, user_id, phone_number, source)
    select ${companyId}, 'US.' || g, '+1555' || lpad(g::text, 7, '0'), 'status_webhook' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  const phones = Array.from({ length: 250 }, (_, i) => `+1555${String(1000 + i * 7).padStart(7, '0')}`);
  const found = await findUserIdsOfPhones(store.db, companyId, [...phones, '+15559999999']);
  assert.equal(found.size, 250);
  assert.equal(found.get(phones[3]), `US.${1000 + 3 * 7}`);
  const plan = await planOf((db) => findUserIdsOfPhones(db, companyId, phones));
  assert.match(plan, /recipient_links_by_phone/, plan);
  assert.doesNotMatch(plan, /Seq Scan on recipient_links|recipient_links_pkey/, plan);
});

test('the due-work probe walks the due index after a send emptied it, whatever the statistics taken before', async () => {
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at)
    select 'pl-' || lpad(g::text, 8, '0'), ${companyId}, ${channelId}, 't1', '1', '1555' || g, 'QUEUED', '{"to":"x"}'::jsonb, now() - interval '1 minute'
    from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  // The statistics of a start just stored (every row QUEUED), then the rows go out.
  await sql`analyze messages`.execute(store.db);
  await sql`update messages set status = 'SENT_TO_BACKEND' where channel_id = ${channelId}`.execute(store.db);
  assert.deepEqual((await listChannelsWithDueWork(store.db)).filter((c) => c === channelId), []);
  const plan = await planOf((db) => listChannelsWithDueWork(db));
  assert.doesNotMatch(plan, /Seq Scan on messages/, plan);
  // Reading the table would visit each of its pages (thousands of buffers).
  assert.ok(mostBuffers(plan) < 1000, plan);
});

test('confirming sends on an uncapped channel reads the held slots, not every recipient of the window', async () => {
  await sql`
    insert into tier_recipients (channel_id, phone_number, last_sent_at)
    select ${channelId}, '+1666' || lpad(g::text, 7, '0'), now() from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  const ids = Array.from({ length: 100 }, (_, i) => `pl-${String(i + 1).padStart(8, '0')}`);
  const plan = await planOf((db) => confirmWindowSends(db, ids));
  assert.doesNotMatch(plan, /Seq Scan on tier_recipients/, plan);
  assert.match(plan, /tier_recipients_pending/, plan);
});
