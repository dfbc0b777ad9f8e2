import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { postStatuses as postStatusesOf } from '../support/status-webhooks.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

// One status item that cannot be applied is set apart with its reason; the valid items beside it are applied.

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  templateId = await approvedTemplate(h, channel);
  // The simulator's own status webhooks go nowhere: this file posts the statuses itself.
  h.simulator.setWebhookTarget('http://127.0.0.1:9/nowhere', TEST_APP_SECRET);
});
after(() => h.close());

/** A message handed to the network (its wamid known), with no status event yet. */
async function handedOff(phone: string) {
  const res = await singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: templateId, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.message_id as string;
  const record = await untilStatus(h, id, ['SENT_TO_BACKEND']);
  return { ...record, id, ext_id: record.ext_id as string, phone_number: record.phone_number as string };
}

/** Posts these status items for the channel, signed, and applies them. */
const postStatuses = (statuses: unknown[]) => postStatusesOf(h, channel, statuses);

async function rejected() {
  return h.store.db.selectFrom('webhook_rejected_items').selectAll().orderBy('id').execute();
}

const now = () => String(Math.floor(Date.now() / 1000));

for (const [name, bad, reason] of [
  ['a timestamp of 20 digits', { id: 'wamid.bad1', status: 'delivered', timestamp: '99999999999999999999', recipient_id: '1' }, /timestamp/],
  ['a timestamp of 1e308', { id: 'wamid.bad2', status: 'delivered', timestamp: 1e308, recipient_id: '1' }, /timestamp/],
  ['a null item', null, /must be an object, got null/],
  ['a NUL in the id', { id: 'wamid.\u0000bad', status: 'delivered', timestamp: '1700000000', recipient_id: '1' }, /NUL/],
] as const) {
  test(`a status with ${name} is set apart with its reason and the read beside it is applied`, async () => {
    const message = await handedOff(`90555440${String(Math.floor(Math.random() * 9000) + 1000)}`);
    const before = (await rejected()).length;
    await postStatuses([bad, { id: message.ext_id, status: 'read', timestamp: now(), recipient_id: message.phone_number.replace('+', '') }]);
    const [after] = await lookup(h, [message.id]);
    assert.equal(after.status, 'BACKEND_SEEN');
    const kept = (await rejected()).slice(before);
    assert.equal(kept.length, 1);
    assert.equal(kept[0].field, 'statuses');
    assert.equal(kept[0].phone_number_id, channel);
    assert.match(kept[0].reason, reason);
    assert.equal(JSON.parse(kept[0].item)?.id ?? null, (bad as { id?: string } | null)?.id ?? null);
    const failed = await h.store.db.selectFrom('webhook_events').select('id').where('state', '<>', 'APPLIED').execute();
    assert.deepEqual(failed, []);
  });
}

test('/health counts the status items set apart', async () => {
  const res = await h.call('GET', '/health', { token: null });
  assert.equal(res.status, 200);
  assert.equal(res.body.webhook_items_rejected, (await rejected()).length);
});
