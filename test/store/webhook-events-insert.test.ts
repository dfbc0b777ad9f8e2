/**
 * Received bodies are stored one parameter each, padded to a power of two: every group size stores exactly its
 * bodies, byte for byte, with ids in the order given, and the statement texts stay few.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { insertAppliedWebhookEvents, insertWebhookEvents } from '../../src/store/webhook-events.js';
import { createTestStore } from '../support/db.js';

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
    const ids = await insert(store.db, bodies);
    assert.equal(ids.length, n);
    const rows = (await sql<{ id: string; body: string; state: string }>`
      select id::text as id, body, state from webhook_events where id = any(${ids}::bigint[]) order by webhook_events.id`.execute(store.db)).rows;
    assert.deepEqual(rows.map((r) => r.id), ids, `${n}: ids ascending in the order given`);
    assert.deepEqual(rows.map((r) => r.body), bodies, `${n}: bodies byte for byte, in order`);
    assert.ok(rows.every((r) => r.state === state));
  }
  const total = Number((await sql<{ n: string }>`select count(*)::text as n from webhook_events`.execute(store.db)).rows[0].n);
  assert.equal(total, 1 + 2 + 3 + 5 + 8 + 9 + 100, 'no padding row stored');
});
