/**
 * The simulator's users as Graph shows them in 2026 (research §9): a stable BSUID per user and business in every
 * status and inbound webhook, usernames that withhold the phone number, sends to a BSUID (`recipient`), failed
 * statuses without `contacts`, parent BSUIDs when enabled, and the BSUID change message.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { isBsuid, isParentBsuid } from '../../src/domain/recipients.js';
import type { GraphTemplateComponent, SendComponent, TemplateSendPayload } from '../../src/network/port.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/index.js';
import { credsOf, eventually, httpJson, networkErrorOf, startSim, WebhookReceiver, type SimSetup } from './helpers.js';

const creds = credsOf();
const BODY_ONE: GraphTemplateComponent[] = [{ type: 'BODY', text: 'Hi {{1}}, your code is ready.', example: { body_text: [['Ann']] } }];
const ONE_PARAM: SendComponent[] = [{ type: 'body', parameters: [{ type: 'text', text: 'Bob' }] }];
let s: SimSetup;
let receiver: WebhookReceiver;

before(async () => {
  receiver = new WebhookReceiver();
  s = await startSim({ webhookUrl: await receiver.start(), appSecret: 'x', limits: { pairRateBurst: null } });
});
after(async () => {
  await s.close();
  await receiver.close();
});
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  receiver.received.length = 0;
  const { id } = await s.net.createTemplate(creds, { name: 'greeting', language: 'en_US', category: 'UTILITY', components: BODY_ONE });
  await eventually(async () => (await s.net.getTemplate(creds, id)).status === 'APPROVED');
});

const admin = async (method: string, path: string, body?: unknown) => (await httpJson(method, `${s.rootUrl}${path}`, body)).json;
const user = (id: string) => admin('GET', `/_sim/users/${id}`);
const send = (target: Partial<TemplateSendPayload>) =>
  s.net.sendMessage(creds, {
    messaging_product: 'whatsapp', recipient_type: 'individual', type: 'template',
    template: { name: 'greeting', language: { code: 'en_US' } , components: ONE_PARAM }, ...target,
  });
/** The `messages` change values that hold a status of this wamid, in arrival order. */
const valuesWith = (wamid: string) =>
  receiver.changes('messages').map((c) => c.value).filter((v) => (v.statuses ?? []).some((st: { id: string }) => st.id === wamid));
/** How many statuses of this wamid arrived (several may share a body when they fall due together). */
const statusCount = (wamid: string) => receiver.statuses().filter((st) => st.id === wamid).length;
const statusOf = (value: { statuses: Array<{ id: string }> }, wamid: string) => value.statuses.find((st) => st.id === wamid) as Record<string, unknown>;
const inbound = () => receiver.changes('messages').map((c) => c.value).filter((v) => v.messages);

test('every user has a stable BSUID of their country (same in every run); webhooks of a phone send carry it', async () => {
  const u = await user('905551234567');
  assert.ok(isBsuid(u.user_id), u.user_id);
  assert.match(u.user_id, /^TR\.\d{20}$/);
  assert.equal(u.parent_user_id, null);
  assert.deepEqual(await user('905551234567'), u, 'stable');
  const wamid = (await send({ to: '+905551234567', biz_opaque_callback_data: 'm1' })).messages[0].id;
  await eventually(() => statusCount(wamid) >= 3);
  for (const value of valuesWith(wamid)) {
    const st = statusOf(value, wamid);
    assert.equal(st.recipient_id, '905551234567');
    assert.equal(st.recipient_user_id, u.user_id);
    assert.deepEqual(value.contacts, [{ wa_id: '905551234567', user_id: u.user_id }], 'no username: no profile');
  }
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  assert.equal((await user('905551234567')).user_id, u.user_id, 'the same after a reset');
});

test('a send to a BSUID: answered with user_id, statuses without recipient_id, logged under the user; `to` wins over recipient', async () => {
  const u = await user('905551234568');
  const answer = await send({ recipient: u.user_id });
  assert.deepEqual(answer.contacts, [{ input: u.user_id, user_id: u.user_id }]);
  const wamid = answer.messages[0].id;
  await eventually(() => statusCount(wamid) >= 3);
  for (const value of valuesWith(wamid)) {
    const st = statusOf(value, wamid);
    assert.equal('recipient_id' in st, false);
    assert.equal(st.recipient_user_id, u.user_id);
    assert.equal(value.contacts[0].wa_id, '905551234568', 'no username: the number may be shared');
  }
  const log = await admin('GET', `/_sim/received?user_id=${u.user_id}`);
  assert.equal(log.to, '905551234568');
  assert.equal(log.messages[0].recipient, u.user_id);
  const both = await send({ to: '+905551234569', recipient: u.user_id });
  assert.deepEqual(both.contacts, [{ input: '+905551234569', wa_id: '905551234569' }], 'to wins when both are given');
});

