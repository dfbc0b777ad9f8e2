/**
 * The pair pacing and the tier window count a person by recipient key: a BSUID is its own recipient, and a phone
 * number and the BSUID the network linked to it are one recipient (an entry made under either counts).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { gateBatch } from '../../src/engine/send-gate.js';
import type { ChannelRow } from '../../src/store/channels.js';
import { findChannelById } from '../../src/store/channels.js';
import { insertMessages, type MessageRow } from '../../src/store/message-inserts.js';
import { upsertRecipientLinks } from '../../src/store/recipient-links.js';
import { confirmWindowSends, reserveWindowRecipients } from '../../src/store/tier-window.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
let channel: ChannelRow;
const CHANNEL_ID = '770000000000001';
let n = 0;

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Keys')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: CHANNEL_ID, wabaId: '770000000000000', accessToken: 't' }, createSecretBox('a'.repeat(64)));
  channel = (await findChannelById(store.db, CHANNEL_ID))!;
});
after(() => store.cleanup());

/** A queued message row to this recipient (stored, so the window's SQL can read it). */
async function message(phone: string | null, userId: string | null): Promise<MessageRow> {
  n += 1;
  const id = `k${String(n).padStart(23, '0')}`;
  await insertMessages(store.db, [{
    id, company_id: companyId, channel_id: CHANNEL_ID, template_id: 't1', waba_id: '770000000000000', send_wizard_id: null, row_no: null,
    phone_number: phone, user_id: userId, full_name: null, status: 'QUEUED', payload: {}, due_at: new Date(),
  }]);
  const row = await store.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return row as MessageRow;
}

async function windowKeys(): Promise<string[]> {
  const result = await sql<{ phone_number: string }>`select phone_number from tier_recipients where channel_id = ${CHANNEL_ID} order by 1`.execute(store.db);
  return result.rows.map((r) => r.phone_number);
}

const unlimited = () => ({ ...channel, messaging_limit_tier: 'TIER_UNLIMITED' }) as ChannelRow;
const tier50 = () => ({ ...channel, messaging_limit_tier: 'TIER_50' }) as ChannelRow;
const gate = (lastSentTo: Map<string, number>) => ({ db: store.db, pairGapMs: 6000, tierWindowMs: 24 * 3600_000, lastSentTo });

test('pair pacing holds a BSUID back when its linked phone number was just sent to; another BSUID goes, keyed by itself', async () => {
  await upsertRecipientLinks(store.db, companyId, [{ phone_number: '+905551260101', user_id: 'TR.2601011', source: 'status_webhook' }]);
  const linked = await message(null, 'TR.2601011');
  const other = await message(null, 'TR.2601012');
  const result = await gateBatch(gate(new Map([['+905551260101', Date.now()]])), unlimited(), [linked, other]);
  assert.deepEqual(result.allowed.map((m) => m.id), [other.id]);
  assert.deepEqual(result.deferred.map((d) => d.id), [linked.id]);
  assert.equal(result.keys.get(other.id), 'TR.2601012');
});

test('two rows of one person in a batch are paced apart even when one names the phone and the other the linked BSUID', async () => {
  await upsertRecipientLinks(store.db, companyId, [{ phone_number: '+905551260201', user_id: 'TR.2602011', source: 'status_webhook' }]);
  const byPhone = await message('+905551260201', null);
  const byBsuid = await message(null, 'TR.2602011');
  const result = await gateBatch(gate(new Map()), unlimited(), [byPhone, byBsuid]);
  assert.deepEqual(result.allowed.map((m) => m.id), [byPhone.id]);
  assert.equal(result.keys.get(byPhone.id), 'TR.2602011', 'a linked phone number is keyed by its BSUID');
});

test('the tier window: a BSUID takes its own slot; a BSUID whose phone number is in the window takes none', async () => {
  await sql`delete from tier_recipients`.execute(store.db);
  await reserveWindowRecipients(store.db, CHANNEL_ID, ['+905551260301']);
  await upsertRecipientLinks(store.db, companyId, [{ phone_number: '+905551260301', user_id: 'TR.2603011', source: 'inbound_message' }]);
  const known = await message(null, 'TR.2603011');
  const fresh = await message(null, 'TR.2603012');
  const result = await gateBatch(gate(new Map()), tier50(), [known, fresh]);
  assert.equal(result.allowed.length, 2);
  assert.deepEqual(await windowKeys(), ['+905551260301', 'TR.2603012']);
});

test('a confirmed send counts under the key, and the entry the person had under the phone number before the link is folded in', async () => {
  await sql`delete from tier_recipients`.execute(store.db);
  const before = await message('+905551260401', null);
  await confirmWindowSends(store.db, [before.id]);
  assert.deepEqual(await windowKeys(), ['+905551260401']);
  await upsertRecipientLinks(store.db, companyId, [{ phone_number: '+905551260401', user_id: 'TR.2604011', source: 'status_webhook' }]);
  const afterLink = await message('+905551260401', null);
  const toBsuid = await message(null, 'TR.2604011');
  await confirmWindowSends(store.db, [afterLink.id, toBsuid.id]);
  assert.deepEqual(await windowKeys(), ['TR.2604011']);
});

test('a slot held under the phone number is spent there when the link arrives before the send is confirmed: one entry', async () => {
  await sql`delete from tier_recipients`.execute(store.db);
  const m = await message('+905551260501', null);
  await reserveWindowRecipients(store.db, CHANNEL_ID, ['+905551260501'], undefined, [m.id]);
  await upsertRecipientLinks(store.db, companyId, [{ phone_number: '+905551260501', user_id: 'TR.2605011', source: 'status_webhook' }]);
  await confirmWindowSends(store.db, [m.id]);
  assert.deepEqual(await windowKeys(), ['+905551260501']);
  const held = await sql<{ pending_message_id: string | null }>`select pending_message_id from tier_recipients where channel_id = ${CHANNEL_ID}`.execute(store.db);
  assert.equal(held.rows[0].pending_message_id, null);
});
