/**
 * Received bodies are stored one parameter each, padded to a power of two: every group size stores exactly its
 * bodies, byte for byte, with ids in the order given, and the statement texts stay few. Pending events are read back
 * in the order of their (bigint) ids, also where the ids gain a digit.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { claimWebhookEvents, insertAppliedWebhookEvents, insertWebhookEvents, listPendingWebhookEvents } from '../../src/store/webhook-events.js';
import { insertPendingStatusEvents, lockPendingStatusEvents } from '../../src/store/status-events.js';
import { serverOffersLz4 } from '../../src/store/migrations/0034_webhook_bodies_lz4.js';
import { createTestStore, onPostgres } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
before(async () => {
  store = await createTestStore();
});
after(() => store.cleanup());

test('each group size stores its bodies as given, ids in the order of the bodies', async () => {
  for (const [n, insert, state] of [
    [1, insertWebhookEvents, 'RECEIVED'], [2, insertAppliedWebhookEvents, 'APPLIED'], [3, insertWebhookEvents, 'RECEIVED'],
    [5, insertAppliedWebhookEvents, 'APPLIED'], [8, insertWebhookEvents, 'RECEIVED'], [9, insertAppliedWebhookEvents, 'APPLIED'],
    [100, insertWebhookEvents, 'RECEIVED'],
  ] as const) {
    // Quotes, backslashes, braces and commas: what an array literal would have to escape.
    const bodies = Array.from({ length: n }, (_, i) => JSON.stringify({ n, i, s: `a"b\\c{d},e'f` }));
    // Every third body of no single channel.
    const channels = bodies.map((_, i) => (i % 3 === 2 ? null : `10000000000${i}`));
    const ids = await insert(store.db, bodies.map((body, i) => ({ body, phoneNumberId: channels[i] })));
    assert.equal(ids.length, n);
    const rows = (await sql<{ id: string; body: string; state: string; phone_number_id: string | null }>`
      select id::text as id, body, state, phone_number_id from webhook_events where id = any(${ids}::bigint[]) order by webhook_events.id`.execute(store.db)).rows;
    assert.deepEqual(rows.map((r) => r.id), ids, `${n}: ids ascending in the order given`);
    assert.deepEqual(rows.map((r) => r.body), bodies, `${n}: bodies byte for byte, in order`);
    assert.deepEqual(rows.map((r) => r.phone_number_id), channels, `${n}: each body's channel beside it`);
    assert.ok(rows.every((r) => r.state === state));
  }
  const total = Number((await sql<{ n: string }>`select count(*)::text as n from webhook_events`.execute(store.db)).rows[0].n);
  assert.equal(total, 1 + 2 + 3 + 5 + 8 + 9 + 100, 'no padding row stored');
});

test('pending events whose ids cross a power of ten are listed and claimed in id order, none skipped by the cursor', async () => {
  await sql`select setval('webhook_events_id_seq', greatest(995, (select max(id) from webhook_events)))`.execute(store.db);
  const ids = await insertWebhookEvents(store.db, Array.from({ length: 10 }, (_, i) => ({ body: JSON.stringify({ i }), phoneNumberId: null })));
  const walked: string[] = [];
  for (let cursor = '0'; ; ) {
    const page = await listPendingWebhookEvents(store.db, cursor, 3);
    if (page.length === 0) break;
    walked.push(...page.map((p) => p.id).filter((id) => ids.includes(id)));
    cursor = page[page.length - 1].id;
  }
  assert.deepEqual(walked, ids);
  const claimed = await store.db.transaction().execute((tx) => claimWebhookEvents(tx, [...ids].reverse()));
  assert.deepEqual(claimed.map((c) => c.id), ids);
});

test('kept status events whose ids cross a power of ten are locked oldest first', async () => {
  await sql`select setval('pending_status_events_id_seq', greatest(995, (select max(id) from pending_status_events)))`.execute(store.db);
  await insertPendingStatusEvents(store.db, Array.from({ length: 10 }, (_, i) => ({ wamid: `wamid.${i}`, callback_data: null, status: 'sent', body: { i } })));
  const locked = await store.db.transaction().execute((tx) => lockPendingStatusEvents(tx, 10));
  assert.deepEqual(locked.map((e) => e.wamid), Array.from({ length: 10 }, (_, i) => `wamid.${i}`));
});

test('a body over the inline size is stored compressed with lz4 where the server offers it, else pglz, and read back whole', async () => {
  const offered = await serverOffersLz4(store.db);
  // PGlite is built with pglz only; the machine's PostgreSQL with lz4 too.
  assert.equal(offered, onPostgres);
  const statuses = Array.from({ length: 80 }, (_, i) => ({ id: `wamid.${i}`, status: 'delivered', recipient_id: `1555000${i}` }));
  const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ changes: [{ value: { statuses } }] }] });
  assert.ok(body.length > 4000);
  const [id] = await insertWebhookEvents(store.db, [{ body, phoneNumberId: null }]);
  const row = (await sql<{ method: string | null; body: string }>`
    select pg_column_compression(body) as method, body from webhook_events where id = ${id}::bigint`.execute(store.db)).rows[0];
  assert.equal(row.method, offered ? 'lz4' : 'pglz');
  assert.equal(row.body, body);
});
