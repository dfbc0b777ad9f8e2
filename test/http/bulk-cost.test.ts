/**
 * What a bulk send cost: the dry-run estimate of a list (start, startv2 and file start alike) equals the cost computed
 * after delivery from the status webhooks' pricing for the same list, in the reports list, the report detail and the
 * export; markets without a figure stay unknown in both.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { listItem, startV1, v1Rows } from '../support/bulk.js';
import { csvPart, fieldParts, startFile } from '../support/files.js';
import { approvedTemplate } from '../support/sending.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';
/** Argentina ×3, Turkey ×2, Brazil ×1 (no figure on the card below), one Argentina number twice. */
const NUMBERS = ['5491155550103', '5491155550113', '5491155550123', '905551270113', '905551270123', '5511955550133', '5491155550103'];
const CARD = {
  currency: 'USD', effective_date: '2026-10-01',
  rates: [{ market: 'AR', category: 'marketing', price: 0.0618 }, { market: 'TR', category: 'marketing', price: 0.0109, source: 'test' }],
};

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
  const put = await h.call('PUT', '/api/v1/rate-card', { body: CARD });
  assert.equal(put.status, 200, JSON.stringify(put.body));
});
after(() => h.close());

const body = (extra: Record<string, unknown> = {}) => ({ message_template_id: templateId, channel_id: channel, total_time: 0, rows: v1Rows(NUMBERS), ...extra });
/** The parts of a cost two answers must agree on. */
const figures = (c: { currency: string; estimated_cost: number; billable_count: number; unknown_price_count: number; by_market: unknown[] }) =>
  ({ currency: c.currency, estimated_cost: c.estimated_cost, billable_count: c.billable_count, unknown_price_count: c.unknown_price_count, by_market: c.by_market });

test('the dry-run estimate of a list equals the cost after delivery, in the list, the detail and the export', async () => {
  const dry = await h.call('POST', `${A}/start`, { body: body({ dry_run: true }) });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  const estimate = dry.body.data.estimate;
  assert.deepEqual(estimate.by_market, [
    { market: 'AR', category: 'marketing', billable_count: 3, price: 0.0618, cost: 0.1854 },
    { market: 'BR', category: 'marketing', billable_count: 1, price: null, cost: null },
    { market: 'TR', category: 'marketing', billable_count: 2, price: 0.0109, cost: 0.0218 },
  ]);
  assert.equal(estimate.estimated_cost, 0.2072);
  assert.equal(estimate.complete, false);
  assert.match(estimate.note, /not an invoice/);

  const id = await startV1(h, body());
  const item = await eventually(async () => {
    const it = await listItem(h, channel, id);
    return it?.cost.billable_count === 6 ? it : undefined;
  }, 30_000);
  assert.deepEqual(figures(item.cost), figures(estimate));

  const detail = await h.call('POST', `${A}/reports/detail`, { body: { id, data: { page: 1, page_size: 50 } } });
  assert.deepEqual(figures(detail.body.data.cost), figures(estimate));
  const first = detail.body.data.report_details[0];
  assert.equal(first.market, 'AR');
  assert.deepEqual(first.pricing, { category: 'marketing', type: 'regular', billable: true, pricing_model: 'PMP' });

  const exported = await h.app.http.inject({ method: 'GET', url: `${A}/reports/detail/export?id=${id}&format=csv`, headers: { authorization: `Bearer ${h.a.token}` } });
  const rows = parse(exported.body, { columns: true }) as Array<Record<string, string>>;
  const sum = rows.reduce((total, r) => total + Math.round(Number(r.list_price || 0) * 1e6), 0) / 1e6;
  assert.equal(sum, estimate.estimated_cost);
  assert.deepEqual(rows.map((r) => r.billed), ['true', 'true', 'true', 'true', 'true', 'true']);
});

test('startv2 and a file start answer the same estimate for the same list', async () => {
  const v1 = (await h.call('POST', `${A}/start`, { body: body({ dry_run: true }) })).body.data.estimate;
  const v2 = await h.call('POST', `${A}/startv2`, {
    body: {
      message_template_id: templateId, channel_id: channel, total_time: 0, dry_run: true,
      param_headers: ['id', 'phone_number', 'BODY.1', 'BODY.2', 'BUTTONS.0'],
      rows: NUMBERS.map((n, i) => [i + 1, n, 'Ana', 'CODE', 'p']),
    },
  });
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  assert.deepEqual(v2.body.data.estimate, v1);
  const file = await startFile(h, [
    ...fieldParts({ message_template_id: templateId, channel_id: channel, total_time: 0, dry_run: true }),
    csvPart([['phone_number', 'BODY.1', 'BODY.2', 'BUTTONS.0'], ...NUMBERS.map((n) => [n, 'Ana', 'CODE', 'p'])]),
  ]);
  assert.equal(file.status, 200, JSON.stringify(file.body));
  assert.deepEqual(file.body.data.estimate, v1);
});

test('a dry run stores nothing: no bulk send, no cost counters', async () => {
  const before = await h.store.db.selectFrom('send_wizards').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  await h.call('POST', `${A}/start`, { body: body({ dry_run: true }) });
  const after = await h.store.db.selectFrom('send_wizards').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n));
});

test('a list of phone numbers and BSUIDs: a BSUID is priced by its country prefix, and the estimate equals the cost after delivery', async () => {
  const bsuid = async (phone: string) => (await simAdmin(h, `/_sim/users/${phone}`)).user_id as string;
  const [ar, tr] = [await bsuid('5491155550153'), await bsuid('905551270153')];
  assert.match(ar, /^AR\./);
  const rows = [
    ...v1Rows(['5491155550163', '905551270163']),
    { id: 3, user_id: ar, params: ['A', 'B'], url_button_param: 'c' },
    { id: 4, user_id: tr, params: ['A', 'B'], url_button_param: 'c' },
  ];
  const mixed = { message_template_id: templateId, channel_id: channel, total_time: 0, rows };
  const dry = await h.call('POST', `${A}/start`, { body: { ...mixed, dry_run: true } });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  const estimate = dry.body.data.estimate;
  assert.deepEqual(estimate.by_market.map((m: { market: string; billable_count: number }) => [m.market, m.billable_count]), [['AR', 2], ['TR', 2]]);
  assert.equal(estimate.estimated_cost, 0.1454);
  const id = await startV1(h, mixed);
  const item = await eventually(async () => {
    const it = await listItem(h, channel, id);
    return it?.cost.billable_count === 4 ? it : undefined;
  }, 30_000);
  assert.deepEqual(figures(item.cost), figures(estimate));
});
