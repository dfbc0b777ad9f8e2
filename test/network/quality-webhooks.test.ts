import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { isValidWebhookSignature } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/index.js';
import { assertSameShape, credsOf, eventually, fixture, httpJson, startSim, WebhookReceiver, type SimSetup } from './helpers.js';

const SECRET = 'quality-secret';
const main = SIM_CHANNELS[0];
let s: SimSetup;
let receiver: WebhookReceiver;

before(async () => {
  receiver = new WebhookReceiver();
  s = await startSim({ webhookUrl: await receiver.start(), appSecret: SECRET });
});
after(async () => {
  await s.close();
  await receiver.close();
});
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  receiver.received.length = 0;
});

async function change(channelId: string, body: Record<string, unknown>) {
  const res = await httpJson('POST', `${s.rootUrl}/_sim/channels/${channelId}`, body);
  assert.equal(res.status, 200);
  return res.json as { events: string[] };
}

async function qualityValues(count: number) {
  await eventually(() => receiver.changes('phone_number_quality_update').length >= count);
  return receiver.changes('phone_number_quality_update').map((c) => c.value);
}

test('flagging a channel posts a signed FLAGGED webhook shaped like the fixture', async () => {
  await change(main.id, { status: 'FLAGGED' });
  await qualityValues(1);
  const hook = receiver.received[0];
  assert.ok(isValidWebhookSignature(hook.raw, hook.headers['x-hub-signature-256'] as string, SECRET));
  assert.ok(!isValidWebhookSignature(hook.raw, hook.headers['x-hub-signature-256'] as string, 'another-secret'));
  assertSameShape(hook.body, fixture('webhook_phone_number_quality_flagged_tier_10k__java-sdk'), [
    'entry.changes.value.max_daily_conversations_per_business',
  ]);
  assert.equal(hook.body.entry[0].id, SIM_WABA_ID);
  assert.deepEqual(hook.body.entry[0].changes[0].value, {
    display_phone_number: main.webhookDisplayNumber,
    event: 'FLAGGED',
    current_limit: 'TIER_UNLIMITED',
    max_daily_conversations_per_business: 'TIER_UNLIMITED',
  });
  assert.equal((await s.net.getPhoneNumber(credsOf(main.id))).status, 'FLAGGED');
});

test('leaving FLAGGED posts UNFLAGGED', async () => {
  await change(SIM_CHANNELS[1].id, { status: 'CONNECTED' });
  const [value] = await qualityValues(1);
  assert.equal(value.event, 'UNFLAGGED');
  assert.equal(value.display_phone_number, SIM_CHANNELS[1].webhookDisplayNumber);
});

test('a tier rise is UPGRADE and a fall DOWNGRADE, each with old_limit', async () => {
  await change(SIM_CHANNELS[3].id, { messaging_limit_tier: 'TIER_250' });
  await qualityValues(1);
  await change(SIM_CHANNELS[3].id, { messaging_limit_tier: 'TIER_50' });
  const values = await qualityValues(2);
  assert.deepEqual(values.map((v) => [v.event, v.old_limit, v.current_limit]), [
    ['UPGRADE', 'TIER_50', 'TIER_250'],
    ['DOWNGRADE', 'TIER_250', 'TIER_50'],
  ]);
});

test('a quality-only change is DOWNGRADE to RED and UPGRADE to GREEN with the limit unchanged', async () => {
  const answer = await change(main.id, { quality_rating: 'RED' });
  assert.deepEqual(answer.events, ['DOWNGRADE']);
  await qualityValues(1);
  await change(main.id, { quality_rating: 'GREEN' });
  const values = await qualityValues(2);
  assert.deepEqual(values.map((v) => [v.event, v.current_limit, 'old_limit' in v]), [
    ['DOWNGRADE', 'TIER_UNLIMITED', false],
    ['UPGRADE', 'TIER_UNLIMITED', false],
  ]);
  assert.equal((await s.net.getPhoneNumber(credsOf(main.id))).quality_rating, 'GREEN');
});

test('an admin change of an unknown channel is 404 and posts nothing', async () => {
  const res = await httpJson('POST', `${s.rootUrl}/_sim/channels/999`, { status: 'FLAGGED' });
  assert.equal(res.status, 404);
  assert.equal(res.json.error.code, 100);
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(receiver.received.length, 0);
});
