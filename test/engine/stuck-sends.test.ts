/**
 * Bounded waits, black-box over HTTP with the simulator: with its status webhooks switched off a
 * bulk send still completes (its rows fail "No status from the network"), a late status still moves a row up, the
 * channel list flags stale status webhooks, and rows queued on a blocked channel end instead of waiting for ever.
 * The service runs with tiny waits: status 3 s, alert 1 s, queue 1 s.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { NO_STATUS_ERROR, QUEUE_EXPIRED_ERROR } from '../../src/domain/waits.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { countersFromRows, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, simAdmin, startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let templateId: string;
const main = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness(
    { timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } },
    { dispatcher: { statusWaitSeconds: 3, statusAlertSeconds: 1, queueWaitSeconds: 1, maintenanceMs: 200 } },
  );
  templateId = await approvedTemplate(h, main);
});
after(() => h.close());

function webhooksOff() {
  h.simulator.setWebhookTarget(null);
}

function webhooksOn() {
  h.simulator.setWebhookTarget(`${h.appUrl}/webhooks/whatsapp`, TEST_APP_SECRET);
}

async function send(phone: string) {
  const res = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: templateId, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.message_id as string;
}

async function staleSince(channelId: string): Promise<string | null> {
  const res = await h.call('GET', '/api/v1/channels');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items.find((c: { id: string }) => c.id === channelId).status_webhooks_stale_since;
}

test('with status webhooks switched off a bulk send completes: its rows fail "No status from the network"', async () => {
  webhooksOff();
  try {
    const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(phones(5, '9055710')), total_time: 0, channel_id: main });
    const done = await untilWizard(h, main, id, ['COMPLETED'], 30_000);
    const rows = await reportRows(h, id);
    assert.equal(rows.length, 5);
    for (const row of rows) {
      assert.equal(row.status, 'SENT_TO_BACKEND_FAILED');
      assert.equal(row.error_message, NO_STATUS_ERROR);
      assert.match(row.error_message_detail, /no status event arrived within 3 s/);
      assert.ok(row.failed_time);
    }
    const counted = countersFromRows(rows);
    assert.equal(done.failed_count, 5);
    assert.equal(done.awaiting_backend_count, 0);
    assert.equal(done.processed_count, counted.processed_count);
    assert.equal(done.queued, 0);
  } finally {
    webhooksOn();
  }
});

test('a status event that arrives after the wait still moves the failed message up and clears its failure', async () => {
  await simAdmin(h, '/_sim/faults', { webhookDelayMs: 7000 });
  try {
    const id = await send('905557200013');
    const failed = await untilStatus(h, id, ['SENT_TO_BACKEND_FAILED'], 15_000);
    assert.equal(failed.error_message, NO_STATUS_ERROR);
    const seen = await untilStatus(h, id, ['BACKEND_SEEN'], 20_000);
    assert.equal(seen.error_message ?? null, null);
    assert.equal(seen.failed_time ?? null, null);
  } finally {
    await simAdmin(h, '/_sim/faults', { webhookDelayMs: 0 });
  }
});

test('the channel list flags stale status webhooks while messages await a status, and clears it when one arrives', async () => {
  assert.equal(await staleSince(main), null);
  webhooksOff();
  let since: string | null;
  try {
    await send('905557300013');
    since = await eventually(() => staleSince(main), 10_000);
    assert.ok(!Number.isNaN(Date.parse(since)));
  } finally {
    webhooksOn();
  }
  const id = await send('905557300023');
  await untilStatus(h, id, ['BACKEND_SEEN']);
  await eventually(async () => (await staleSince(main)) === null, 10_000);
});

test('rows queued on a blocked channel end failed after the queue wait and the paused bulk send completes', async () => {
  const flagged = SIM_CHANNEL_IDS.flagged;
  const template = await approvedTemplate(h, flagged);
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(3, '9055740')), total_time: 0, channel_id: flagged });
  const done = await untilWizard(h, flagged, id, ['COMPLETED'], 30_000);
  const rows = await reportRows(h, id);
  for (const row of rows) {
    assert.equal(row.status, 'SENT_TO_BACKEND_FAILED');
    assert.equal(row.error_message, QUEUE_EXPIRED_ERROR);
    assert.match(row.error_message_detail, /FLAGGED/);
  }
  assert.equal(done.failed_count, 3);
  assert.equal(done.queued, 0);
  const received = await Promise.all(phones(3, '9055740').map((n) => simAdmin(h, `/_sim/received?to=%2B${n}`)));
  assert.equal(received.reduce((sum, g) => sum + g.messages.length, 0), 0, 'a row of the blocked channel was sent');
});

test('a single send whose status webhooks never come ends failed instead of waiting for ever', async () => {
  webhooksOff();
  try {
    const id = await send('905557500013');
    const record = await untilStatus(h, id, ['SENT_TO_BACKEND_FAILED'], 15_000);
    assert.equal(record.error_message, NO_STATUS_ERROR);
    const [again] = await lookup(h, [id]);
    assert.equal(again.status, 'SENT_TO_BACKEND_FAILED');
  } finally {
    webhooksOn();
  }
});