test('a malformed recipient is refused with 100; a BSUID nobody has is accepted, then fails 131026 without contacts', async () => {
  const bad = await networkErrorOf(send({ recipient: 'TR-123' }));
  assert.equal(bad.graph?.code, 100);
  assert.match(bad.graph!.error_data?.details ?? '', /recipient/);
  const wamid = (await send({ recipient: 'TR.99999999999999999999' })).messages[0].id;
  await eventually(() => valuesWith(wamid).length >= 1);
  const [value] = valuesWith(wamid);
  const st = statusOf(value, wamid);
  assert.equal(st.status, 'failed');
  assert.equal((st.errors as Array<{ code: number }>)[0].code, 131026);
  assert.equal(st.recipient_user_id, 'TR.99999999999999999999');
  assert.equal('contacts' in value, false);
});

test('a failed status of a phone send has neither contacts nor recipient_user_id', async () => {
  const wamid = (await send({ to: '+905551234001' })).messages[0].id;
  await eventually(() => valuesWith(wamid).length >= 1);
  const [value] = valuesWith(wamid);
  const st = statusOf(value, wamid);
  assert.equal(st.status, 'failed');
  assert.equal(st.recipient_id, '905551234001');
  assert.equal('recipient_user_id' in st, false);
  assert.equal('contacts' in value, false);
});

test('a user with a username (number ending 950-999 by default): username on delivered and read only; a BSUID send hides the number', async () => {
  const u = await user('905551234975');
  assert.match(u.username, /^user\.\d{8}$/);
  const wamid = (await send({ recipient: u.user_id })).messages[0].id;
  await eventually(() => statusCount(wamid) >= 3);
  // Each status's own contact (statuses that share a body share its contacts: compare the first body alone).
  const [first] = valuesWith(wamid);
  const firstStatus = statusOf(first, wamid).status;
  assert.equal(firstStatus, 'sent');
  if (first.statuses.length === 1) assert.deepEqual(first.contacts, [{ user_id: u.user_id }], 'no username on sent');
  const last = valuesWith(wamid).at(-1);
  assert.deepEqual(last.contacts, [{ user_id: u.user_id, profile: { username: u.username } }], 'username on delivered and read');
});

test('inbound: a user with a username writes with from_user_id only; a user without one with from and wa_id too', async () => {
  await admin('POST', '/_sim/inbound', { from: '905551234975', text: 'STOP' });
  await admin('POST', '/_sim/inbound', { from: '905551234567', text: 'hello' });
  await eventually(() => inbound().length >= 2);
  const [hidden, shown] = inbound();
  const u = await user('905551234975');
  assert.deepEqual(hidden.contacts, [{ profile: { name: 'Customer', username: u.username }, user_id: u.user_id }]);
  assert.equal('from' in hidden.messages[0], false);
  assert.equal(hidden.messages[0].from_user_id, u.user_id);
  assert.equal(hidden.messages[0].text.body, 'STOP');
  const v = await user('905551234567');
  assert.deepEqual(shown.contacts, [{ profile: { name: 'Customer' }, wa_id: '905551234567', user_id: v.user_id }]);
  assert.equal(shown.messages[0].from, '905551234567');
  assert.equal(shown.messages[0].from_user_id, v.user_id);
});

test('the username share is a knob, and an admin call gives or takes one user’s username', async () => {
  assert.deepEqual(await admin('POST', '/_sim/users', { usernameShare: 0 }), { usernameShare: 0, parentUserIds: false });
  assert.equal((await user('905551234975')).username, null);
  await admin('POST', '/_sim/users', { usernameShare: 1 });
  assert.notEqual((await user('905551234500')).username, null);
  const set = await admin('POST', '/_sim/users/905551234500', { username: null });
  assert.equal(set.username, null);
  assert.equal((await httpJson('POST', `${s.rootUrl}/_sim/users`, { usernameShare: 2 })).status, 400);
});

