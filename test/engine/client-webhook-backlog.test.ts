/**
 * A dead endpoint's backlog is visible per endpoint (pending, the oldest, the next attempt) in the API and the
 * metrics, and bounded: past CLIENT_WEBHOOK_MAX_PENDING the endpoint is disabled, saying why, so it stops growing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones, startV1, v1Rows } from '../support/bulk.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const CH = SIM_CHANNEL_IDS.main;
const E = '/api/v1/webhook-endpoints';
const METRICS_TOKEN = 'metrics-token-0123456789';
const MAX_PENDING = 30;
let h: Harness;
let templateId: string;
let down: Receiver;

before(async () => {
  h = await startHarness({}, {
    metricsCacheMs: 0,
    // Long retries: every failed head waits, so the backlog only grows; maintenance is run by the test.
    outbox: { retryBaseMs: 600_000, retryMaxMs: 600_000, pollMs: 20, idleEndpointMs: 30, maintenanceMs: 3_600_000, maxPendingPerEndpoint: MAX_PENDING },
  }, { METRICS_TOKEN });
  templateId = await approvedTemplate(h, CH);
  down = await startReceiver(() => 503);
});
after(async () => {
  await down?.close();
  await h?.close();
});

test("a dead endpoint's backlog shows in the API and the metrics, and past the limit the endpoint is disabled", async () => {
  const created = await h.call('POST', E, { body: { url: down.url, events: ['message.status_changed'] } });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.data.id as string;
  assert.deepEqual(created.body.data.backlog, { pending: 0, oldest_pending_at: null, next_attempt_at: null });
  await startV1(h, { message_template_id: templateId, rows: v1Rows(phones(20, '9055810')), total_time: 0, channel_id: CH });
  const grown = await eventually(async () => {
    const res = await h.call('GET', `${E}/${id}`);
    return res.body.data.backlog.pending > MAX_PENDING ? res.body.data : undefined;
  }, 60_000);
  assert.ok(Date.parse(grown.backlog.oldest_pending_at) <= Date.now());
  assert.ok(Number.isFinite(Date.parse(grown.backlog.next_attempt_at)), 'when the next attempt is due');
  const listed = await h.call('GET', E);
  assert.equal(listed.body.items.find((e: { id: string }) => e.id === id).backlog.pending >= grown.backlog.pending, true);

  const metrics = await h.call('GET', '/metrics', { token: METRICS_TOKEN });
  const pending = new RegExp(`^tms_outbox_endpoint_pending\\{endpoint_id="${id}"\\} (\\d+)$`, 'm').exec(metrics.body as string);
  assert.ok(pending && Number(pending[1]) > MAX_PENDING, 'per-endpoint pending gauge');
  assert.match(metrics.body as string, new RegExp(`^tms_outbox_endpoint_oldest_age_seconds\\{endpoint_id="${id}"\\} `, 'm'));
  assert.match(metrics.body as string, new RegExp(`^tms_outbox_endpoint_next_attempt_seconds\\{endpoint_id="${id}"\\} `, 'm'));

  await h.app.outbox.maintain();
  const after = (await h.call('GET', `${E}/${id}`)).body.data;
  assert.equal(after.enabled, false);
  assert.match(after.disabled_reason, /backlog limit: more than 30 deliveries pending/);
  assert.ok(after.backlog.pending > MAX_PENDING, 'the backlog is kept (delivered if the endpoint is enabled again)');
});
