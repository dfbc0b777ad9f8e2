import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let mainTemplate: string;
const main = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  mainTemplate = await approvedTemplate(h, main);
});
after(() => h.close());

function body(phone: string, extra: Record<string, unknown> = {}) {
  return { channel_id: main, phone_number: phone, message_template_id: mainTemplate, message_template: sendParams(), ...extra };
}

async function messageCount(): Promise<number> {
  const row = await h.store.db.selectFrom('messages' as never).select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number((row as { n: number }).n);
}

test('a number ending 000 is sent and fails by the network\'s 131026; the next send to it is OPT_IN_FAILED_INVALID_NUMBER, never sent', async () => {
  const first = await untilStatus(h, (await singleSend(h, body('905551110000'))).body.data.message_id, ['BACKEND_FAILED']);
  assert.match(first.error_message_detail, /^131026/);
  const res = await singleSend(h, body('905551110000'));
  const record = await untilStatus(h, res.body.data.message_id, ['OPT_IN_FAILED_INVALID_NUMBER']);
  assert.ok(record.failed_time);
  assert.equal(record.error_message, 'Invalid Number');
  const received = await simAdmin(h, '/_sim/received?to=%2B905551110000');
  assert.equal(received.messages.length, 1);
});

test('a number ending 001 is accepted then fails with 131049, its title and details kept', async () => {
  const res = await singleSend(h, body('905551110001'));
  const record = await untilStatus(h, res.body.data.message_id, ['BACKEND_FAILED']);
  assert.ok(record.failed_time);
  assert.ok(record.backend_sended_time);
  assert.ok(record.error_message.length > 0);
  assert.match(record.error_message_detail, /^131049/);
  assert.equal(record.webhook_response.status, 'failed');
});

test('a number ending 002 is delivered but never read', async () => {
  const res = await singleSend(h, body('905551110002'));
  const record = await untilStatus(h, res.body.data.message_id, ['BACKEND_SENT']);
  await new Promise((r) => setTimeout(r, 1200));
  const [again] = await lookup(h, [record._id]);
  assert.equal(again.status, 'BACKEND_SENT');
  assert.equal(again.seen_time, null);
  assert.ok(again.delivered_time);
});

test('a FLAGGED channel is 422 CHANNEL_BLOCKED and nothing is stored', async () => {
  const template = await approvedTemplate(h, SIM_CHANNEL_IDS.flagged);
  const before = await messageCount();
  const res = await singleSend(h, { ...body('905551110010'), channel_id: SIM_CHANNEL_IDS.flagged, message_template_id: template });
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].code, 'CHANNEL_BLOCKED');
  assert.equal(await messageCount(), before);
});

test('a RED channel is 422 CHANNEL_BLOCKED', async () => {
  const res = await singleSend(h, { ...body('905551110011'), channel_id: SIM_CHANNEL_IDS.red });
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].code, 'CHANNEL_BLOCKED');
});

test('a template that is not APPROVED is 422 TEMPLATE_NOT_APPROVED', async () => {
  const created = await h.call('POST', '/agent-app/message-template/template', {
    body: { name: `pending_${Date.now()}`, category: 'MARKETING', language: 'en', components: [{ type: 'BODY', text: 'Plain text only' }], channel_id: main },
  });
  await h.store.db.updateTable('templates').set({ status: 'PAUSED' }).where('id', '=', created.body.data.id).execute();
  const res = await singleSend(h, body('905551110012', { message_template_id: created.body.data.id, message_template: [] }));
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_NOT_APPROVED');
});

test('an unknown template is 404 naming message_template_id', async () => {
  const res = await singleSend(h, body('905551110013', { message_template_id: '123' }));
  assert.equal(res.status, 404);
  assert.equal(res.body.errors[0].field, 'message_template_id');
});

test('a wrong parameter count is 400 PARAMETERS_INVALID before anything is sent', async () => {
  const before = await messageCount();
  const res = await singleSend(h, body('905551110014', { message_template: [{ type: 'BODY', parameters: ['only one'] }] }));
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
  assert.match(res.body.errors[0].field, /^message_template/);
  assert.equal(await messageCount(), before);
});

test('a missing URL button parameter is 400', async () => {
  const res = await singleSend(h, body('905551110015', { message_template: [{ type: 'BODY', parameters: ['a', 'b'] }] }));
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
});

test('a malformed phone number is 400 naming phone_number', async () => {
  const res = await singleSend(h, body('12-ab'));
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'phone_number');
});

test('a missing channel_id is 400 and an unknown field is refused', async () => {
  const missing = await singleSend(h, { phone_number: '905551110016', message_template_id: mainTemplate });
  assert.equal(missing.status, 400);
  assert.equal(missing.body.errors[0].field, 'channel_id');
  const extra = await singleSend(h, { ...body('905551110016'), surprise: true });
  assert.equal(extra.status, 400);
  assert.equal(extra.body.errors[0].field, 'surprise');
});

test('TIER_50: 50 new recipients pass, the 51st is 429 TIER_LIMIT_REACHED, a repeat recipient costs nothing', async () => {
  const small = SIM_CHANNEL_IDS.small;
  const template = await approvedTemplate(h, small);
  const send = (phone: string) => singleSend(h, { channel_id: small, phone_number: phone, message_template_id: template, message_template: sendParams() });
  for (let i = 0; i < 50; i += 1) {
    const res = await send(`90555220${String(i).padStart(4, '0')}`);
    assert.equal(res.status, 200, `recipient ${i}: ${JSON.stringify(res.body)}`);
  }
  const over = await send('905552209999');
  assert.equal(over.status, 429);
  assert.equal(over.body.errors[0].code, 'TIER_LIMIT_REACHED');
  assert.ok(over.headers['retry-after']);
  const repeat = await send('905552200007');
  assert.equal(repeat.status, 200);
});

test("message lookup returns only the caller's messages; unknown ids are simply absent", async () => {
  const mine = await singleSend(h, body('905551110020'));
  const id = mine.body.data.message_id;
  assert.equal((await lookup(h, [id, 'ffffffffffffffffffffffff'])).length, 1);
  assert.deepEqual(await lookup(h, [id], h.b.token), []);
});

test('message lookup with a bad body is 400', async () => {
  for (const body of [{}, { message_ids: 'x' }, { message_ids: [] }, { message_ids: [1] }]) {
    const res = await h.call('POST', '/api/v1/messages', { body });
    assert.equal(res.status, 400, JSON.stringify(body));
    assert.equal(res.body.errors[0].code, 'VALIDATION_FAILED');
  }
});

test("another company's channel is 404 for a single send", async () => {
  const res = await singleSend(h, body('905551110021', { channel_id: OTHER_CHANNEL_ID }));
  assert.equal(res.status, 404);
  assert.equal(res.body.errors[0].code, 'CHANNEL_NOT_FOUND');
});
