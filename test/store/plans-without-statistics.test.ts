import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { applyEventUpdates, type EventUpdate } from '../../src/store/message-status-events.js';
import { listChannelsWithDueWork, markHandedOff } from '../../src/store/message-moves.js';
import { findUserIdsOfPhones } from '../../src/store/recipient-links.js';
import type { Database } from '../../src/store/schema.js';
import { confirmWindowSends } from '../../src/store/tier-window.js';
import { createTestStore } from '../support/db.js';
import { arrayTestsPerProbe, capturedStatements, explainAnalyze, explainAnalyzeGeneric, mostBuffers } from '../support/plans.js';

// Statements a sender runs on every batch must read what they need whatever the planner's statistics say: PGlite never
// gathers them, PostgreSQL with autovacuum off only after a start. Each case builds the table a large send leaves and
// checks the plan of the real statement (captured as it is sent, then run again under EXPLAIN ANALYZE).
let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000781';
const ROWS = 20_000;

/**
 * The plans of the statement `run` sends (the first, or the `nth` from 0), executed again under EXPLAIN ANALYZE: the
 * plan made with its values and the generic one a prepared statement may keep without them (from the sixth run of a
 * repeated text, on both databases), the latter rolled back.
 */
async function plansOf(run: (db: Kysely<Database>) => Promise<unknown>, nth = 0): Promise<string[]> {
  const statement = (await capturedStatements(store.db, run))[nth];
  return [await explainAnalyze(store.db, statement), await rolledBack((tx) => explainAnalyzeGeneric(tx, statement))];
}

/** What `run` returns, with everything it did in the database rolled back. */
async function rolledBack<T>(run: (tx: Kysely<Database>) => Promise<T>): Promise<T> {
  let result: T | undefined;
  const rollback = new Error('rollback');
  await store.db.transaction().execute(async (tx) => {
    result = await run(tx);
    throw rollback;
  }).catch((e: unknown) => {
    if (e !== rollback) throw e;
  });
  return result as T;
}

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
  for (const plan of await plansOf((db) => findUserIdsOfPhones(db, companyId, phones))) {
    assert.match(plan, /recipient_links_by_phone/, plan);
    assert.doesNotMatch(plan, /Seq Scan on recipient_links|recipient_links_pkey/, plan);
  }
});

// Before the due-work case, which gathers statistics: 20,000 handed-off messages the planner knows nothing of.
test('a status batch updates its messages through the primary key, not a scan of the table', async () => {
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at, send_attempted_at)
    select 'st-' || lpad(g::text, 8, '0'), ${companyId}, ${channelId}, 't1', '1', '1777' || g, 'SENT_TO_BACKEND', '{"to":"x"}'::jsonb, now(), now()
    from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  const ids = ['st-00000005', 'st-00000006', 'st-00000007'];
  const read = await sql<{ id: string; guard: string }>`select id, xmin::text as guard from messages where id = any(${ids}::text[])`.execute(store.db);
  const updates = read.rows.map((r): EventUpdate => ({
    id: r.id, guard: r.guard, expected_status: 'SENT_TO_BACKEND', status: 'BACKEND_SENT', reached_rank: 3, ext_id: null,
    backend_sended_time: null, sended_time: new Date().toISOString(), delivered_time: null, seen_time: null, failed_time: null,
    error_message: null, error_message_detail: null, webhook_response: null, clear_failure: false, pricing_category: null,
    pricing_type: null, pricing_billable: null, pricing_model: null, pricing_rank: null, user_id: null, parent_user_id: null, username: null,
  }));
  for (const plan of await plansOf((db) => applyEventUpdates(db, updates))) assert.doesNotMatch(plan, /Seq Scan on messages/, plan);
  assert.equal((await sql<{ n: number }>`select count(*)::int as n from messages where id = any(${ids}::text[]) and status = 'BACKEND_SENT'`.execute(store.db)).rows[0].n, 3);
});

