import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import type { TemplateSendPayload } from '../../src/network/port.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/index.js';
import { credsOf, eventually, httpJson, networkErrorOf, pause, startSim, WebhookReceiver, type SimSetup } from './helpers.js';

const creds = credsOf();
let s: SimSetup;
let receiver: WebhookReceiver;

before(async () => {
  receiver = new WebhookReceiver();
  s = await startSim({ webhookUrl: await receiver.start(), appSecret: 'faults', webhookRetryWindowMs: 600, seed: 3 });
});
after(async () => {
  await s.close();
  await receiver.close();
});
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  receiver.received.length = 0;
  receiver.attempts = 0;
  receiver.answer = () => 200;
});

const flag = () => httpJson('POST', `${s.rootUrl}/_sim/channels/${SIM_CHANNEL_IDS.main}`, { status: 'FLAGGED' });

async function greeting(): Promise<void> {
  const { id } = await s.net.createTemplate(creds, {
    name: 'greeting', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Your parcel is on its way.' }],
  });
  await eventually(async () => (await s.net.getTemplate(creds, id)).status === 'APPROVED');
  receiver.received.length = 0;
}

function send(to: string) {
  const payload: TemplateSendPayload = {
    messaging_product: 'whatsapp', to, type: 'template', template: { name: 'greeting', language: { code: 'en_US' } },
  };
  return s.net.sendMessage(creds, payload);
}

test('a webhook answered 500 is retried until it is accepted', async () => {
  receiver.answer = (n) => (n === 1 ? 500 : 200);
  await flag();
  await eventually(() => receiver.received.length === 1);
  assert.equal(receiver.attempts, 2);
  const stats = (await httpJson('GET', `${s.rootUrl}/_sim/stats`)).json;
  assert.equal(stats.webhooks_posted, 1);
  assert.equal(stats.webhook_attempts_failed, 1);
});

test('a webhook is given up after the retry window and counted as failed', async () => {
  receiver.answer = () => 503;
  await flag();
  const stats = await eventually(async () => {
    const json = (await httpJson('GET', `${s.rootUrl}/_sim/stats`)).json;
    return json.webhooks_failed === 1 && json;
  });
  assert.equal(stats.webhooks_posted, 0);
  assert.equal(stats.webhooks_pending, 0);
  assert.ok(receiver.attempts >= 2);
});

test('duplicateRate 1 delivers every event twice', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { duplicateRate: 1 });
  await flag();
  await eventually(() => receiver.received.length === 2);
  assert.deepEqual(receiver.received[0].body.entry[0].changes, receiver.received[1].body.entry[0].changes);
});

test('webhookDelayMs holds webhooks back', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { webhookDelayMs: 300 });
  await flag();
  await pause(150);
  assert.equal(receiver.received.length, 0);
  await eventually(() => receiver.received.length === 1);
});

test('the reorder window shuffles statuses against acceptance order', async () => {
  await greeting();
  await httpJson('POST', `${s.rootUrl}/_sim/limits`, { deliveredDelayMs: 5000, readDelayMs: 5000 });
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { reorderWindowMs: 300 });
  const wamids: string[] = [];
  for (let i = 0; i < 20; i++) wamids.push((await send(`+1555040${String(i + 10).padStart(4, '0')}`)).messages[0].id);
  await eventually(() => receiver.statuses().length >= 20);
  const arrival = receiver.statuses().map((st) => st.id);
  assert.deepEqual([...arrival].sort(), [...wamids].sort());
  assert.notDeepEqual(arrival, wamids);
});

test('reset restores the starting world and clears the counters', async () => {
  await greeting();
  await send('+15550401234');
  await flag();
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  assert.equal((await s.net.getPhoneNumber(creds)).status, 'CONNECTED');
  assert.equal((await s.net.listTemplates(creds)).data.length, 0);
  const stats = (await httpJson('GET', `${s.rootUrl}/_sim/stats`)).json;
  assert.equal(stats.sends_accepted, 0);
  assert.equal(stats.scheduled_events, 0);
  assert.equal((await httpJson('GET', `${s.rootUrl}/_sim/received?to=15550401234`)).json.messages.length, 0);
  assert.equal((await networkErrorOf(send('+15550401235'))).code, 132001);
});

test('stop() with webhooks still scheduled ends cleanly and posts nothing more', async () => {
  const other = await startSim({ webhookUrl: receiver.url, appSecret: 'x', timings: { templateApprovalDelayMs: 200 } });
  await other.net.createTemplate(creds, { name: 'late', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Later.' }] });
  await other.close();
  await pause(300);
  assert.equal(receiver.received.length, 0);
});
