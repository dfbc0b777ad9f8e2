/** Webhooks posted to the service as Meta signs them (for tests that write statuses and other webhook items). */
import assert from 'node:assert/strict';
import { signWebhookBody } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { TEST_APP_SECRET, type Harness } from './harness.js';

/** A `messages` webhook body of the simulator's account carrying these status items for the channel. */
export function statusWebhookBody(channelId: string, statuses: unknown[]): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: SIM_CHANNELS[0].webhookDisplayNumber, phone_number_id: channelId }, statuses } }] }],
  });
}

/** Posts a webhook body (text, or a value to serialise) signed with the app secret or another one; answers the status. */
export async function postSignedWebhook(h: Harness, body: string | object, secret = TEST_APP_SECRET): Promise<number> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const res = await h.app.http.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(text, secret) },
    payload: text,
  });
  return res.statusCode;
}

/** Posts one signed `messages` body with these status items for the channel, expects 200, and drains the inbox. */
export async function postStatuses(h: Harness, channelId: string, statuses: unknown[]): Promise<void> {
  assert.equal(await postSignedWebhook(h, statusWebhookBody(channelId, statuses)), 200);
  await h.app.webhookInbox.drain();
}
