/** Helpers for send tests: an APPROVED template on the simulator and waiting for message states. */
import assert from 'node:assert/strict';
import { eventually, type Harness } from './harness.js';
import { uniqueName } from './templates.js';

/** Body with two variables, a URL button with one variable, and a quick reply. */
export function sendableComponents() {
  return [
    { type: 'BODY', text: 'Hello {{1}}, your code is {{2}} today.', example: { body_text: [['Ayse', 'SAVE10']] } },
    {
      type: 'BUTTONS',
      buttons: [
        { type: 'URL', text: 'Shop', url: 'https://shop.example.com/p/{{1}}', example: ['summer'] },
        { type: 'QUICK_REPLY', text: 'Stop' },
      ],
    },
  ];
}

/** Single-send parameters matching sendableComponents. */
export function sendParams(name = 'Ayse') {
  return [
    { type: 'BODY', parameters: [name, 'CODE42'] },
    { type: 'BUTTONS', buttons: [{ parameters: ['summer-sale'] }] },
  ];
}

/** Creates a template on a channel and waits until the network approved it. */
export async function approvedTemplate(h: Harness, channelId: string, components = sendableComponents(), name = uniqueName('send')): Promise<string> {
  const res = await h.call('POST', '/agent-app/message-template/template', {
    body: { name, category: 'MARKETING', language: 'en_US', components, channel_id: channelId },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.id as string;
  await eventually(async () => {
    const row = await h.store.db.selectFrom('templates').select('status').where('id', '=', id).executeTakeFirst();
    return row?.status === 'APPROVED';
  }, 10_000);
  return id;
}

/** Reads message records through the API. */
export async function lookup(h: Harness, ids: string[], token = h.a.token) {
  const res = await h.call('POST', '/api/v1/messages', { token, body: { message_ids: ids } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Waits until a message reaches one of the statuses; returns its record. */
export async function untilStatus(h: Harness, id: string, statuses: string[], timeoutMs = 15_000) {
  return eventually(async () => {
    const [record] = await lookup(h, [id]);
    return record && statuses.includes(record.status) ? record : undefined;
  }, timeoutMs);
}

/** Sends one message through family A; returns the response. */
export function singleSend(h: Harness, body: Record<string, unknown>, token = h.a.token) {
  return h.call('POST', '/agent-app/message-template/single-messagev2', { token, body });
}
