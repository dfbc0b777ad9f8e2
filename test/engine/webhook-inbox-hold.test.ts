/**
 * While this process is sending, the webhook inbox stores bodies first and applies them once the oldest is `holdMs`
 * old, so the statuses of one message that arrive in separate bodies within the hold end as one row version; when it
 * is not sending (or stops), nothing is held.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { messageStatusHandler } from '../../src/engine/status-events.js';
import { WebhookInbox, type ChangeHandler } from '../../src/engine/webhook-inbox.js';
import { insertWebhookEvents } from '../../src/store/webhook-events.js';
import { createTestStore } from '../support/db.js';
import { eventually } from '../support/harness.js';
import { statusWebhookBody } from '../support/status-webhooks.js';
import { recordWebhookEventUpdates, webhookEventWrites } from '../support/webhook-event-writes.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000888';
const log = pino({ level: 'silent' });

before(async () => {
  store = await createTestStore();
  await recordWebhookEventUpdates(store.db);
  companyId = (await createCompany(store.db, 'Hold')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
});
after(() => store.cleanup());

/** A handed-off message with this wamid; returns its id. */
async function handedOff(tag: string): Promise<string> {
  const id = `hold-${tag}`;
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at, send_attempted_at, ext_id)
    values (${id}, ${companyId}, ${channelId}, 't1', '1', '905550001122', 'SENT_TO_BACKEND', '{"to":"x"}'::jsonb, now(), now(), ${`wamid.${tag}`})`.execute(store.db);
  return id;
}

async function message(id: string) {
  const result = await sql<{ status: string; version: number }>`select status, version from messages where id = ${id}`.execute(store.db);
  return result.rows[0];
}

async function state(eventId: string) {
  const { state, on_receipt } = await webhookEventWrites(store.db, eventId);
  return { state, on_receipt };
}

const statusBody = (tag: string, status: string, second: number) =>
  statusWebhookBody(channelId, [{ id: `wamid.${tag}`, status, timestamp: String(1_800_000_000 + second), recipient_id: '905550001122' }]);

/** Receives a body as the route does (with its parsed form). */
const receive = (inbox: WebhookInbox, text: string) => inbox.receive(text, JSON.parse(text));

test('while sending, the statuses of one message arriving in separate bodies within the hold are one row version', async () => {
  const id = await handedOff('merged');
  const before = await message(id);
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { messages: messageStatusHandler() }, holdMs: 2000, sendingUntil: () => Infinity });
  await inbox.drain();
  const events: string[] = [];
  for (const [n, status] of ['sent', 'delivered', 'read'].entries()) events.push(await receive(inbox, statusBody('merged', status, n)));
  await eventually(async () => (await message(id)).status === 'BACKEND_SEEN');
  assert.equal((await message(id)).version, before.version + 1, 'one row version for the three statuses');
  for (const e of events) assert.deepEqual(await state(e), { state: 'APPLIED', on_receipt: false });
  assert.deepEqual([inbox.appliedOnReceipt, inbox.storedFirst], [0, 3]);
  await inbox.stop();
});

test('when this process is not sending, nothing is held: each body is applied on receipt', async () => {
  const id = await handedOff('not-sending');
  const before = await message(id);
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { messages: messageStatusHandler() }, holdMs: 60_000, sendingUntil: () => -Infinity });
  await inbox.drain();
  const sent = await receive(inbox, statusBody('not-sending', 'sent', 0));
  assert.deepEqual(await state(sent), { state: 'APPLIED', on_receipt: true });
  assert.deepEqual(await message(id), { status: 'BACKEND_DELIVERED', version: before.version + 1 });
  await receive(inbox, statusBody('not-sending', 'read', 1));
  assert.deepEqual(await message(id), { status: 'BACKEND_SEEN', version: before.version + 2 });
  await inbox.stop();
});

test('when the sending stops, the bodies held are applied then, and the next body is applied on receipt', async () => {
  const id = await handedOff('stops');
  // The sending ends 2 s from now (no hand-off after): well before the 60 s hold.
  const end = performance.now() + 2000;
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { messages: messageStatusHandler() }, holdMs: 60_000, sendingUntil: () => end });
  await inbox.drain();
  const sent = await receive(inbox, statusBody('stops', 'sent', 0));
  assert.equal((await state(sent)).state, 'RECEIVED');
  await eventually(async () => (await state(sent)).state === 'APPLIED', 15_000);
  assert.equal((await message(id)).status, 'BACKEND_DELIVERED');
  const read = await receive(inbox, statusBody('stops', 'read', 1));
  assert.deepEqual(await state(read), { state: 'APPLIED', on_receipt: true });
  await inbox.stop();
});

test('a body stored first is applied by the drain from the form the route parsed, not parsed again from its text', async () => {
  const seen: unknown[] = [];
  const probe: ChangeHandler = async ({ changes }) => void seen.push(...changes.map((c) => c.value.tag));
  // Stored first (a budget of 0), so the drain applies it.
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { probe }, applyOnReceiptBudgetMs: 0 });
  await inbox.drain();
  const text = JSON.stringify({ entry: [{ id: '1', changes: [{ field: 'probe', value: { tag: 'from-text' } }] }] });
  await inbox.receive(text, { entry: [{ id: '1', changes: [{ field: 'probe', value: { tag: 'as-parsed' } }] }] });
  await inbox.drain();
  assert.deepEqual(seen, ['as-parsed']);
  await inbox.stop();
});

/** A handler that counts the changes of each transaction. */
function countingHandler(perTransaction: number[]): ChangeHandler {
  return async ({ changes }) => void perTransaction.push(changes.length);
}
const counted = (n: number) => Array.from({ length: n }, (_, i) => JSON.stringify({ entry: [{ id: '1', changes: [{ field: 'counted', value: { i } }] }] }));
/** Bodies as stored by another process (of no single channel). */
const stored = (bodies: string[]) => bodies.map((body) => ({ body, phoneNumberId: null }));

test('a backlog is applied in large transactions once the first small one leaves bodies pending', async () => {
  // 250 bodies stored first (as a crash, or a network catching up after a send, leaves them); not sending.
  const perTransaction: number[] = [];
  await insertWebhookEvents(store.db, stored(counted(250)));
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { counted: countingHandler(perTransaction) }, batchSize: 100 });
  await inbox.drain();
  assert.deepEqual(perTransaction, [100, 150]);
  await inbox.stop();
});

test('while sending, a pass takes the bodies stored before it began, those of another process too', async () => {
  const perTransaction: number[] = [];
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { counted: countingHandler(perTransaction) }, holdMs: 60_000, sendingUntil: () => Infinity });
  await inbox.drain();
  const held = await Promise.all(counted(3).map((text) => inbox.receive(text)));
  // Stored after this process's bodies by another process (or left by a crashed one): pending all the same.
  const others = await insertWebhookEvents(store.db, stored(counted(2)));
  await inbox.drain();
  assert.deepEqual(perTransaction, [5]);
  for (const id of [...held, ...others]) assert.equal((await state(id)).state, 'APPLIED');
  await inbox.stop();
});

test('while sending, bodies stored after a pass began wait for their window, and the inbox applies them when it stops', async () => {
  const perTransaction: number[] = [];
  const later: string[] = [];
  // The pass's first transaction stores two more bodies (committed with it, so after the pass began).
  const storingHandler: ChangeHandler = async ({ tx, changes }) => {
    perTransaction.push(changes.length);
    if (later.length === 0) later.push(...(await insertWebhookEvents(tx, stored(counted(2)))));
  };
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { counted: storingHandler }, holdMs: 60_000, sendingUntil: () => Infinity });
  await inbox.drain();
  await Promise.all(counted(3).map((text) => inbox.receive(text)));
  await inbox.drain();
  assert.deepEqual(perTransaction, [3]);
  for (const id of later) assert.equal((await state(id)).state, 'RECEIVED');
  await inbox.stop();
  assert.deepEqual(perTransaction, [3, 2]);
  for (const id of later) assert.equal((await state(id)).state, 'APPLIED', 'applied when the inbox stops');
});

test('stopping the inbox applies the bodies it holds', async () => {
  const id = await handedOff('at-stop');
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { messages: messageStatusHandler() }, holdMs: 60_000, sendingUntil: () => Infinity });
  await inbox.drain();
  const sent = await receive(inbox, statusBody('at-stop', 'sent', 0));
  assert.equal((await state(sent)).state, 'RECEIVED');
  await inbox.stop();
  assert.equal((await state(sent)).state, 'APPLIED');
  assert.equal((await message(id)).status, 'BACKEND_DELIVERED');
});

test('work a handler leaves for the end of the transaction runs after every handler (the bulk-send counters go last)', async () => {
  const order: string[] = [];
  const first: ChangeHandler = async ({ atEnd }) => {
    order.push('first');
    atEnd(async () => void order.push('first at end'));
  };
  const second: ChangeHandler = async () => void order.push('second');
  const inbox = new WebhookInbox({ db: store.db, log, handlers: { first, second } });
  await inbox.drain();
  await inbox.receive(JSON.stringify({ entry: [{ id: '1', changes: [{ field: 'first', value: {} }, { field: 'second', value: {} }] }] }));
  assert.deepEqual(order, ['first', 'second', 'first at end']);
});

test('a body is stored with the one channel its changes concern, applied on receipt or first, and with none when they name two', async () => {
  const channelOf = async (id: string) =>
    (await store.db.selectFrom('webhook_events').select('phone_number_id').where('id', '=', id).executeTakeFirstOrThrow()).phone_number_id;
  const change = (channel: string) => ({ field: 'noted', value: { metadata: { phone_number_id: channel } } });
  const one = JSON.stringify({ entry: [{ id: '1', changes: [change('106540352242922'), change('106540352242922')] }] });
  const two = JSON.stringify({ entry: [{ id: '1', changes: [change('106540352242922'), change('106540352242923')] }] });
  const noted: ChangeHandler = async () => {};
  for (const budget of [500, 0]) {
    const inbox = new WebhookInbox({ db: store.db, log, handlers: { noted }, applyOnReceiptBudgetMs: budget });
    await inbox.drain();
    const [a, b] = [await receive(inbox, one), await inbox.receive(two)];
    await inbox.drain();
    assert.deepEqual(await state(a), { state: 'APPLIED', on_receipt: budget > 0 });
    assert.equal(await channelOf(a), '106540352242922');
    assert.equal(await channelOf(b), null);
    await inbox.stop();
  }
});
