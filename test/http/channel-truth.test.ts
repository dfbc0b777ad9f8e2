import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { updateChannel } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
const { main, flagged, red, small } = SIM_CHANNEL_IDS;

before(async () => {
  // Every read goes to the network, so each test sees what the simulated number answers now.
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } }, { channelMaxAgeMs: 0 });
});
after(() => h.close());

function simChannel(id: string) {
  const ch = h.simulator.world.channels.get(id);
  assert.ok(ch);
  return ch as unknown as { messagingLimit: string | null; legacyMessagingLimitTier: string | null; status: string; accountMode: string };
}

async function statusOf(channelId: string) {
  const res = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${channelId}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data;
}

async function channelItem(channelId: string) {
  const res = await h.call('GET', '/api/v1/channels');
  assert.equal(res.status, 200);
  return res.body.items.find((c: { id: string }) => c.id === channelId);
}

test('the tier comes from whatsapp_business_manager_messaging_limit', async () => {
  const ch = simChannel(main);
  ch.messagingLimit = 'TIER_10K';
  ch.legacyMessagingLimitTier = null;
  try {
    assert.equal((await statusOf(main)).messaging_limit_tier, 'TIER_10K');
  } finally {
    ch.messagingLimit = 'TIER_UNLIMITED';
  }
});

test('a number that reports only the deprecated messaging_limit_tier gets that tier', async () => {
  const ch = simChannel(small);
  assert.equal(ch.messagingLimit, null);
  assert.equal((await statusOf(small)).messaging_limit_tier, 'TIER_50');
});

test('the new field wins over the deprecated one when a number reports both', async () => {
  const ch = simChannel(small);
  ch.messagingLimit = 'TIER_2K';
  try {
    assert.equal((await statusOf(small)).messaging_limit_tier, 'TIER_2K');
  } finally {
    ch.messagingLimit = null;
  }
});

test('a number that reports no tier at all is UNKNOWN in both families, never null', async () => {
  const ch = simChannel(main);
  ch.messagingLimit = null;
  ch.legacyMessagingLimitTier = null;
  try {
    assert.equal((await statusOf(main)).messaging_limit_tier, 'UNKNOWN');
    const a = await h.call('GET', `/agent-app/message-template/template/waba-status?channel_id=${main}`);
    assert.equal(a.body.data.messaging_limit_tier, 'UNKNOWN');
  } finally {
    ch.messagingLimit = 'TIER_UNLIMITED';
  }
});

test('throughput follows the number’s throughput.level: STANDARD is 80 mps', async () => {
  const item = await channelItem(main);
  assert.equal(item.throughput_level, 'STANDARD');
  assert.equal(item.throughput_mps, 80);
  assert.equal(item.throughput_override_mps, null);
});

test('throughput follows the number’s throughput.level: HIGH is 1000 mps', async () => {
  await simAdmin(h, `/_sim/channels/${red}`, { mps: 1000 });
  const item = await channelItem(red);
  assert.equal(item.throughput_level, 'HIGH');
  assert.equal(item.throughput_mps, 1000);
});

test('an operator throughput wins over the network’s level until set back to auto', async () => {
  const secrets = createSecretBox(h.config.secretKey);
  await updateChannel(h.store.db, { companyId: h.a.companyId, phoneNumberId: main, throughputMps: 25 }, secrets);
  let item = await channelItem(main);
  assert.deepEqual([item.throughput_mps, item.throughput_override_mps, item.throughput_level], [25, 25, 'STANDARD']);
  await updateChannel(h.store.db, { companyId: h.a.companyId, phoneNumberId: main, throughputMps: 'auto' }, secrets);
  item = await channelItem(main);
  assert.deepEqual([item.throughput_mps, item.throughput_override_mps], [80, null]);
});

test('a SANDBOX number reporting DISCONNECTED sends, as Meta lets it (recorded test number)', async () => {
  const ch = simChannel(main);
  const template = await approvedTemplate(h, main);
  await simAdmin(h, `/_sim/channels/${main}`, { status: 'DISCONNECTED' });
  ch.accountMode = 'SANDBOX';
  try {
    assert.equal((await statusOf(main)).status, 'DISCONNECTED');
    const res = await singleSend(h, { channel_id: main, phone_number: '905551119013', message_template_id: template, message_template: sendParams() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await untilStatus(h, res.body.data.message_id, ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN']);
    const received = await simAdmin(h, '/_sim/received?to=%2B905551119013');
    assert.equal(received.messages.length, 1);
  } finally {
    ch.accountMode = 'LIVE';
    await simAdmin(h, `/_sim/channels/${main}`, { status: 'CONNECTED' });
  }
});

for (const [name, channelId] of [['FLAGGED', flagged], ['quality RED', red]] as const) {
  test(`a ${name} channel is still blocked: 422 CHANNEL_BLOCKED`, async () => {
    const template = await approvedTemplate(h, channelId);
    const res = await singleSend(h, { channel_id: channelId, phone_number: '905551119023', message_template_id: template, message_template: sendParams() });
    assert.equal(res.status, 422);
    assert.equal(res.body.errors[0].code, 'CHANNEL_BLOCKED');
  });
}
