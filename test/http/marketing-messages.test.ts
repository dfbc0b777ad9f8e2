/**
 * The channel's Marketing Messages setting end to end against the simulator: MARKETING templates go through
 * `/marketing_messages` (with the bulk send's TTL, billed as marketing_lite), other categories through `/messages`; when
 * the network refuses the account (134102, not onboarded) every refused row still reaches its phone exactly once, by
 * `/messages`, and the setting is switched off with its reason. Also the setting's API and the TTL's checks.
 */
import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, OTHER_CHANNEL_ID, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { listItem, phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';
import { uniqueName } from '../support/templates.js';

let h: Harness;
let marketingTemplate: string;
let utilityTemplate: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { templateStatusMaxAgeMs: 0 });
  marketingTemplate = await approvedTemplate(h, channel);
  // A UTILITY template made in the WABA (the service creates MARKETING ones only), synced by a list.
  const { id } = await simAdmin(h, '/_sim/waba-templates', {
    name: uniqueName('receipt'), language: 'en_US', category: 'UTILITY',
    components: [{ type: 'BODY', text: 'Hi {{1}}, your receipt {{2}} is ready.', example: { body_text: [['Ana', 'R1']] } }],
  });
  await h.call('GET', `/api/v1/message-templates?channel_id=${channel}`);
  utilityTemplate = id;
});
after(() => h.close());
beforeEach(async () => {
  await simAdmin(h, '/_sim/limits', { marketingMessagesOnboarded: true });
});

const setting = (enabled: boolean, channelId = channel, token = h.a.token) =>
  h.call('PUT', `/api/v1/channels/${channelId}/marketing-messages`, { token, body: { enabled } });

async function received(numbers: string[]) {
  const out: Array<Record<string, unknown>> = [];
  for (const n of numbers) out.push(...(await simAdmin(h, `/_sim/received?to=%2B${n}`)).messages);
  return out;
}

async function channelItem() {
  const res = await h.call('GET', '/api/v1/channels');
  return res.body.items.find((c: { id: string }) => c.id === channel);
}

test('the setting is off by default, set by PUT, shown in the channel list; another company’s channel is 404', async () => {
  assert.deepEqual((await channelItem()).marketing_messages, { enabled: false, disabled_reason: null, disabled_at: null });
  const on = await setting(true);
  assert.equal(on.status, 200, JSON.stringify(on.body));
  assert.deepEqual(on.body.data, { channel_id: channel, marketing_messages: { enabled: true, disabled_reason: null, disabled_at: null } });
  assert.equal((await channelItem()).marketing_messages.enabled, true);
  assert.equal((await setting(true, OTHER_CHANNEL_ID)).status, 404);
  const bad = await h.call('PUT', `/api/v1/channels/${channel}/marketing-messages`, { body: { enabled: 'yes' } });
  assert.equal(bad.status, 400);
  await setting(false);
});

test('on: a MARKETING bulk send goes through /marketing_messages with its TTL and is billed as marketing_lite', async () => {
  await setting(true);
  try {
    const numbers = phones(3, '5491156');
    const dry = await h.call('POST', '/agent-app/message-template/send-wizard/start', {
      body: { message_template_id: marketingTemplate, channel_id: channel, total_time: 0, rows: v1Rows(numbers), dry_run: true },
    });
    assert.deepEqual(dry.body.data.estimate.by_market.map((l: { category: string }) => l.category), ['marketing_lite']);
    const id = await startV1(h, { message_template_id: marketingTemplate, channel_id: channel, total_time: 0, rows: v1Rows(numbers), message_send_ttl_seconds: 86_400 });
    const item = await eventually(async () => {
      const it = await listItem(h, channel, id);
      return it?.cost.billable_count === 3 ? it : undefined;
    }, 30_000);
    assert.deepEqual(item.cost.by_market.map((l: { category: string }) => l.category), ['marketing_lite']);
    const got = await received(numbers);
    assert.equal(got.length, 3);
    for (const m of got) {
      assert.equal(m.endpoint, 'marketing_messages');
      assert.equal(m.message_send_ttl_seconds, 86_400);
    }
  } finally {
    await setting(false);
  }
});

test('on: a UTILITY template still goes through /messages', async () => {
  await setting(true);
  try {
    const numbers = phones(2, '5491157');
    const rows = numbers.map((n, i) => ({ id: i + 1, phone_number: n, params: ['Ana', `R${i}`] }));
    const id = await startV1(h, { message_template_id: utilityTemplate, channel_id: channel, total_time: 0, rows });
    await untilWizard(h, channel, id, ['COMPLETED'], 30_000);
    for (const m of await received(numbers)) assert.equal(m.endpoint, 'messages');
  } finally {
    await setting(false);
  }
});

test('refused account (134102): every row reaches its phone once by /messages, none lost, and the setting goes off with its reason', async () => {
  await setting(true);
  await simAdmin(h, '/_sim/limits', { marketingMessagesOnboarded: false });
  const before = await simAdmin(h, '/_sim/stats');
  const numbers = phones(20, '5491158');
  const id = await startV1(h, { message_template_id: marketingTemplate, channel_id: channel, total_time: 0, rows: v1Rows(numbers) });
  const item = await untilWizard(h, channel, id, ['COMPLETED'], 60_000);
  assert.equal(item.failed_count, 0);
  assert.equal(item.delivered_count, 20);
  const got = await received(numbers);
  assert.equal(got.length, 20, 'one message per phone');
  assert.deepEqual(new Set(got.map((m) => m.endpoint)), new Set(['messages']));
  const after = await simAdmin(h, '/_sim/stats');
  assert.equal(after.duplicate_sends, before.duplicate_sends, 'nothing sent twice');
  assert.ok(after.refused_other > before.refused_other, 'the marketing endpoint refused at least one row');
  const rows = await sql<{ n: number }>`select count(distinct ext_id)::int as n from messages where send_wizard_id = ${id}`.execute(h.store.db);
  assert.equal(rows.rows[0].n, 20);
  const mm = (await channelItem()).marketing_messages;
  assert.equal(mm.enabled, false);
  assert.match(mm.disabled_reason, /134102/);
  assert.ok(mm.disabled_at);
  // Switching it on again clears the reason.
  assert.deepEqual((await setting(true)).body.data.marketing_messages, { enabled: true, disabled_reason: null, disabled_at: null });
  await setting(false);
});

test('message_send_ttl_seconds outside 43200–2592000 or on a non-MARKETING template is 400 naming it, nothing stored', async () => {
  const count = async () => (await sql<{ n: number }>`select count(*)::int as n from send_wizards`.execute(h.store.db)).rows[0].n;
  const before = await count();
  const low = await h.call('POST', '/agent-app/message-template/send-wizard/start', {
    body: { message_template_id: marketingTemplate, channel_id: channel, total_time: 0, rows: v1Rows(phones(1, '5491159')), message_send_ttl_seconds: 60 },
  });
  assert.equal(low.status, 400);
  assert.equal(low.body.errors[0].field, 'message_send_ttl_seconds');
  const utility = await h.call('POST', '/agent-app/message-template/send-wizard/start', {
    body: { message_template_id: utilityTemplate, channel_id: channel, total_time: 0, rows: [{ phone_number: '5491159000013', params: ['a', 'b'] }], message_send_ttl_seconds: 86_400 },
  });
  assert.equal(utility.status, 400);
  assert.equal(utility.body.errors[0].field, 'message_send_ttl_seconds');
  assert.equal(await count(), before);
});
