import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { insertOptOut } from '../../src/store/opt-outs.js';
import { upsertRecipientLinks } from '../../src/store/recipient-links.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

function body(recipient: Record<string, unknown>) {
  return { channel_id: channel, message_template_id: templateId, message_template: sendParams(), ...recipient };
}

/** The BSUID the simulated network gives the user of this number. */
async function bsuidOf(phone: string): Promise<string> {
  return (await simAdmin(h, `/_sim/users/${phone}`)).user_id as string;
}

async function messageCount(): Promise<number> {
  const row = await h.store.db.selectFrom('messages').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

test('a send to a BSUID only goes to the network as recipient and is delivered; the record has no phone number', async () => {
  const userId = await bsuidOf('905551240101');
  const res = await singleSend(h, body({ recipient: userId }));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const record = await untilStatus(h, res.body.data.message_id, ['BACKEND_SENT', 'BACKEND_SEEN']);
  assert.equal(record.phone_number, null);
  assert.equal(record.user_id, userId);
  assert.equal(record.market, 'TR', 'the market comes from the BSUID prefix');
  const received = await simAdmin(h, '/_sim/received?to=905551240101');
  assert.equal(received.messages.length, 1);
  assert.equal(received.messages[0].recipient, userId);
  assert.equal(received.messages[0].biz_opaque_callback_data, res.body.data.message_id);
});

test('with a phone number and a BSUID the request goes to the phone number (to wins on the network) and the record keeps both', async () => {
  const userId = await bsuidOf('905551240102');
  const res = await singleSend(h, body({ phone_number: '905551240102', recipient: userId }));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const record = await untilStatus(h, res.body.data.message_id, ['BACKEND_SENT', 'BACKEND_SEEN']);
  assert.deepEqual([record.phone_number, record.user_id], ['+905551240102', userId]);
  const received = await simAdmin(h, '/_sim/received?to=905551240102');
  assert.equal(received.messages.length, 1);
  assert.equal(received.messages[0].recipient, undefined);
});

test('a send with neither a phone number nor a BSUID is one 400 naming phone_number, and nothing is stored', async () => {
  const before = await messageCount();
  const res = await singleSend(h, body({}));
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors.length, 1);
  assert.equal(res.body.errors[0].field, 'phone_number');
  assert.match(res.body.errors[0].message, /recipient/);
  assert.equal(await messageCount(), before);
});

test('a malformed BSUID is a 400 naming recipient, and nothing is stored', async () => {
  const before = await messageCount();
  for (const bad of ['TR-1234567890', 'tr.1234567890', 'TR.', 'TR.ENT.']) {
    const res = await singleSend(h, body({ recipient: bad }));
    assert.equal(res.status, 400, bad);
    assert.equal(res.body.errors[0].field, 'recipient', bad);
  }
  assert.equal(await messageCount(), before);
});

test('a send to an opted-out BSUID is refused with 422 RECIPIENT_OPTED_OUT and nothing is stored', async () => {
  const userId = await bsuidOf('905551240103');
  await insertOptOut(h.store.db, h.a.companyId, { user_id: userId, source: 'api' });
  const before = await messageCount();
  const res = await singleSend(h, body({ recipient: userId }));
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'RECIPIENT_OPTED_OUT');
  assert.equal(res.body.errors[0].field, 'recipient');
  assert.equal(await messageCount(), before);
});

test('a send to a BSUID whose linked phone number opted out is refused too', async () => {
  const userId = await bsuidOf('905551240104');
  await upsertRecipientLinks(h.store.db, h.a.companyId, [{ phone_number: '+905551240104', user_id: userId, source: 'status_webhook' }]);
  await insertOptOut(h.store.db, h.a.companyId, { phone_number: '+905551240104', source: 'api' });
  const res = await singleSend(h, body({ recipient: userId }));
  assert.equal(res.status, 422, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'RECIPIENT_OPTED_OUT');
});

test("a BSUID's messages are looked up by user_id, latest first, and only the caller's", async () => {
  const userId = await bsuidOf('905551240105');
  const first = await singleSend(h, body({ recipient: userId }));
  const second = await singleSend(h, body({ recipient: userId }));
  const res = await h.call('GET', `/api/v1/messages?user_id=${userId}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.items.map((r: { _id: string }) => r._id), [second.body.data.message_id, first.body.data.message_id]);
  const other = await h.call('GET', `/api/v1/messages?user_id=${userId}`, { token: h.b.token });
  assert.deepEqual(other.body.items, []);
  const [record] = await lookup(h, [first.body.data.message_id]);
  assert.equal(record.user_id, userId);
});

test('the lookup refuses a malformed user_id, both ids at once, and neither, naming the field', async () => {
  const bad = await h.call('GET', '/api/v1/messages?user_id=TR-1');
  assert.deepEqual([bad.status, bad.body.errors[0].field], [400, 'user_id']);
  const both = await h.call('GET', '/api/v1/messages?user_id=TR.1&phone_number=905551240105');
  assert.deepEqual([both.status, both.body.errors[0].field], [400, 'user_id']);
  const neither = await h.call('GET', '/api/v1/messages');
  assert.deepEqual([neither.status, neither.body.errors[0].field], [400, 'phone_number']);
});
