import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

/** Row counts of every table a start writes to. */
async function counts() {
  const n = async (table: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(h.store.db)).rows[0].n;
  return { messages: await n('messages'), send_wizards: await n('send_wizards'), idempotency_keys: await n('idempotency_keys') };
}

test('a dry run of start stores nothing, sends nothing and counts the unique rows and duplicates', async () => {
  const numbers = phones(6, '9055601');
  const rows = v1Rows([...numbers, numbers[0], numbers[2]]);
  const before = await counts();
  const res = await h.call('POST', `${A}/start`, {
    body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel, dry_run: true },
    headers: { 'idempotency-key': 'dry-run-1' },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { estimate, ...data } = res.body.data;
  assert.deepEqual(data, { dry_run: true, summary: 6, duplicate_count: 2, tier_needed_24h: 6, tier_left_24h: null });
  assert.equal(estimate.billable_count, 6);
  assert.deepEqual(await counts(), before);
});

test('a dry run of startv2 checks its rows like a start and stores nothing', async () => {
  const before = await counts();
  const numbers = phones(3, '9055602');
  const res = await h.call('POST', `${A}/startv2`, {
    body: {
      message_template_id: templateId,
      rows: numbers.map((n, i) => [i + 1, n, `Name${i}`, `CODE${i}`, `p${i}`]),
      total_time: 0,
      channel_id: channel,
      param_headers: ['id', 'phone', 'BODY.1', 'BODY.2', 'BUTTONS.0'],
      dry_run: true,
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 3);
  assert.equal(res.body.data.duplicate_count, 0);
  assert.deepEqual(await counts(), before);
});

test('a dry run with a bad row answers 400 with its row and column, like a start', async () => {
  const rows = v1Rows(phones(4, '9055603'));
  rows[2].params = ['only one'];
  const res = await h.call('POST', `${A}/start`, { body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel, dry_run: true } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
  assert.equal(res.body.errors[0].field, 'rows[2].params[1]');
  assert.match(res.body.errors[0].message, /row 3/);
});

test('dry_run must be a boolean', async () => {
  const res = await h.call('POST', `${A}/start`, {
    body: { message_template_id: templateId, rows: v1Rows(phones(1, '9055604')), total_time: 0, channel_id: channel, dry_run: 'yes' },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'dry_run');
});

test('dry_run null is a wrong type: 400 naming it, and nothing is started', async () => {
  const before = await h.call('POST', `${A}/reports`, { body: { page: 1, page_size: 100, channel_id: channel } });
  const res = await h.call('POST', `${A}/start`, {
    body: { message_template_id: templateId, rows: v1Rows(phones(1, '9055605')), total_time: 0, channel_id: channel, dry_run: null },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'dry_run');
  const after = await h.call('POST', `${A}/reports`, { body: { page: 1, page_size: 100, channel_id: channel } });
  assert.equal(typeof before.body.pagination.total, 'number');
  assert.equal(after.body.pagination.total, before.body.pagination.total);
});

test('on a capped tier the dry run counts the quota left and leaves out numbers already reached in the window', async () => {
  const small = SIM_CHANNEL_IDS.small; // TIER_50
  const reached = phones(3, '9055605');
  const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(reached), total_time: 0, channel_id: small });
  await untilWizard(h, small, id, ['COMPLETED']);
  const res = await h.call('POST', `${A}/start`, {
    body: { message_template_id: templateId, rows: v1Rows([...reached.slice(0, 2), ...phones(4, '9055606')]), total_time: 0, channel_id: small, dry_run: true },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 6);
  assert.equal(res.body.data.tier_needed_24h, 4);
  assert.equal(res.body.data.tier_left_24h, 47);
});

test('dry_run false starts the bulk send as before', async () => {
  const res = await h.call('POST', `${A}/start`, {
    body: { message_template_id: templateId, rows: v1Rows(phones(2, '9055607')), total_time: 0, channel_id: channel, dry_run: false },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.match(res.body.data.send_wizard_id, /^[0-9a-f]{24}$/);
  assert.equal(res.body.data.summary, 2);
});
