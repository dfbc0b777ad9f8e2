/** Retry of failed rows (beyond the interface): a new bulk send, never to a recipient who got it. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';
import { listItem, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { assertCountersExact, receivedCounts } from '../support/lifecycle.js';

let h: Harness;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  // One attempt per send: an injected network error (131000) fails the row at once.
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } }, { dispatcher: { maxAttempts: 1 } });
  template = await approvedTemplate(h, main);
});
after(() => h.close());

const retry = (id: string, extra: Record<string, unknown> = {}, token = h.a.token) =>
  h.call('POST', `${A}/retry`, { token, body: { send_wizard_id: id, channel_id: main, ...extra } });

/** A finished bulk send over `numbers` (numbers ending 001 fail with 131049, 000 with 131026). */
async function finishedSend(numbers: string[]): Promise<string> {
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 0, channel_id: main });
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  return id;
}

test('retry makes a new bulk send of exactly the failed rows, in their order; nobody who got it is sent again', async () => {
  const ok = phones(4, '9055910');
  const numbers = [ok[0], '905591000001', ok[1], '905591000000', ok[2], '905591010001', ok[3]];
  const source = await finishedSend(numbers);
  assert.equal((await listItem(h, main, source)).failed_count, 3);
  const res = await retry(source);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual({ ...res.body.data, send_wizard_id: undefined }, {
    send_wizard_id: undefined, retry_of: source, status: 'RUNNING', summary: 3, failed_count: 3, filtered_count: 0, excluded_count: 0, scheduled_at: null,
  });
  const id = res.body.data.send_wizard_id;
  const item = await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  assert.equal(item.retry_of, source);
  assert.equal(item.message_template_id, template);
  const rows = await reportRows(h, id);
  assert.deepEqual(rows.map((r: { row: number; phone_number: string }) => [r.row, r.phone_number]), [
    [1, '+905591000001'], [2, '+905591000000'], [3, '+905591010001'],
  ]);
  assert.deepEqual(rows.map((r: { row_id: number }) => r.row_id), [2, 4, 6], 'the rows keep their ids');
  assert.deepEqual(await receivedCounts(h, ok), [1, 1, 1, 1]);
  await assertCountersExact(h, id);
});

test('error_codes keeps only the failures with those codes (family A and family B)', async () => {
  const numbers = ['905592000001', '905592010001', '905592000000', ...phones(2, '9055920')];
  const source = await finishedSend(numbers);
  const only49 = await retry(source, { error_codes: [131049] });
  assert.equal(only49.status, 200, JSON.stringify(only49.body));
  assert.equal(only49.body.data.summary, 2);
  assert.equal(only49.body.data.filtered_count, 1);
  assert.deepEqual((await reportRows(h, only49.body.data.send_wizard_id)).map((r: { phone_number: string }) => r.phone_number), ['+905592000001', '+905592010001']);
  const only26 = await h.call('POST', `/api/v1/send-wizards/${source}/retry`, { body: { error_codes: [131026] } });
  assert.equal(only26.status, 200, JSON.stringify(only26.body));
  assert.equal(only26.body.status_code, 200);
  assert.equal(only26.body.data.summary, 1);
  assert.equal(only26.body.data.filtered_count, 2);
  const none = await retry(source, { error_codes: [130472] });
  assert.equal(none.status, 409);
  assert.equal(none.body.errors[0].code, 'NO_ROWS_TO_RETRY');
});

test('a recipient with a later message of the template that did not fail is left out (delivered, or still to be sent)', async () => {
  const numbers = phones(3, '9055930');
  await simAdmin(h, '/_sim/faults', { errorRate: 1 });
  let source: string;
  try {
    source = await finishedSend(numbers);
  } finally {
    await simAdmin(h, '/_sim/faults', { errorRate: 0 });
  }
  const failed = await reportRows(h, source);
  assert.deepEqual(failed.map((r: { status: string }) => r.status), Array(3).fill('SENT_TO_BACKEND_FAILED'));
  // numbers[0] gets the template later by a single send; numbers[1] is in a bulk send scheduled later.
  const single = await singleSend(h, { channel_id: main, phone_number: numbers[0], message_template_id: template, full_name: 'X', message_template: sendParams() });
  assert.equal(single.status, 200, JSON.stringify(single.body));
  await untilStatus(h, single.body.data.message_id, ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN']);
  const later = await startV1(h, { message_template_id: template, rows: v1Rows([numbers[1]]), total_time: 0, channel_id: main, scheduled_at: new Date(Date.now() + 3600_000).toISOString() });
  const res = await retry(source, { error_codes: [131000] });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 1);
  assert.equal(res.body.data.excluded_count, 2);
  await untilWizard(h, main, res.body.data.send_wizard_id, ['COMPLETED'], 30_000);
  assert.deepEqual(await receivedCounts(h, numbers), [1, 0, 1]);
  await h.call('POST', `${A}/stop`, { body: { send_wizard_id: later, channel_id: main } });
});

test('retry answers 409 for an unfinished bulk send and when a retry already took the rows; 400 for a past scheduled_at; 404 for another company', async () => {
  const running = await startV1(h, { message_template_id: template, rows: v1Rows(phones(3, '9055940')), total_time: 60, channel_id: main });
  const unfinished = await retry(running);
  assert.equal(unfinished.status, 409);
  assert.equal(unfinished.body.errors[0].code, 'BULK_SEND_NOT_FINISHED');
  await h.call('POST', `${A}/stop`, { body: { send_wizard_id: running, channel_id: main } });

  const source = await finishedSend(['905594100001', ...phones(1, '9055941')]);
  const past = await retry(source, { scheduled_at: '2020-01-01T00:00:00Z' });
  assert.equal(past.status, 400);
  assert.equal(past.body.errors[0].field, 'scheduled_at');
  const badCodes = await retry(source, { error_codes: ['x'] });
  assert.equal(badCodes.status, 400);
  assert.equal((await retry(source, {}, h.b.token)).status, 404);

  const first = await retry(source, { scheduled_at: new Date(Date.now() + 3600_000).toISOString(), total_time: 60 });
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(first.body.data.status, 'SCHEDULED');
  const scheduled = await listItem(h, main, first.body.data.send_wizard_id);
  assert.equal(scheduled.status, 'SCHEDULED');
  assert.equal(scheduled.waiting, 1);
  const second = await retry(source);
  assert.equal(second.status, 409, 'the first retry still holds the row');
  assert.equal(second.body.errors[0].code, 'NO_ROWS_TO_RETRY');
  await h.call('POST', `${A}/stop`, { body: { send_wizard_id: first.body.data.send_wizard_id, channel_id: main } });

  const clean = await finishedSend(phones(2, '9055942'));
  const nothing = await retry(clean);
  assert.equal(nothing.status, 409);
  assert.equal(nothing.body.errors[0].code, 'NO_ROWS_TO_RETRY');
});
