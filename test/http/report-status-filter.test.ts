import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';

let h: Harness;
let wizardId: string;
let all: Array<{ row: number; status: string; message_id: string }>;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  const templateId = await approvedTemplate(h, channel);
  // Numbers ending in 000 are not on WhatsApp in the simulator: they end BACKEND_FAILED (131026).
  const numbers = phones(7, '9055611');
  const failing = ['905561100000', '905561200000', '905561300000'];
  const mixed = [numbers[0], failing[0], numbers[1], numbers[2], failing[1], numbers[3], numbers[4], failing[2], numbers[5], numbers[6]];
  wizardId = await startV1(h, { message_template_id: templateId, rows: v1Rows(mixed), total_time: 0, channel_id: channel });
  await untilWizard(h, channel, wizardId, ['COMPLETED']);
  // Status events keep coming after COMPLETED: wait until every row is final (seen or failed).
  all = await eventually(async () => {
    const rows = await reportRows(h, wizardId);
    return rows.every((r: { status: string }) => ['BACKEND_SEEN', 'BACKEND_FAILED'].includes(r.status)) ? rows : undefined;
  }, 30_000);
});
after(() => h.close());

function detail(body: Record<string, unknown>, token?: string) {
  return h.call('POST', `${A}/reports/detail`, { body: { id: wizardId, ...body }, token });
}

test('status lists only the rows in that status, in row order, with the filtered total', async () => {
  const failed = all.filter((r) => r.status === 'BACKEND_FAILED');
  assert.equal(failed.length, 3);
  const res = await detail({ status: 'BACKEND_FAILED', data: { page: 1, page_size: 20 } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.pagination.total, 3);
  assert.deepEqual(res.body.data.report_details.map((r: { row: number }) => r.row), failed.map((r) => r.row));
  assert.ok(res.body.data.report_details.every((r: { status: string }) => r.status === 'BACKEND_FAILED'));
});

test('filtered pages follow each other by page number', async () => {
  const status = 'BACKEND_SEEN';
  const expected = all.filter((r) => r.status === status).map((r) => r.row);
  assert.equal(expected.length, 7);
  const got: number[] = [];
  for (let page = 1; page <= 10; page += 1) {
    const res = await detail({ status, data: { page, page_size: 2 } });
    assert.equal(res.body.pagination.total, expected.length);
    if (res.body.data.report_details.length === 0) break;
    got.push(...res.body.data.report_details.map((r: { row: number }) => r.row));
  }
  assert.deepEqual(got, expected);
});

test('after_row pages by keyset, with and without a status', async () => {
  const res = await detail({ data: { page_size: 3, after_row: 4 } });
  assert.deepEqual(res.body.data.report_details.map((r: { row: number }) => r.row), [5, 6, 7]);
  assert.equal(res.body.pagination.total, 10);
  const failed = await detail({ status: 'BACKEND_FAILED', data: { page_size: 1, after_row: 2 } });
  assert.deepEqual(failed.body.data.report_details.map((r: { row: number }) => r.row), [5]);
  assert.equal(failed.body.pagination.total, 3);
});

test('a status no row has gives an empty page and total 0', async () => {
  const res = await detail({ status: 'CANCELLED' });
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data.report_details, []);
  assert.equal(res.body.pagination.total, 0);
});

test('an unknown status is a 400 naming the field', async () => {
  const res = await detail({ status: 'DONE' });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'VALIDATION_FAILED');
  assert.match(res.body.errors[0].field, /status/);
});

test("another company's bulk send with a status filter is 404 like a missing one", async () => {
  const res = await detail({ status: 'BACKEND_FAILED' }, h.b.token);
  assert.equal(res.status, 404);
  assert.equal(res.body.errors[0].code, 'NOT_FOUND');
});
