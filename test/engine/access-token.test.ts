import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { updateChannel } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { signWebhookBody } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNEL_IDS, SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, simAdmin, startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';

// One story in order: a channel's token expires in the middle of a bulk send, then it is rotated.
let h: Harness;
let template: string;
let wizard: string;
const main = SIM_CHANNEL_IDS.main;
const ROWS = 60;
const numbers = phones(ROWS, '9055588');

async function messageCount(): Promise<number> {
  const row = await h.store.db.selectFrom('messages').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function refusedCalls(token: string): Promise<number> {
  return (await simAdmin(h, '/_sim/tokens')).refused[token] ?? 0;
}

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  template = await approvedTemplate(h, main);
  await simAdmin(h, '/_sim/tokens', { add: 'token-one' });
  // 10 mps, so the bulk send is still running when the token expires.
  await updateChannel(h.store.db, { companyId: h.a.companyId, phoneNumberId: main, accessToken: 'token-one', throughputMps: 10 }, createSecretBox(h.config.secretKey));
});
after(() => h.close());

test('a token that expires during a bulk send pauses it with the reason, and no row fails', async () => {
  wizard = await startV1(h, { message_template_id: template, channel_id: main, total_time: 0, rows: v1Rows(numbers) });
  await eventually(async () => (await simAdmin(h, '/_sim/stats')).sends_accepted >= 10, 15_000);
  await simAdmin(h, '/_sim/tokens', { expire: 'token-one' });
  const item = await untilWizard(h, main, wizard, ['PAUSED'], 15_000);
  assert.match(item.paused_reason, /^ACCESS_TOKEN_INVALID: Error validating access token: Session has expired/);
  assert.match(item.paused_reason, /code 190, subcode 463/);
  await new Promise((r) => setTimeout(r, 500));
  const settled = await untilWizard(h, main, wizard, ['PAUSED']);
  assert.equal(settled.failed_count, 0);
  const rows = await reportRows(h, wizard);
  assert.equal(rows.filter((r: { status: string }) => r.status === 'SENT_TO_BACKEND_FAILED').length, 0);
  assert.ok(rows.some((r: { status: string }) => r.status === 'QUEUED'));
});

test('the channel with the refused token is not called again in a loop', async () => {
  const first = await refusedCalls('token-one');
  assert.ok(first >= 1);
  await new Promise((r) => setTimeout(r, 3000));
  assert.equal(await refusedCalls('token-one'), first);
  const item = await untilWizard(h, main, wizard, ['PAUSED']);
  assert.equal(item.failed_count, 0);
});

test('a single send on the channel answers 503 CHANNEL_AUTH_FAILED and stores nothing', async () => {
  const before = await messageCount();
  const res = await singleSend(h, { channel_id: main, phone_number: '905551118013', message_template_id: template, message_template: sendParams() });
  assert.equal(res.status, 503);
  assert.equal(res.body.errors[0].code, 'CHANNEL_AUTH_FAILED');
  assert.match(res.body.message, /Session has expired/);
  assert.ok(Number(res.headers['retry-after']) >= 1);
  assert.equal(await messageCount(), before);
});

test('the channel list shows why the channel is held', async () => {
  const res = await h.call('GET', '/api/v1/channels');
  const item = res.body.items.find((c: { id: string }) => c.id === main);
  assert.match(item.auth_error, /^ACCESS_TOKEN_INVALID/);
});

test('a quality webhook on the held channel is applied without calling the network', async () => {
  const failuresOf = async () => (await h.store.db.selectFrom('channels').select('auth_failures').where('id', '=', main).executeTakeFirstOrThrow()).auth_failures;
  const refusedBefore = await refusedCalls('token-one');
  const failuresBefore = await failuresOf();
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: SIM_WABA_ID, time: 1, changes: [{ field: 'phone_number_quality_update', value: { display_phone_number: SIM_CHANNELS[0].webhookDisplayNumber, event: 'UPGRADE', current_limit: 'TIER_100K' } }] }],
  });
  const res = await h.app.http.inject({
    method: 'POST', url: '/webhooks/whatsapp', payload: body,
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(body, TEST_APP_SECRET) },
  });
  assert.equal(res.statusCode, 200);
  await eventually(async () => (await h.store.db.selectFrom('channels').select('messaging_limit_tier').where('id', '=', main).executeTakeFirstOrThrow()).messaging_limit_tier === 'TIER_100K');
  // A read after commit would have been refused by now (the webhook and its after-commit work take milliseconds).
  await new Promise((r) => setTimeout(r, 1000));
  assert.equal(await refusedCalls('token-one'), refusedBefore);
  assert.equal(await failuresOf(), failuresBefore);
});

test('rotating the token resumes the bulk send to COMPLETED with every row delivered once', async () => {
  await simAdmin(h, '/_sim/tokens', { add: 'token-two' });
  await updateChannel(h.store.db, { companyId: h.a.companyId, phoneNumberId: main, accessToken: 'token-two', throughputMps: 'auto' }, createSecretBox(h.config.secretKey));
  const item = await untilWizard(h, main, wizard, ['COMPLETED'], 30_000);
  assert.equal(item.failed_count, 0);
  assert.equal(item.paused_reason, null);
  const rows = await reportRows(h, wizard);
  assert.equal(rows.length, ROWS);
  for (const row of rows) assert.ok(['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'].includes(row.status), row.status);
  const stats = await simAdmin(h, '/_sim/stats');
  assert.equal(stats.sends_accepted, ROWS);
  assert.equal(stats.duplicate_sends, 0);
});
