import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_ACCESS_TOKEN, SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, startHarness, type Harness } from '../support/harness.js';

let h: Harness;
const world = SIM_CHANNELS;

before(async () => {
  h = await startHarness();
});
after(() => h.close());

function withoutTrace(body: Record<string, unknown>) {
  const { trace_id: _trace, ...rest } = body;
  return rest;
}

test('the first channel list reads each channel’s status from the network', async () => {
  const res = await h.call('GET', '/api/v1/channels');
  assert.equal(res.status, 200);
  for (const channel of world) {
    const item = res.body.items.find((c: { id: string }) => c.id === channel.id);
    assert.deepEqual([item.status, item.quality_rating, item.messaging_limit_tier], [channel.status, channel.qualityRating, channel.messagingLimitTier]);
    assert.ok(item.refreshed_at);
  }
});

for (const channel of world) {
  test(`family A waba-status reports ${channel.status}/${channel.qualityRating}/${channel.messagingLimitTier} from the network`, async () => {
    const res = await h.call('GET', `/agent-app/message-template/template/waba-status?channel_id=${channel.id}`);
    assert.equal(res.status, 200);
    assert.deepEqual(res.body.data, {
      status: channel.status,
      id: channel.id,
      quality_score: channel.qualityRating,
      verified_name: channel.verifiedName,
      display_phone_number: channel.displayPhoneNumber,
      messaging_limit_tier: channel.messagingLimitTier,
    });
  });
}

test('family B waba-status names the quality quality_rating', async () => {
  const channel = world[2];
  const res = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${channel.id}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.data.quality_rating, channel.qualityRating);
  assert.equal(res.body.data.quality_score, undefined);
});

test('the channel list holds exactly the caller’s channels with their status fields', async () => {
  const res = await h.call('GET', '/api/v1/channels');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.items.map((c: { id: string }) => c.id).sort(), world.map((c) => c.id).sort());
  for (const item of res.body.items) {
    for (const field of ['status', 'quality_rating', 'messaging_limit_tier', 'verified_name', 'display_phone_number', 'whatsapp_account_id']) {
      assert.ok(field in item, field);
    }
  }
});

test('another company sees only its own channel', async () => {
  const res = await h.call('GET', '/api/v1/channels', { token: h.b.token });
  assert.deepEqual(res.body.items.map((c: { id: string }) => c.id), [OTHER_CHANNEL_ID]);
});

for (const [family, path] of [
  ['A', '/agent-app/message-template/template/waba-status'],
  ['B', '/api/v1/message-templates/waba-status'],
] as const) {
  test(`family ${family}: another company's channel answers exactly like a missing one`, async () => {
    const foreign = await h.call('GET', `${path}?channel_id=${OTHER_CHANNEL_ID}`);
    const missing = await h.call('GET', `${path}?channel_id=123456789`);
    assert.equal(foreign.status, 404);
    assert.equal(foreign.body.errors[0].code, 'CHANNEL_NOT_FOUND');
    assert.equal(foreign.body.errors[0].field, 'channel_id');
    assert.deepEqual(
      withoutTrace(foreign.body),
      JSON.parse(JSON.stringify(withoutTrace(missing.body)).replaceAll('123456789', OTHER_CHANNEL_ID)),
    );
  });
}

test('the network access token is never returned', async () => {
  const list = await h.call('GET', '/api/v1/channels');
  const status = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${world[0].id}`);
  assert.ok(!JSON.stringify(list.body).includes(SIM_ACCESS_TOKEN));
  assert.ok(!JSON.stringify(status.body).includes(SIM_ACCESS_TOKEN));
});

test('a channel whose token the network refuses is 503 CHANNEL_AUTH_FAILED with the network’s message kept', async () => {
  const res = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${OTHER_CHANNEL_ID}`, { token: h.b.token });
  assert.equal(res.status, 503);
  assert.equal(res.body.errors[0].code, 'CHANNEL_AUTH_FAILED');
  assert.match(res.body.message, /OAuth|token/i);
});
