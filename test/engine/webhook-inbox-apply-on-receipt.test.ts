/**
 * The webhook inbox applies a body in the transaction that stores it (one row written, already APPLIED) while the
 * database keeps up; a group that fails, or follows a group slower than the budget, is stored first and applied by
 * the drain; every body is answered only once its row is committed and applied exactly once.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { WebhookInbox, type ChangeHandler } from '../../src/engine/webhook-inbox.js';
import { createTestStore } from '../support/db.js';
import { recordWebhookEventUpdates, webhookEventWrites } from '../support/webhook-event-writes.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
before(async () => {
  store = await createTestStore();
  await sql`create table inbox_probe (tag text not null)`.execute(store.db);
  await recordWebhookEventUpdates(store.db);
});
after(() => store.cleanup());

const log = pino({ level: 'silent' });
const body = (tag: string) => JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [{ field: 'probe', value: { tag } }] }] });

/** A handler that writes each change's tag in the transaction, and counts the tags whose transaction committed. */
function probe(options: { failFirst?: Set<string>; delayMs?: number } = {}): { handler: ChangeHandler; committed: string[] } {
  const committed: string[] = [];
  const handler: ChangeHandler = async ({ tx, changes, afterCommit }) => {
    for (const { value } of changes) {
      const tag = String(value.tag);
      await sql`insert into inbox_probe (tag) values (${tag})`.execute(tx);
      if (options.failFirst?.delete(tag)) throw new Error(`probe: ${tag} fails once`);
      afterCommit(async () => void committed.push(tag));
    }
    if (options.delayMs) await new Promise((r) => setTimeout(r, options.delayMs));
  };
  return { handler, committed };
}

const event = (id: string) => webhookEventWrites(store.db, id);

async function probeCount(tag: string): Promise<number> {
  const result = await sql<{ n: number }>`select count(*)::int as n from inbox_probe where tag = ${tag}`.execute(store.db);
  return result.rows[0].n;
}

test('a body is applied in the transaction that stores it: answered with its row already APPLIED, no drain needed', async () => {
  const { handler, committed } = probe();
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe: handler } });
  await inbox.drain(); // nothing stored waits: bodies may be applied on receipt
  const id = await inbox.receive(body('on-receipt'));
  // The row was written once, in the transaction that applied it (never updated after).
  assert.deepEqual(await event(id), { state: 'APPLIED', attempts: 0, on_receipt: true });
  assert.equal(await probeCount('on-receipt'), 1);
  assert.deepEqual(committed, ['on-receipt']);
  assert.equal(inbox.appliedOnReceipt, 1);
  assert.equal(inbox.storedFirst, 0);
});

test('a group that fails to apply rolls back whole, is stored first and answered, and the drain applies each body once', async () => {
  const { handler, committed } = probe({ failFirst: new Set(['bad-once']) });
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe: handler } });
  await inbox.drain();
  // The first body goes alone; the next two arrive while it runs and form one group, which fails once.
  const [lone, good, bad] = await Promise.all([inbox.receive(body('lone')), inbox.receive(body('good')), inbox.receive(body('bad-once'))]);
  assert.equal((await event(lone)).on_receipt, true);
  await inbox.drain();
  for (const id of [good, bad]) assert.deepEqual(await event(id), { state: 'APPLIED', attempts: 0, on_receipt: false });
  assert.equal(await probeCount('good'), 1);
  assert.equal(await probeCount('bad-once'), 1);
  assert.deepEqual(committed.sort(), ['bad-once', 'good', 'lone']);
  assert.deepEqual([inbox.appliedOnReceipt, inbox.storedFirst], [1, 2]);
});

test('after a group slower than the budget, bodies are stored first until the drain has caught up, then applied on receipt again', async () => {
  const { handler } = probe({ delayMs: 60 });
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe: handler }, applyOnReceiptBudgetMs: 20 });
  await inbox.drain();
  const slow = await inbox.receive(body('slow'));
  assert.equal((await event(slow)).on_receipt, true);
  const next = await inbox.receive(body('after-slow'));
  await inbox.drain();
  // Stored first (answered once stored), applied by the drain in a later transaction.
  assert.deepEqual(await event(next), { state: 'APPLIED', attempts: 0, on_receipt: false });
  assert.equal(await probeCount('after-slow'), 1);
  const again = await inbox.receive(body('caught-up'));
  assert.equal((await event(again)).on_receipt, true);
});

test('with a budget of 0 every body is stored first (the store-first path alone)', async () => {
  const { handler } = probe();
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe: handler }, applyOnReceiptBudgetMs: 0 });
  await inbox.drain();
  const id = await inbox.receive(body('store-first'));
  await inbox.drain();
  assert.deepEqual(await event(id), { state: 'APPLIED', attempts: 0, on_receipt: false });
  assert.equal(await probeCount('store-first'), 1);
});
