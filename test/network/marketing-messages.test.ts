/**
 * The simulator's Marketing Messages API (`POST /{PNID}/marketing_messages`) through the Cloud API adapter, and the
 * `pricing` of status webhooks: it follows the template's category on /messages and is `marketing_lite` through the
 * marketing endpoint; the endpoint refuses non-MARKETING templates (134100) and, when configured so, a WABA that is
 * not onboarded (134102, HTTP 500), with Graph's error shape and without accepting anything.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { GraphTemplateComponent, TemplateSendPayload } from '../../src/network/port.js';
import { credsOf, eventually, httpJson, networkErrorOf, startSim, WebhookReceiver, type SimSetup } from './helpers.js';

const creds = credsOf();
const BODY: GraphTemplateComponent[] = [{ type: 'BODY', text: 'Hi {{1}}, our sale starts today.', example: { body_text: [['Ann']] } }];
let s: SimSetup;
let receiver: WebhookReceiver;

before(async () => {
  receiver = new WebhookReceiver();
  s = await startSim({ webhookUrl: await receiver.start(), appSecret: 'x', timings: { sentDelayMs: 10, deliveredDelayMs: 60, readDelayMs: 110 } });
});
after(async () => {
  await s.close();
  await receiver.close();
});
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  receiver.received.length = 0;
  await approved('promo', 'MARKETING');
  await approved('receipt', 'UTILITY');
});

async function approved(name: string, category: string) {
  const { id } = await s.net.createTemplate(creds, { name, language: 'en_US', category, components: BODY });
  await eventually(async () => (await s.net.getTemplate(creds, id)).status === 'APPROVED');
}

function payload(name: string, to: string): TemplateSendPayload {
  return {
    messaging_product: 'whatsapp', recipient_type: 'individual', to, type: 'template',
    template: { name, language: { code: 'en_US' }, components: [{ type: 'body', parameters: [{ type: 'text', text: 'Bob' }] }] },
  };
}

const statusesOf = (wamid: string) => receiver.statuses().filter((st) => st.id === wamid);

async function accepted(): Promise<number> {
  return ((await httpJson('GET', `${s.rootUrl}/_sim/stats`)).json as { sends_accepted: number }).sends_accepted;
}

test('/messages statuses carry pricing of the template category on sent and delivered, none on read', async () => {
  const wamid = (await s.net.sendMessage(creds, payload('receipt', '+15550103456'))).messages[0].id;
  await eventually(() => statusesOf(wamid).length >= 3);
  const byStatus = Object.fromEntries(statusesOf(wamid).map((st) => [st.status, st.pricing]));
  assert.deepEqual(byStatus.sent, { billable: true, pricing_model: 'PMP', type: 'regular', category: 'utility' });
  assert.deepEqual(byStatus.delivered, byStatus.sent);
  assert.equal(byStatus.read, undefined);
});

test('a MARKETING template through /marketing_messages is accepted like a send, with marketing_lite pricing and its TTL kept', async () => {
  const res = await s.net.sendMarketingMessage(creds, { ...payload('promo', '+15550103457'), message_send_ttl_seconds: 86_400 });
  assert.equal(res.messages[0].message_status, 'accepted');
  const wamid = res.messages[0].id;
  await eventually(() => statusesOf(wamid).length >= 2);
  const sent = statusesOf(wamid).find((st) => st.status === 'sent');
  assert.deepEqual(sent?.pricing, { billable: true, pricing_model: 'PMP', category: 'marketing_lite' });
  const log = (await httpJson('GET', `${s.rootUrl}/_sim/received?to=%2B15550103457`)).json as { messages: Array<Record<string, unknown>> };
  assert.equal(log.messages[0].endpoint, 'marketing_messages');
  assert.equal(log.messages[0].message_send_ttl_seconds, 86_400);
});

test('/marketing_messages refuses a UTILITY template with 134100 (400) and accepts nothing', async () => {
  const before = await accepted();
  const err = await networkErrorOf(s.net.sendMarketingMessage(creds, payload('receipt', '+15550103458')));
  assert.equal(err.httpStatus, 400);
  assert.equal(err.graph?.code, 134100);
  assert.equal(err.graph?.message, '(#134100) Only marketing messages supported');
  assert.equal(await accepted(), before);
});

test('a WABA that is not onboarded is refused with 134102 (HTTP 500, Graph shape) and nothing is accepted', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/limits`, { marketingMessagesOnboarded: false });
  const before = await accepted();
  const err = await networkErrorOf(s.net.sendMarketingMessage(creds, payload('promo', '+15550103459')));
  assert.equal(err.kind, 'graph');
  assert.equal(err.httpStatus, 500);
  assert.equal(err.graph?.code, 134102);
  assert.equal(err.graph?.message, '(#134102) Template unavailable for use');
  assert.match(err.graph?.error_data?.details ?? '', /onboarded/);
  assert.equal(await accepted(), before);
  // /messages still sends the same template.
  await s.net.sendMessage(creds, payload('promo', '+15550103459'));
  assert.equal(await accepted(), before + 1);
});

test('a TTL outside 43200–2592000 s is refused with 100', async () => {
  const err = await networkErrorOf(s.net.sendMarketingMessage(creds, { ...payload('promo', '+15550103460'), message_send_ttl_seconds: 60 }));
  assert.equal(err.graph?.code, 100);
});
