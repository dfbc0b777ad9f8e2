import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { postSignedWebhook } from '../support/status-webhooks.js';
import { SIM_CHANNELS, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

// Failure fields (error_message, error_message_detail, failed_time) describe a failure: a message that a
// late status event moves out of a failed state loses them; a message that stays failed keeps them.

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const ACCEPTED = ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'];

before(async () => {
  h = await startHarness(
    { timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null, contactsCheck: false } },
    { dispatcher: { reconcileWindowSeconds: 1, maintenanceMs: 200 } },
  );
  templateId = await approvedTemplate(h, channel);
  // One send first, so the channel's health read and the number-check discovery are done before faults.
  await untilStatus(h, await send('905553500099'), ACCEPTED);
});
after(() => h.close());

/**
 * A status webhook in the shape of the recorded real one (`sent` with biz_opaque_callback_data), one status
 * object per event, one second apart; `failed` carries the network's 131049 error.
 */
function statusBody(messageId: string, phone: string, events: string[]): string {
  const body = JSON.parse(readFileSync(new URL('../fixtures/meta/webhook_status_sent_biz_opaque_callback_data__pywa.json', import.meta.url), 'utf8'));
  const entry = body.entry[0];
  entry.id = SIM_WABA_ID;
  const value = entry.changes[0].value;
  value.metadata = { display_phone_number: SIM_CHANNELS[0].webhookDisplayNumber, phone_number_id: channel };
  value.contacts[0].wa_id = phone;
  const template = value.statuses[0];
  const t0 = Math.floor(Date.now() / 1000);
  value.statuses = events.map((status, i) => ({
    ...template,
    id: `wamid.LATE${messageId}`,
    status,
    timestamp: String(t0 + i),
    recipient_id: phone,
    biz_opaque_callback_data: messageId,
    ...(status === 'failed'
      ? { errors: [{ code: 131049, title: 'This message was not delivered to maintain healthy ecosystem engagement.', error_data: { details: 'Healthy ecosystem engagement' } }] }
      : {}),
  }));
  return JSON.stringify(body);
}

async function send(phone: string): Promise<string> {
  const res = await singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: templateId, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.message_id;
}

test('a send failed as OUTCOME_UNKNOWN and then moved up by its real status events has no failure fields left', async () => {
  // The network never answers the send (the adapter times out, so the outcome is unknown) ...
  await simAdmin(h, '/_sim/faults', { timeoutRate: 1 });
  let id = '';
  try {
    id = await send('905553500013');
    const failed = await untilStatus(h, id, ['SENT_TO_BACKEND_FAILED'], 20_000);
    assert.equal(failed.error_message, 'OUTCOME_UNKNOWN');
    assert.ok(failed.error_message_detail);
    assert.ok(failed.failed_time);
  } finally {
    await simAdmin(h, '/_sim/faults', { timeoutRate: 0 });
  }
  // ... but it did get the message: its status events arrive late, echoing our id as the network does.
  const status = await postSignedWebhook(h, statusBody(id, '905553500013', ['sent', 'delivered', 'read']));
  assert.equal(status, 200);
  await h.app.webhookInbox.drain();
  const [recovered] = await lookup(h, [id]);
  assert.equal(recovered.status, 'BACKEND_SEEN');
  assert.equal(recovered.error_message, null);
  assert.equal(recovered.error_message_detail, null);
  assert.equal(recovered.failed_time, null);
  assert.ok(recovered.sended_time && recovered.delivered_time && recovered.seen_time);
});

test('a send failed as OUTCOME_UNKNOWN whose late event is "failed" stays failed with the network\'s error', async () => {
  await simAdmin(h, '/_sim/faults', { timeoutRate: 1 });
  let id = '';
  try {
    id = await send('905553500023');
    await untilStatus(h, id, ['SENT_TO_BACKEND_FAILED'], 20_000);
  } finally {
    await simAdmin(h, '/_sim/faults', { timeoutRate: 0 });
  }
  assert.equal(await postSignedWebhook(h, statusBody(id, '905553500023', ['failed'])), 200);
  await h.app.webhookInbox.drain();
  const [record] = await lookup(h, [id]);
  assert.equal(record.status, 'BACKEND_FAILED');
  assert.match(record.error_message_detail, /^131049/);
  assert.ok(record.error_message);
  assert.ok(record.failed_time);
});

test('a message the network failed keeps its error message, detail and failed time', async () => {
  // Numbers ending 001 are accepted and then failed by the network (131049).
  const id = await send('905553500001');
  const failed = await untilStatus(h, id, ['BACKEND_FAILED']);
  assert.ok(failed.error_message.length > 0);
  assert.match(failed.error_message_detail, /^131049/);
  assert.ok(failed.failed_time);
});
