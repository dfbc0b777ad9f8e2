/**
 * Each message's `pricing` from its status webhooks: stored whatever order and how many times the statuses arrive
 * (the highest-ranked status's pricing wins), never lost when its status changes nothing else, and counted once per
 * bulk send by pricing category and market when the message is billed (billable and delivered or read). The
 * simulator's own webhooks are switched off so the test posts the statuses itself.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { postStatuses } from '../support/status-webhooks.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { listBulkSendCosts } from '../../src/store/bulk-send-costs.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { startV1, v1Rows } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';

let h: Harness;
const channel = SIM_CHANNEL_IDS.main;
/** Argentina ×4, Turkey ×1 (none ends in a special simulator rule). */
const NUMBERS = ['5491155550103', '5491155550113', '5491155550123', '5491155550133', '905551260143'];
let wizardId: string;
let ext: Map<string, string>;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  const templateId = await approvedTemplate(h, channel);
  await simAdmin(h, '/_sim/webhook-target', { url: null });
  wizardId = await startV1(h, { message_template_id: templateId, channel_id: channel, total_time: 0, rows: v1Rows(NUMBERS) });
  // Every row handed off (SENT_TO_BACKEND with its wamid), no status yet.
  ext = await eventually(async () => {
    const rows = await sql<{ phone_number: string; ext_id: string | null }>`
      select phone_number, ext_id from messages where send_wizard_id = ${wizardId}`.execute(h.store.db);
    return rows.rows.every((r) => r.ext_id) && rows.rows.length === NUMBERS.length ? new Map(rows.rows.map((r) => [r.phone_number.slice(1), r.ext_id!])) : undefined;
  }, 20_000);
});
after(() => h.close());

const pricing = (category: string, type = 'regular') => ({ billable: type === 'regular', pricing_model: 'PMP', type, category });
let clock = 1_790_000_000;

/** Posts one signed `messages` webhook with these statuses (each `[number, status, pricing?]`) and applies it. */
async function post(...statuses: Array<[string, string, Record<string, unknown>?]>) {
  await postStatuses(h, channel, statuses.map(([number, status, p]) => ({ id: ext.get(number), status, timestamp: String(clock++), recipient_id: number, ...(p ? { pricing: p } : {}) })));
}

async function stored(number: string) {
  const rows = await sql<Record<string, unknown>>`
    select pricing_category, pricing_type, pricing_billable, pricing_model from messages where ext_id = ${ext.get(number)!}`.execute(h.store.db);
  return rows.rows[0];
}

/** The bulk send's cost counters as `category/market → count`. */
async function counters(): Promise<Record<string, number>> {
  return Object.fromEntries((await listBulkSendCosts(h.store.db, [wizardId])).map((r) => [`${r.category}/${r.market}`, r.billable_count]));
}

/** The same counts recomputed from the messages (billable and delivered or read). */
async function countedFromRows(): Promise<Record<string, number>> {
  const rows = await sql<{ category: string; phone: string }>`
    select pricing_category as category, phone_number as phone from messages
    where send_wizard_id = ${wizardId} and pricing_billable and reached_rank >= 3`.execute(h.store.db);
  const out: Record<string, number> = {};
  for (const r of rows.rows) {
    const key = `${r.category}/${r.phone.startsWith('+90') ? 'TR' : 'AR'}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

test('delivered before sent, each twice: the pricing is stored once and the message counted once', async () => {
  const [n] = NUMBERS;
  await post([n, 'delivered', pricing('marketing')], [n, 'delivered', pricing('marketing')]);
  await post([n, 'sent', pricing('marketing')], [n, 'sent', pricing('marketing')]);
  assert.deepEqual(await stored(n), { pricing_category: 'marketing', pricing_type: 'regular', pricing_billable: true, pricing_model: 'PMP' });
  assert.deepEqual(await counters(), { 'marketing/AR': 1 });
});

test('pricing on sent alone is stored but not billed; a read without pricing then bills it', async () => {
  const n = NUMBERS[1];
  await post([n, 'sent', pricing('marketing')]);
  assert.equal((await stored(n)).pricing_billable, true);
  assert.deepEqual(await counters(), { 'marketing/AR': 1 });
  await post([n, 'read']);
  assert.deepEqual(await counters(), { 'marketing/AR': 2 });
});

test('a late sent after read still stores its pricing (never lost) and bills the message', async () => {
  const n = NUMBERS[2];
  await post([n, 'read']);
  assert.equal((await stored(n)).pricing_category, null);
  await post([n, 'sent', pricing('marketing')]);
  assert.equal((await stored(n)).pricing_category, 'marketing');
  assert.deepEqual(await counters(), { 'marketing/AR': 3 });
});

test('a free message (free_customer_service) is stored as not billable and not counted', async () => {
  const n = NUMBERS[3];
  await post([n, 'sent', pricing('utility', 'free_customer_service')], [n, 'delivered', pricing('utility', 'free_customer_service')]);
  assert.deepEqual(await stored(n), { pricing_category: 'utility', pricing_type: 'free_customer_service', pricing_billable: false, pricing_model: 'PMP' });
  assert.deepEqual(await counters(), { 'marketing/AR': 3 });
});

test('the delivered status’s pricing wins over sent’s in either order, and the counters follow; they equal the rows', async () => {
  const n = NUMBERS[4];
  await post([n, 'delivered', pricing('utility')]);
  await post([n, 'sent', pricing('marketing')]);
  assert.equal((await stored(n)).pricing_category, 'utility');
  assert.deepEqual(await counters(), { 'marketing/AR': 3, 'utility/TR': 1 });
  assert.deepEqual(await counters(), await countedFromRows());
});
