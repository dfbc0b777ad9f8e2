/**
 * The inbox applies stored bodies in lanes of channels: with two lanes, the bodies of two channels that fall to
 * different lanes are applied by two transactions at once. Two connections are needed for that, so this runs on a
 * PostgreSQL database whatever TMS_TEST_DB says (PGlite's one connection runs one transaction at a time, and the
 * service gives it one lane).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as delay } from 'node:timers/promises';
import { sql } from 'kysely';
import pino from 'pino';
import { WebhookInbox, type ChangeHandler } from '../../src/engine/webhook-inbox.js';
import { migrate, openDatabase, type Store } from '../../src/store/db.js';
import { insertWebhookEvents } from '../../src/store/webhook-events.js';
import { createPgDatabase } from '../support/db.js';

let store: Store;
let database: Awaited<ReturnType<typeof createPgDatabase>>;
const log = pino({ level: 'silent' });

before(async () => {
  database = await createPgDatabase();
  store = await openDatabase({ databaseUrl: database.url });
  await migrate(store.db);
});
after(async () => {
  await store.close();
  await database.drop();
});

/** The lane of `count` a channel falls to (the store's split: the server's `hashtext`). */
async function laneOf(channel: string, count: number): Promise<number> {
  const { rows } = await sql<{ lane: number }>`select (hashtext(${channel}) & 2147483647) % ${count} as lane`.execute(store.db);
  return Number(rows[0].lane);
}

/** Two channels that fall to lanes 0 and 1 of two. */
async function channelsInTwoLanes(): Promise<[string, string]> {
  const found: Array<string | undefined> = [undefined, undefined];
  for (let i = 0; found.includes(undefined); i++) {
    const channel = `10654035224${String(i).padStart(4, '0')}`;
    found[await laneOf(channel, 2)] ??= channel;
  }
  return found as [string, string];
}

const probeBody = (channel: string | null, tag: string) =>
  JSON.stringify({ entry: [{ id: 'waba', changes: [{ field: 'probe', value: { tag, ...(channel ? { metadata: { phone_number_id: channel } } : {}) } }] }] });

async function stateOf(id: string): Promise<string> {
  return (await store.db.selectFrom('webhook_events').select('state').where('id', '=', id).executeTakeFirstOrThrow()).state;
}

test('with two lanes, the bodies of channels in different lanes are applied by two transactions at once', async () => {
  const [first, second] = await channelsInTwoLanes();
  let inside = 0;
  let overlapped = false;
  let bothInside!: () => void;
  const both = new Promise<void>((resolve) => (bothInside = resolve));
  const seen: string[] = [];
  // Each transaction waits (up to 5 s) until the other lane's is inside too: one at a time never gets there.
  const probe: ChangeHandler = async ({ changes }) => {
    seen.push(...changes.map((c) => String(c.value.tag)));
    inside += 1;
    if (inside === 2) {
      overlapped = true;
      bothInside();
    }
    await Promise.race([both, delay(5000)]);
    inside -= 1;
  };
  // Both pending when the drain begins (as the bodies a network posts after a send, or a crash, leave them).
  const ids = await insertWebhookEvents(store.db, [
    { body: probeBody(first, 'first'), phoneNumberId: first },
    { body: probeBody(second, 'second'), phoneNumberId: second },
  ]);
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe }, lanes: 2 });
  await inbox.drain();
  await inbox.stop();
  assert.equal(overlapped, true, 'the two lanes were inside their transactions at once');
  assert.deepEqual(seen.sort(), ['first', 'second']);
  for (const id of ids) assert.equal(await stateOf(id), 'APPLIED');
});

test('with two lanes, a channel’s bodies are applied in arrival order and a body of no channel is applied too', async () => {
  const [first, second] = await channelsInTwoLanes();
  const order: string[] = [];
  const probe: ChangeHandler = async ({ changes }) => void order.push(...changes.map((c) => String(c.value.tag)));
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe }, applyOnReceiptBudgetMs: 0, lanes: 2, batchSize: 1 });
  await inbox.drain();
  const tags = ['a1', 'b1', 'none', 'a2', 'b2', 'a3'];
  const channelOf: Record<string, string | null> = { a: first, b: second, n: null };
  const ids: string[] = [];
  for (const tag of tags) ids.push(await inbox.receive(probeBody(channelOf[tag[0]], tag)));
  await inbox.drain();
  await inbox.stop();
  assert.deepEqual(order.filter((t) => t.startsWith('a')), ['a1', 'a2', 'a3']);
  assert.deepEqual(order.filter((t) => t.startsWith('b')), ['b1', 'b2']);
  assert.ok(order.includes('none'));
  for (const id of ids) assert.equal(await stateOf(id), 'APPLIED');
});
