import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { insertBulkSend } from '../../src/store/bulk-sends.js';
import { transactionWithCopy } from '../../src/store/db.js';
import { listChannelsWithDueWork } from '../../src/store/message-moves.js';
import { createTestStore, onPostgres } from '../support/db.js';
import { capturedStatements, explainAnalyze, mostBuffers } from '../support/plans.js';

// While a start stores its rows, the due-work probe steps over their due time (the bulk send's created_at to the
// millisecond): on PostgreSQL those rows sit QUEUED in the index, uncommitted, and a probe through them walked every
// one each round. Rows due before or after that time are found as ever; one due at that very millisecond waits until
// the start ends.
let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000779';
let n = 0;

const insertQueued = (db: typeof store.db, dueAt: Date, wizard: string | null = null, count = 1) => sql`
  insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, phone_number, status, payload, due_at)
  select ${`p${(n += 1)}-`} || lpad(g::text, 8, '0'), ${companyId}, ${channelId}, 't1', '1', ${wizard}, case when ${wizard}::text is null then null else g end,
         '1555' || g, 'QUEUED', '{"to":"x"}'::jsonb, ${dueAt.toISOString()}::timestamptz
  from generate_series(1, ${count}::int) g`.execute(db);

const newStart = (id: string) =>
  insertBulkSend(store.db, { id, company_id: companyId, channel_id: channelId, template_id: 't1', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });

const dueChannels = async () => (await listChannelsWithDueWork(store.db)).filter((c) => c === channelId);

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Probing')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
});
after(() => store.cleanup());

test('the bulk send answers its creation time to the millisecond', async () => {
  const before = Date.now();
  const at = await newStart('s0');
  assert.ok(Math.abs(at.getTime() - before) < 60_000, String(at));
  const stored = (await sql<{ at: Date }>`select date_trunc('milliseconds', created_at) as at from send_wizards where id = 's0'`.execute(store.db)).rows[0].at;
  assert.equal(new Date(stored).getTime(), at.getTime());
  await sql`delete from send_wizards where id = 's0'`.execute(store.db);
});

test('while a start stores, rows due before or after its due time are found; one due at it waits for the start', async () => {
  const at = await newStart('s1');
  await new Promise((r) => setTimeout(r, 20));
  await insertQueued(store.db, at, 's1', 3);
  assert.deepEqual(await dueChannels(), [], 'the storing start\'s own rows are stepped over');
  await insertQueued(store.db, new Date(at.getTime() - 1000));
  assert.deepEqual(await dueChannels(), [channelId], 'a row due before the start is found');
  await sql`delete from messages where channel_id = ${channelId} and send_wizard_id is null`.execute(store.db);
  await insertQueued(store.db, new Date(at.getTime() + 1));
  assert.deepEqual(await dueChannels(), [channelId], 'a row due after the start is found');
  await sql`delete from messages where channel_id = ${channelId} and send_wizard_id is null`.execute(store.db);
  await sql`update send_wizards set status = 'RUNNING' where id = 's1'`.execute(store.db);
  assert.deepEqual(await dueChannels(), [channelId], 'once started, its rows are found');
  await sql`delete from messages where channel_id = ${channelId}`.execute(store.db);
});

// PostgreSQL only: PGlite stores a start's rows waiting (NONE), outside the probe's index, in batches that commit.
if (onPostgres) test('the probe does not walk the uncommitted rows of a start being stored', async () => {
  const at = await newStart('s2');
  await new Promise((r) => setTimeout(r, 20));
  // The real statement, captured as it is sent, then run again under EXPLAIN ANALYZE while another transaction holds
  // 20,000 uncommitted rows of the start.
  const [compiled] = await capturedStatements(store.db, (db) => listChannelsWithDueWork(db));
  let plan = '';
  let found: string[] = [];
  await transactionWithCopy(store.db)!(async (tx) => {
    await insertQueued(tx, at, 's2', 20_000);
    found = await dueChannels();
    plan = await explainAnalyze(store.db, compiled);
    throw new Error('rolled back');
  }).catch((error: Error) => assert.equal(error.message, 'rolled back'));
  assert.deepEqual(found, []);
  assert.match(plan, /Buffers: shared hit=/, plan);
  // Walking the entries would visit the heap page of each (about 20,000 buffer visits).
  assert.ok(mostBuffers(plan) < 1000, plan);
});