test('parent BSUIDs, when enabled, come as CC.ENT.… in statuses and inbound messages', async () => {
  await admin('POST', '/_sim/users', { parentUserIds: true });
  const u = await user('905551234567');
  assert.ok(isParentBsuid(u.parent_user_id));
  const wamid = (await send({ recipient: u.parent_user_id })).messages[0].id;
  await eventually(() => statusCount(wamid) >= 3);
  const [value] = valuesWith(wamid);
  assert.equal(statusOf(value, wamid).recipient_parent_user_id, u.parent_user_id);
  assert.equal(value.contacts[0].parent_user_id, u.parent_user_id);
  await admin('POST', '/_sim/inbound', { from: '905551234567', text: 'hi' });
  const [message] = await eventually(() => inbound().length >= 1 && inbound());
  assert.equal(message.messages[0].from_parent_user_id, u.parent_user_id);
});

test('a BSUID change posts a user_changed_user_id system message; later webhooks carry the new id', async () => {
  const before = await user('905551234567');
  const rotated = await admin('POST', '/_sim/users/905551234567/rotate', {});
  assert.equal(rotated.previous_user_id, before.user_id);
  assert.notEqual(rotated.user_id, before.user_id);
  const [change] = await eventually(() => inbound().length >= 1 && inbound());
  assert.equal('contacts' in change, false);
  assert.equal(change.metadata.phone_number_id, SIM_CHANNEL_IDS.main);
  assert.deepEqual(change.messages[0].system, {
    body: 'User A WhatsApp user changed their business-scoped user ID', type: 'user_changed_user_id', user_id: rotated.user_id, previous_user_id: before.user_id,
  });
  assert.equal((await httpJson('GET', `${s.rootUrl}/_sim/users/${before.user_id}`)).status, 404, 'the old BSUID is nobody’s now');
  const wamid = (await send({ to: '+905551234567' })).messages[0].id;
  await eventually(() => valuesWith(wamid).length >= 1);
  assert.equal(statusOf(valuesWith(wamid)[0], wamid).recipient_user_id, rotated.user_id);
});

test('the answer to a REQUEST_CONTACT_INFO button is a contacts message with origin contact_request and the number', async () => {
  await admin('POST', '/_sim/inbound', { from: '905551234975', type: 'contact_request', name: 'Ayse' });
  const [value] = await eventually(() => inbound().length >= 1 && inbound());
  const m = value.messages[0];
  assert.equal(m.type, 'contacts');
  assert.equal(m.origin, 'contact_request');
  assert.equal('from' in m, false, 'a username user: the number comes only in the shared contact');
  assert.equal(m.contacts[0].phones[0].phone, '+905551234975');
  assert.equal(m.contacts[0].phones[0].wa_id, '905551234975');
  assert.match(m.contacts[0].vcard, /^BEGIN:VCARD\n/);
});

test('a BSUID change can come as the user_id_update field: previous and current ids, no number for a username user', async () => {
  const before = await user('905551234977');
  const rotated = await admin('POST', '/_sim/users/905551234977/rotate', { as: 'user_id_update' });
  const [value] = await eventually(() => receiver.changes('user_id_update').length >= 1 && receiver.changes('user_id_update').map((c) => c.value));
  assert.equal(value.metadata.phone_number_id, SIM_CHANNEL_IDS.main);
  const [item] = value.user_id_update;
  assert.deepEqual(item.user_id, { previous: before.user_id, current: rotated.user_id });
  assert.equal('wa_id' in item, false);
  assert.equal((await httpJson('POST', `${s.rootUrl}/_sim/users/905551234977/rotate`, { as: 'sms' })).status, 400);
});

test('a marketing preference posts user_preferences: category marketing_messages, stop then resume, with the BSUID', async () => {
  const u = await user('905551234567');
  await admin('POST', '/_sim/users/905551234567/preferences', { value: 'stop' });
  await admin('POST', '/_sim/users/905551234567/preferences', { value: 'resume' });
  const values = await eventually(() => receiver.changes('user_preferences').length >= 2 && receiver.changes('user_preferences').map((c) => c.value));
  assert.deepEqual(values.map((v: { user_preferences: Array<Record<string, unknown>> }) => [v.user_preferences[0].category, v.user_preferences[0].value]), [
    ['marketing_messages', 'stop'], ['marketing_messages', 'resume'],
  ]);
  assert.equal(values[0].user_preferences[0].user_id, u.user_id);
  assert.equal(values[0].user_preferences[0].wa_id, '905551234567');
  assert.equal(values[0].contacts[0].user_id, u.user_id);
  assert.equal((await httpJson('POST', `${s.rootUrl}/_sim/users/905551234567/preferences`, { value: 'maybe' })).status, 400);
});
