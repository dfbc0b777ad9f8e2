import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { postSignedWebhook } from '../support/status-webhooks.js';
import { SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { uniqueName, validComponents } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNELS[0].id;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 200 } }, { templateStatusMaxAgeMs: 100 });
});
after(() => h.close());

async function create(name: string) {
  const res = await h.call('POST', '/agent-app/message-template/template', {
    body: { name, category: 'MARKETING', language: 'en', components: validComponents(), channel_id: channel },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.id as string;
}

async function storedStatus(id: string) {
  return h.store.db.selectFrom('templates').select(['status', 'rejected_reason']).where('id', '=', id).executeTakeFirstOrThrow();
}

test('a template is APPROVED by the network’s signed status webhook', async () => {
  const id = await create(uniqueName());
  await eventually(async () => (await storedStatus(id)).status === 'APPROVED');
  const events = await h.store.db.selectFrom('webhook_events').select('body').execute();
  assert.ok(events.some((e) => e.body.includes(id) && e.body.includes('APPROVED')));
});

test('a name containing reject is REJECTED with the reason', async () => {
  const id = await create(uniqueName('promo_reject'));
  const row = await eventually(async () => {
    const s = await storedStatus(id);
    return s.status === 'REJECTED' ? s : undefined;
  });
  assert.equal(row.rejected_reason, 'INVALID_FORMAT');
});

test('a forged template status webhook is refused and changes nothing', async () => {
  await simAdmin(h, '/_sim/webhook-target', { url: null });
  try {
    const id = await create(uniqueName('forged_target'));
    const body = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [{ id: SIM_WABA_ID, time: 1, changes: [{ field: 'message_template_status_update', value: { event: 'DISABLED', message_template_id: Number(id), message_template_name: 'x', message_template_language: 'en', reason: 'NONE' } }] }],
    });
    assert.equal(await postSignedWebhook(h, body, 'not-the-secret'), 401);
    assert.equal((await storedStatus(id)).status, 'PENDING');
  } finally {
    await simAdmin(h, '/_sim/webhook-target', { url: `${h.appUrl}/webhooks/whatsapp` });
  }
});

test('list refreshes a stale PENDING status from the network when its webhook never came', async () => {
  await simAdmin(h, '/_sim/webhook-target', { url: null });
  try {
    const id = await create(uniqueName('no_webhook'));
    await new Promise((r) => setTimeout(r, 400));
    // No webhook came (the target is off); the WABA sync may already have read the status, so only the outcome counts.
    const webhooks = await h.store.db.selectFrom('webhook_events').select('body').execute();
    assert.ok(!webhooks.some((e) => e.body.includes(id)));
    const list = await h.call('GET', `/api/v1/message-templates?channel_id=${channel}`);
    assert.equal(list.body.items.find((t: { id: string }) => t.id === id).status, 'APPROVED');
    assert.equal((await storedStatus(id)).status, 'APPROVED');
  } finally {
    await simAdmin(h, '/_sim/webhook-target', { url: `${h.appUrl}/webhooks/whatsapp` });
  }
});

test('a template quality webhook sets the quality score', async () => {
  const id = await create(uniqueName());
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: SIM_WABA_ID, time: 1, changes: [{ field: 'message_template_quality_update', value: { previous_quality_score: 'GREEN', new_quality_score: 'YELLOW', message_template_id: Number(id), message_template_name: 'x', message_template_language: 'en' } }] }],
  });
  assert.equal(await postSignedWebhook(h, body, h.config.appSecret), 200);
  await eventually(async () => {
    const got = await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${channel}`);
    return got.body.data.message_template.quality_score === 'YELLOW';
  });
});
