/**
 * Opt-outs end to end: a customer's STOP reply, posted by the simulator as Meta's signed inbound
 * `messages` webhook over real HTTP, puts the number on the company's list; a bulk send including it then ends that
 * row OPT_IN_FAILED (RECIPIENT_OPTED_OUT) without any request for it at the network and without a tier slot.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { insertWebhookEvent } from '../../src/store/webhook-events.js';
import { bodyPhoneNumberId } from '../../src/domain/webhook-channels.js';
import { countersFromRows, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

const { main, small } = SIM_CHANNEL_IDS;
const FAST = { timings: { templateApprovalDelayMs: 50, sentDelayMs: 10, deliveredDelayMs: 20, readDelayMs: 30, failedDelayMs: 10 }, limits: { pairRateBurst: null } };

let h: Harness;
let template: string;
before(async () => {
  h = await startHarness(FAST);
  template = await approvedTemplate(h, small);
});
after(() => h.close());

/** The company's entry for a number (searched through the API), or undefined. */
async function entry(phone: string, token = h.a.token) {
  const res = await h.call('GET', `/api/v1/opt-outs?phone_number=${phone}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items.find((i: { phone_number: string }) => i.phone_number === `+${phone}`);
}

/** Posts a customer message through the simulator and waits until the service stored and applied it. */
async function reply(from: string, text: string, extra: Record<string, unknown> = {}) {
  const posted = (await simAdmin(h, '/_sim/stats')).webhooks_posted as number;
  await simAdmin(h, '/_sim/inbound', { from, text, ...extra });
  await eventually(async () => (await simAdmin(h, '/_sim/stats')).webhooks_posted > posted);
  await eventually(async () => {
    const health = await h.call('GET', '/health', { token: null });
    return !health.body.webhook_events.RECEIVED;
  });
}

const messageRequests = async () => ((await simAdmin(h, '/_sim/requests')).items as Array<{ method: string; path: string }>).filter((i) => i.method === 'POST' && i.path.endsWith('/messages')).length;

test('an inbound STOP reply adds the sender to the channel company’s list (source inbound_keyword, keyword, channel)', async () => {
  await reply('905557100013', '  stop ');
  const e = await eventually(() => entry('905557100013'));
  assert.equal(e.source, 'inbound_keyword');
  assert.equal(e.keyword, 'STOP');
  assert.equal(e.channel_id, main);
  assert.equal(await entry('905557100013', h.b.token), undefined, "company B's list must not hold A's opt-out");
});

test('a reply that is not exactly a keyword changes nothing', async () => {
  await reply('905557100023', 'please stop sending me these');
  await reply('905557100033', 'Hello, is the shop open?');
  assert.equal(await entry('905557100023'), undefined);
  assert.equal(await entry('905557100033'), undefined);
});

test('a tap on a template quick-reply button reading "Stop" opts out too', async () => {
  await reply('905557100043', 'Stop', { type: 'button' });
  const e = await eventually(() => entry('905557100043'));
  assert.equal(e.keyword, 'STOP');
});

test('a bulk send including an opted-out number: that row ends OPT_IN_FAILED, never reaches the network, takes no tier slot', async () => {
  await reply('905557200013', 'UNSUBSCRIBE');
  await eventually(() => entry('905557200013'));
  await simAdmin(h, '/_sim/requests/clear', {});
  // TIER_50: 50 new recipients fill the window; the opted-out number comes last, when no slot is left.
  const numbers = [...phones(50, '9055730'), '905557200013'];
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(numbers), total_time: 0, channel_id: small });
  const item = await untilWizard(h, small, id, ['COMPLETED'], 60_000);
  const rows = await reportRows(h, id);
  const row = rows.find((r: { phone_number: string }) => r.phone_number === '+905557200013');
  assert.equal(row.status, 'OPT_IN_FAILED');
  assert.equal(row.error_message, 'Recipient opted out');
  assert.match(row.error_message_detail, /^RECIPIENT_OPTED_OUT: /);
  assert.ok(row.failed_time, 'failed_time is set');
  assert.equal((await simAdmin(h, '/_sim/received?to=%2B905557200013')).messages.length, 0);
  assert.equal(await messageRequests(), 50, 'one network request per recipient that is not opted out');
  // Counters exact: 50 delivered, the opt-out is the one failure.
  const expected = countersFromRows(rows);
  assert.equal(item.failed_count, 1);
  assert.equal(item.processed_count, 51);
  assert.equal(item.failed_count, expected.failed_count);
  assert.equal(item.queued, 0);
  await eventually(async () => (await untilWizard(h, small, id, ['COMPLETED'])).delivered_count === 50, 15_000);
  const used = await sql<{ n: number }>`select count(*)::int as n from tier_recipients where channel_id = ${small}`.execute(h.store.db);
  assert.equal(used.rows[0].n, 50, 'the opted-out recipient holds no tier slot');
});

test('a single send to an opted-out number is refused 422 RECIPIENT_OPTED_OUT and stores nothing', async () => {
  await reply('905557300013', 'stop');
  await eventually(() => entry('905557300013'));
  const before = await sql<{ n: number }>`select count(*)::int as n from messages`.execute(h.store.db);
  const res = await singleSend(h, { channel_id: main, phone_number: '905557300013', message_template_id: template, message_template: sendParams() });
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'RECIPIENT_OPTED_OUT');
  assert.equal(res.body.errors[0].field, 'phone_number');
  const afterCount = await sql<{ n: number }>`select count(*)::int as n from messages`.execute(h.store.db);
  assert.equal(afterCount.rows[0].n, before.rows[0].n);
});

test("company keywords: a custom word opts out, a default one no longer does", async () => {
  const put = await h.call('PUT', '/api/v1/opt-outs/keywords', { body: { keywords: [' iptal ', 'Opt  me out'] } });
  assert.equal(put.status, 200, JSON.stringify(put.body));
  assert.deepEqual(put.body.data, { keywords: ['IPTAL', 'OPT ME OUT'], is_default: false });
  await reply('905557400013', 'iptal');
  await reply('905557400023', 'opt me   OUT');
  await reply('905557400033', 'STOP');
  assert.equal((await eventually(() => entry('905557400013'))).keyword, 'IPTAL');
  assert.equal((await eventually(() => entry('905557400023'))).keyword, 'OPT ME OUT');
  assert.equal(await entry('905557400033'), undefined, 'STOP is no longer a keyword of this company');
  const reset = await h.call('PUT', '/api/v1/opt-outs/keywords', { body: { keywords: ['STOP'] } });
  assert.equal(reset.status, 200);
});

test("another company's opt-out does not stop this company's sends", async () => {
  const add = await h.call('POST', '/api/v1/opt-outs', { token: h.b.token, body: { phone_number: '905557500013' } });
  assert.equal(add.status, 200, JSON.stringify(add.body));
  const res = await singleSend(h, { channel_id: main, phone_number: '905557500013', message_template_id: template, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilStatus(h, res.body.data.message_id, ['BACKEND_SEEN']);
});

test('a STOP stored but not applied before a crash is applied on the next drain, next to the statuses of the same body', async () => {
  const value = {
    messaging_product: 'whatsapp',
    metadata: { display_phone_number: '15550000001', phone_number_id: main },
    contacts: [{ profile: { name: 'Customer' }, wa_id: '905557600013' }],
    messages: [{ from: '905557600013', id: 'wamid.optout-crash-1', timestamp: '1763900000', type: 'text', text: { body: 'STOP' } }],
    statuses: [{ id: 'wamid.optout-unknown-status', status: 'delivered', timestamp: '1763900000', recipient_id: '905557600023' }],
  };
  const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value }] }] });
  const id = await insertWebhookEvent(h.store.db, { body, phoneNumberId: bodyPhoneNumberId(JSON.parse(body)) }); // stored, never applied: as if the process died here
  await h.app.webhookInbox.drain();
  const event = await h.store.db.selectFrom('webhook_events').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(event.state, 'APPLIED');
  assert.equal((await entry('905557600013'))?.keyword, 'STOP');
  const kept = await h.store.db.selectFrom('pending_status_events').select('wamid').where('wamid', '=', 'wamid.optout-unknown-status').execute();
  assert.equal(kept.length, 1, 'the status of the same body was handled as before (kept for its message)');
});
