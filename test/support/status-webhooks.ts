/** Status webhooks posted to the service as Meta signs them, then applied (for tests that write the statuses). */
import assert from 'node:assert/strict';
import { signWebhookBody } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { TEST_APP_SECRET, type Harness } from './harness.js';

/** Posts one signed `messages` body with these status items for the channel, expects 200, and drains the inbox. */
export async function postStatuses(h: Harness, channelId: string, statuses: unknown[]): Promise<void> {
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value: { messaging_product: 'whatsapp', metadata: { display_phone_number: SIM_CHANNELS[0].webhookDisplayNumber, phone_number_id: channelId }, statuses } }] }],
  });
  const res = await h.app.http.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(body, TEST_APP_SECRET) },
    payload: body,
  });
  assert.equal(res.statusCode, 200, res.body);
  await h.app.webhookInbox.drain();
}
