import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { postStatuses as postStatusesOf } from '../support/status-webhooks.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

// A message the network reported failed gains no delivered or seen time from events that follow.

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  templateId = await approvedTemplate(h, channel);
  // The simulator's own status webhooks go nowhere: this file posts the statuses itself.
  h.simulator.setWebhookTarget('http://127.0.0.1:9/nowhere', TEST_APP_SECRET);
});
after(() => h.close());

async function handedOff(phone: string): Promise<{ id: string; wamid: string }> {
  const res = await singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: templateId, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.message_id as string;
  const record = await untilStatus(h, id, ['SENT_TO_BACKEND']);
  return { id, wamid: record.ext_id as string };
}

/** Posts these status items for the channel, signed, and applies them. */
const postStatuses = (statuses: unknown[]) => postStatusesOf(h, channel, statuses);

const at = (offset: number) => String(Math.floor(Date.now() / 1000) + offset);
const failed = (wamid: string, t: string) => ({ id: wamid, status: 'failed', timestamp: t, recipient_id: '1', errors: [{ code: 131026, title: 'Message undeliverable' }] });

test('failed, then read in a later body: the message stays failed without delivered or seen time', async () => {
  const m = await handedOff('905554477001');
  await postStatuses([failed(m.wamid, at(0))]);
  await postStatuses([{ id: m.wamid, status: 'read', timestamp: at(2), recipient_id: '905554477001' }]);
  const [record] = await lookup(h, [m.id]);
  assert.equal(record.status, 'BACKEND_FAILED');
  assert.ok(record.failed_time);
  assert.equal(record.delivered_time, null);
  assert.equal(record.seen_time, null);
});

test('failed, delivered and read in one body: the record keeps only the failure', async () => {
  const m = await handedOff('905554477002');
  await postStatuses([failed(m.wamid, at(0)), { id: m.wamid, status: 'delivered', timestamp: at(1), recipient_id: '905554477002' }, { id: m.wamid, status: 'read', timestamp: at(2), recipient_id: '905554477002' }]);
  const [record] = await lookup(h, [m.id]);
  assert.equal(record.status, 'BACKEND_FAILED');
  assert.equal(record.delivered_time, null);
  assert.equal(record.seen_time, null);
});

test('a sent event that arrives after the failure still records when the network accepted the message', async () => {
  const m = await handedOff('905554477003');
  await postStatuses([failed(m.wamid, at(1))]);
  await postStatuses([{ id: m.wamid, status: 'sent', timestamp: at(0), recipient_id: '905554477003' }]);
  const [record] = await lookup(h, [m.id]);
  assert.equal(record.status, 'BACKEND_FAILED');
  assert.ok(record.sended_time);
});
