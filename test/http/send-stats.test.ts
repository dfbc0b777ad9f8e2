/**
 * GET /api/v1/send-wizards/{id}/timeline and GET /api/v1/overview: a finished bulk send's curves end at its
 * counters; the overview adds bulk rows and single sends, says the rates and the failures by code, and reads
 * through indexes only.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { listItem, phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, OTHER_CHANNEL_ID, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

const main = SIM_CHANNEL_IDS.main;
let h: Harness;
let wizardId: string;
let single: string;

/** The list item once read receipts stopped changing it (they arrive after COMPLETED). */
async function settledItem(id: string) {
  let last = '';
  return eventually(async () => {
    const it = await listItem(h, main, id);
    const key = JSON.stringify(it);
    const same = key === last;
    last = key;
    await new Promise((r) => setTimeout(r, 700));
    return same ? it : undefined;
  }, 30_000);
}

before(async () => {
  h = await startHarness();
  const template = await approvedTemplate(h, main);
  // 905558800001 is accepted and then fails with 131049 (the simulator's rule for numbers ending in 001).
  wizardId = await startV1(h, { message_template_id: template, channel_id: main, total_time: 0, rows: v1Rows([...phones(9, '9055588'), '905558800001']) });
  await untilWizard(h, main, wizardId, ['COMPLETED'], 60_000);
  const res = await singleSend(h, { channel_id: main, phone_number: '905558899913', message_template_id: template, message_template: sendParams() });
  single = res.body.data.message_id;
  await untilStatus(h, single, ['BACKEND_SEEN']);
});
after(() => h?.close());

