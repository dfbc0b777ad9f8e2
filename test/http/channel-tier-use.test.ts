import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;

before(async () => {
  h = await startHarness();
});
after(() => h.close());

async function channel(id: string) {
  const res = await h.call('GET', '/api/v1/channels');
  assert.equal(res.status, 200);
  return res.body.items.find((c: { id: string }) => c.id === id);
}

test('a channel nobody was sent to has its whole tier left and no window expiry', async () => {
  const small = await channel(SIM_CHANNEL_IDS.small);
  assert.deepEqual([small.tier_limit, small.tier_used_24h, small.tier_left_24h, small.tier_window_frees_at], [50, 0, 50, null]);
  const main = await channel(SIM_CHANNEL_IDS.main);
  assert.deepEqual([main.tier_limit, main.tier_left_24h], [null, null]);
});

test('the channel list says why a FLAGGED or RED channel is blocked, and nothing for a healthy one', async () => {
  assert.equal((await channel(SIM_CHANNEL_IDS.flagged)).blocked_reason, 'channel status is FLAGGED');
  assert.equal((await channel(SIM_CHANNEL_IDS.red)).blocked_reason, 'channel quality rating is RED');
  assert.equal((await channel(SIM_CHANNEL_IDS.main)).blocked_reason, null);
});

test('a send to two numbers uses two slots of the rolling 24 h window', async () => {
  const template = await approvedTemplate(h, SIM_CHANNEL_IDS.small);
  for (const phone of ['905550000101', '905550000102']) {
    const res = await singleSend(h, { channel_id: SIM_CHANNEL_IDS.small, phone_number: phone, message_template_id: template, message_template: sendParams() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await untilStatus(h, res.body.data.message_id, ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN', 'SENT_TO_BACKEND']);
  }
  const small = await channel(SIM_CHANNEL_IDS.small);
  assert.deepEqual([small.tier_used_24h, small.tier_left_24h], [2, 48]);
  const freesAt = Date.parse(small.tier_window_frees_at);
  assert.ok(freesAt > Date.now() + 23 * 3600_000 && freesAt <= Date.now() + 24 * 3600_000, small.tier_window_frees_at);
});

test('a channel with no cap counts its recipients too: the use equals what the dry run announced', async () => {
  const template = await approvedTemplate(h, SIM_CHANNEL_IDS.main);
  const before = (await channel(SIM_CHANNEL_IDS.main)).tier_used_24h;
  const numbers = phones(52, '9055571');
  const body = { message_template_id: template, channel_id: SIM_CHANNEL_IDS.main, total_time: 0, rows: v1Rows(numbers) };
  const dry = await h.call('POST', '/agent-app/message-template/send-wizard/start', { body: { ...body, dry_run: true } });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.data.tier_needed_24h, 52);
  const id = await startV1(h, body);
  await untilWizard(h, SIM_CHANNEL_IDS.main, id, ['COMPLETED'], 60_000);
  // A status webhook can settle a row before the sender's outcome flush records its recipient: wait for the flush.
  const main = await eventually(async () => {
    const c = await channel(SIM_CHANNEL_IDS.main);
    return c.tier_used_24h - before >= 52 ? c : undefined;
  }, 30_000).catch(() => channel(SIM_CHANNEL_IDS.main));
  assert.deepEqual([main.tier_limit, main.tier_used_24h - before, main.tier_left_24h], [null, 52, null]);
  // Sent again within the window: the same customers cost nothing more, as the dry run now says.
  const again = await h.call('POST', '/agent-app/message-template/send-wizard/start', { body: { ...body, dry_run: true } });
  assert.equal(again.body.data.tier_needed_24h, 0);
});