test('a hand-off records its wamids through the primary key, not a scan of the table', async () => {
  for (const plan of await plansOf((db) => markHandedOff(db, [{ id: 'st-00000011', ext_id: 'wamid.st11' }, { id: 'st-00000012', ext_id: 'wamid.st12' }]))) {
    assert.doesNotMatch(plan, /Seq Scan on messages/, plan);
  }
});

test('the due-work probe walks the due index after a send emptied it, whatever the statistics taken before', async () => {
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at)
    select 'pl-' || lpad(g::text, 8, '0'), ${companyId}, ${channelId}, 't1', '1', '1555' || g, 'QUEUED', '{"to":"x"}'::jsonb, now() - interval '1 minute'
    from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  // The statistics of a start just stored (every row QUEUED), then the rows go out.
  await sql`analyze messages`.execute(store.db);
  await sql`update messages set status = 'SENT_TO_BACKEND' where channel_id = ${channelId} and status = 'QUEUED'`.execute(store.db);
  assert.deepEqual((await listChannelsWithDueWork(store.db)).filter((c) => c === channelId), []);
  for (const plan of await plansOf((db) => listChannelsWithDueWork(db))) {
    assert.doesNotMatch(plan, /Seq Scan on messages/, plan);
    // Reading the table would visit each of its pages (thousands of buffers).
    assert.ok(mostBuffers(plan) < 1000, plan);
  }
});

test('confirming sends on an uncapped channel reads the held slots and probes each recipient, not every one of the window', async () => {
  await sql`
    insert into tier_recipients (channel_id, phone_number, last_sent_at)
    select ${channelId}, '+1666' || lpad(g::text, 7, '0'), now() from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  const ids = Array.from({ length: 100 }, (_, i) => `pl-${String(i + 1).padStart(8, '0')}`);
  for (const plan of await plansOf((db) => confirmWindowSends(db, ids))) {
    assert.doesNotMatch(plan, /Seq Scan on tier_recipients/, plan);
    assert.match(plan, /tier_recipients_pending/, plan);
  }
  // No slot was held: the second statement records each recipient and folds its entry under the phone number.
  for (const recorded of await plansOf((db) => confirmWindowSends(db, ids), 1)) assert.doesNotMatch(recorded, /Seq Scan on tier_recipients/, recorded);
});


test('confirming sends with held slots probes each slot once, not the whole batch on every probe', async () => {
  const ids = Array.from({ length: 250 }, (_, i) => `held-${String(i + 1).padStart(8, '0')}`);
  // A capped channel's window: 20,000 recipients, of which the batch's 250 slots are held (one in every 80).
  await sql`
    insert into tier_recipients (channel_id, phone_number, last_sent_at, pending_message_id)
    select ${channelId}, '+1667' || lpad(g::text, 7, '0'), now(), case when g % 80 = 0 then 'held-' || lpad((g / 80)::text, 8, '0') end
    from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  const [spend] = await rolledBack((tx) => capturedStatements(tx, (db) => confirmWindowSends(db, ids)));
  // The plan made with the ids' values and the one a prepared statement keeps without them (PostgreSQL, from the
  // sixth run of a text).
  for (const plan of [await rolledBack((tx) => explainAnalyze(tx, spend)), await rolledBack((tx) => explainAnalyzeGeneric(tx, spend))]) {
    assert.doesNotMatch(plan, /Seq Scan on tier_recipients/, plan);
    assert.match(plan, /tier_recipients_pending/, plan);
    assert.deepEqual(arrayTestsPerProbe(plan), [], plan);
  }
  // Every slot is spent by the one statement.
  assert.equal(await rolledBack(async (tx) => {
    await confirmWindowSends(tx, ids);
    return (await sql<{ n: number }>`select count(*)::int as n from tier_recipients where pending_message_id like 'held-%'`.execute(tx)).rows[0].n;
  }), 0);
});