test("a bulk send's timeline ends at its counters, every row read, each curve rising", async () => {
  const item = await settledItem(wizardId);
  const res = await h.call('GET', `/api/v1/send-wizards/${wizardId}/timeline`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const data = res.body.data;
  assert.deepEqual([data.rows, data.sampled_rows, data.estimated], [10, 10, false]);
  const lastPoint = data.points.at(-1);
  assert.deepEqual(
    [lastPoint.sent, lastPoint.delivered, lastPoint.read, lastPoint.failed],
    [item.delivered_count, item.sent_count, item.seen_count, item.failed_count],
  );
  // A row whose send answer never came (in doubt) has no hand-off time of its own: it counts from its next stage.
  assert.ok(lastPoint.handed >= lastPoint.sent && lastPoint.handed <= 10, JSON.stringify(lastPoint));
  for (let i = 1; i < data.points.length; i++) assert.ok(data.points[i].read >= data.points[i - 1].read);
});

test("a bulk send's timeline counts its failed rows by reason", async () => {
  const item = await settledItem(wizardId);
  const res = await h.call('GET', `/api/v1/send-wizards/${wizardId}/timeline`);
  assert.deepEqual(res.body.data.failures.map((f: { code: string; count: number }) => [f.code, f.count]), [['131049', item.failed_count]]);
  assert.equal(item.failed_count, 1);
});

test("another company's bulk send has no timeline (404 like a missing one)", async () => {
  const res = await h.call('GET', `/api/v1/send-wizards/${wizardId}/timeline`, { token: h.b.token });
  assert.equal(res.status, 404);
});

test('the overview of 24 h adds the bulk rows and the single send, with the rates and the failure by its code', async () => {
  const item = await settledItem(wizardId);
  const res = await h.call('GET', `/api/v1/overview?period=24h&channel_id=${main}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { totals, series, failures, channels } = res.body.data;
  assert.deepEqual(
    [totals.messages, totals.bulk_sends, totals.single_sends, totals.sent, totals.delivered, totals.read, totals.failed],
    [11, 1, 1, item.delivered_count + 1, item.sent_count + 1, item.seen_count + 1, item.failed_count],
  );
  assert.equal(totals.delivered_rate, Math.round(((item.sent_count + 1) / (item.delivered_count + 1)) * 1000) / 10);
  assert.equal(totals.read_rate, Math.round(((item.seen_count + 1) / (item.sent_count + 1)) * 1000) / 10);
  assert.equal(series.length, 25);
  assert.equal(series.reduce((n: number, p: { messages: number }) => n + p.messages, 0), 11);
  assert.deepEqual(failures.map((f: { code: string; count: number }) => [f.code, f.count]), [['131049', 1]]);
  assert.deepEqual(channels.map((c: { channel_id: string; tier_limit: number | null }) => [c.channel_id, c.tier_limit]), [[main, null]]);
  assert.ok(channels[0].tier_used_24h >= 10);
});

test("the company's overview covers every channel; another company's channel or a bad period is refused", async () => {
  const all = await h.call('GET', '/api/v1/overview?period=30d');
  assert.equal(all.status, 200);
  assert.equal(all.body.data.channels.length, 4);
  assert.equal(all.body.data.series.length, 31);
  assert.equal((await h.call('GET', `/api/v1/overview?channel_id=${OTHER_CHANNEL_ID}`)).status, 404);
  const bad = await h.call('GET', '/api/v1/overview?period=1y');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'period');
  const other = await h.call('GET', '/api/v1/overview', { token: h.b.token });
  assert.equal(other.body.data.totals.messages, 0);
});

/** The plan of a statement with sequential scans off: which indexes it can use. */
async function plan(statement: ReturnType<typeof sql>) {
  return h.store.db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const rows = await sql<Record<string, string>>`explain ${statement}`.execute(tx);
    return rows.rows.map((r) => Object.values(r)[0]).join('\n');
  });
}

test('the overview reads single sends through their own index and failed rows through the status index', async () => {
  const from = new Date(Date.now() - 86400_000);
  const singles = await plan(sql`select count(*) from messages where company_id = ${h.a.companyId} and send_wizard_id is null and created_at >= ${from}`);
  assert.match(singles, /messages_single_created/);
  const failed = await plan(sql`select count(*) from messages where send_wizard_id = any(${[wizardId]}::text[]) and status in ('BACKEND_FAILED', 'OPT_IN_FAILED')`);
  assert.match(failed, /messages_wizard_status/);
});

test("the overview's cost is the bulk send's plus the billed single send's, at the rate card's list price", async () => {
  const item = await eventually(async () => {
    const it = await listItem(h, main, wizardId);
    return it?.cost.billable_count === it?.sent_count ? it : undefined;
  }, 30_000);
  await eventually(async () => {
    const r = await h.call('GET', `/api/v1/overview?period=24h&channel_id=${main}`);
    return r.body.data.cost.billable_count === item.cost.billable_count + 1 ? r : undefined;
  }, 30_000);
  // The company's own card prices Turkey (the shipped card has no figure for it): every message gets a price.
  const rates = ['marketing', 'utility'].map((category, i) => ({ market: 'TR', category, price: 0.0125 + i * 0.001 }));
  assert.equal((await h.call('PUT', '/api/v1/rate-card', { body: { currency: 'USD', effective_date: '2026-10-01', rates } })).status, 200);
  try {
    const [bulk, overviewCost] = await Promise.all([
      listItem(h, main, wizardId).then((it) => it.cost),
      h.call('GET', `/api/v1/overview?period=24h&channel_id=${main}`).then((r) => r.body.data.cost),
    ]);
    const singleCategory = (await h.call('POST', '/api/v1/messages', { body: { message_ids: [single] } })).body.items[0].pricing.category;
    const price = rates.find((r) => r.category === singleCategory)!.price;
    assert.equal(overviewCost.unknown_price_count, 0);
    assert.ok(bulk.estimated_cost > 0);
    assert.equal(overviewCost.estimated_cost, Math.round((bulk.estimated_cost + price) * 1e6) / 1e6);
    assert.equal(overviewCost.rate_card_source, 'company');
  } finally {
    await h.call('DELETE', '/api/v1/rate-card');
  }
});
