/**
 * Opt-outs by BSUID end to end, over the simulator's signed webhooks: a customer with a username (the simulator
 * withholds the phone number of numbers ending 950-999 in what they send) replies STOP with only `from_user_id`; the
 * service opts out that BSUID, and since an earlier status webhook showed the BSUID with the phone number, a single
 * send and a bulk row to that number are refused exactly as for a number on the list (422 / RECIPIENT_OPTED_OUT).
 * A STOP before any webhook linked the number holds from the first status that does. Then a BSUID change, and a
 * marketing stop and resume, driven through the simulator's admin routes.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { findSuppressedRecipients } from '../../src/store/opt-outs.js';
import { findRecipientLink } from '../../src/store/recipient-links.js';
import { reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

const { main } = SIM_CHANNEL_IDS;
const FAST = { timings: { templateApprovalDelayMs: 50, sentDelayMs: 10, deliveredDelayMs: 20, readDelayMs: 30, failedDelayMs: 10 }, limits: { pairRateBurst: null } };

let h: Harness;
let template: string;
before(async () => {
  h = await startHarness(FAST);
  template = await approvedTemplate(h, main);
});
after(() => h.close());

/** Waits until every webhook the simulator posted so far was applied by the service. */
async function settled() {
  await eventually(async () => (await simAdmin(h, '/_sim/stats')).webhooks_pending === 0);
  await h.app.webhookInbox.drain();
}

/** Calls a simulator admin route that makes the network post a webhook, and waits until the service applied it. */
async function posting(path: string, body: unknown) {
  const posted = (await simAdmin(h, '/_sim/stats')).webhooks_posted as number;
  const answer = await simAdmin(h, path, body);
  await eventually(async () => {
    const stats = await simAdmin(h, '/_sim/stats');
    return stats.webhooks_posted > posted && stats.webhooks_pending === 0;
  });
  await h.app.webhookInbox.drain();
  return answer;
}

/** Sends to a number and waits until it was read: its status webhooks carried the number with the BSUID. */
async function delivered(phone: string) {
  const res = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilStatus(h, res.body.data.message_id, ['BACKEND_SEEN']);
  await settled();
  return res.body.data.message_id as string;
}

const entriesOf = async (userId: string) => (await h.call('GET', `/api/v1/opt-outs?user_id=${userId}`)).body.items as Array<Record<string, unknown>>;

test('a username user’s STOP opts out the BSUID; sends to the linked number are refused, single and bulk', async () => {
  const phone = '905558400977';
  const user = await simAdmin(h, `/_sim/users/${phone}`);
  assert.ok(user.username, 'the simulator gives numbers ending 950-999 a username');
  await delivered(phone);
  assert.equal((await findRecipientLink(h.store.db, h.a.companyId, user.user_id))?.phone_number, `+${phone}`);

  await posting('/_sim/inbound', { from: phone, text: 'STOP' });
  const received = (await sql<{ body: string }>`select body from webhook_events order by id desc limit 1`.execute(h.store.db)).rows[0].body;
  assert.equal(received.includes(phone), false, 'the STOP webhook carried no phone number');
  assert.deepEqual((await entriesOf(user.user_id)).map((e) => [e.phone_number, e.user_id, e.source, e.keyword]), [[null, user.user_id, 'inbound_keyword', 'STOP']]);

  const single = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, message_template: sendParams() });
  assert.equal(single.status, 422, JSON.stringify(single.body));
  assert.equal(single.body.errors[0].code, 'RECIPIENT_OPTED_OUT');

  const receivedBefore = (await simAdmin(h, `/_sim/received?to=${phone}`)).messages.length;
  assert.equal(receivedBefore, 1);
  const id = await startV1(h, { message_template_id: template, rows: v1Rows([phone, '905558400013']), total_time: 0, channel_id: main });
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  const rows = await reportRows(h, id);
  const refused = rows.find((r: { phone_number: string }) => r.phone_number === `+${phone}`);
  assert.equal(refused.status, 'OPT_IN_FAILED');
  assert.match(refused.error_message_detail, /^RECIPIENT_OPTED_OUT: .*replied STOP/);
  assert.notEqual(rows.find((r: { phone_number: string }) => r.phone_number === '+905558400013').status, 'OPT_IN_FAILED');
  assert.equal((await simAdmin(h, `/_sim/received?to=${phone}`)).messages.length, receivedBefore, 'nothing more reached the opted-out number');

  // The check a send to the BSUID itself goes through.
  const check = await findSuppressedRecipients(h.store.db, h.a.companyId, { phones: [], userIds: [user.user_id] });
  assert.equal(check.userIds.get(user.user_id)?.kind, 'opted_out');
});

test('another company is not refused by a BSUID one company’s customer opted out', async () => {
  const phone = '905558400978';
  const user = await simAdmin(h, `/_sim/users/${phone}`);
  await posting('/_sim/inbound', { from: phone, text: 'stop' });
  assert.equal((await entriesOf(user.user_id)).length, 1);
  const other = await findSuppressedRecipients(h.store.db, h.b.companyId, { phones: [`+${phone}`], userIds: [user.user_id] });
  assert.equal(other.phones.size + other.userIds.size, 0);
});

test('a BSUID change sent by the simulator moves the opt-out and the link to the new BSUID', async () => {
  const phone = '905558400979';
  const before = await simAdmin(h, `/_sim/users/${phone}`);
  await delivered(phone);
  await posting('/_sim/inbound', { from: phone, text: 'STOP' });
  for (const as of ['system', 'user_id_update']) {
    const from = (await simAdmin(h, `/_sim/users/${phone}`)).user_id;
    const rotated = await posting(`/_sim/users/${phone}/rotate`, { as });
    assert.equal(rotated.previous_user_id, from);
    assert.equal((await entriesOf(rotated.user_id)).length, 1, `${as}: the opt-out follows the new BSUID`);
    assert.equal((await findRecipientLink(h.store.db, h.a.companyId, rotated.user_id))?.phone_number, `+${phone}`, as);
    assert.equal(await findRecipientLink(h.store.db, h.a.companyId, from), undefined, as);
  }
  assert.notEqual((await simAdmin(h, `/_sim/users/${phone}`)).user_id, before.user_id);
});

test('a marketing stop refuses MARKETING sends to the user, and a resume lets them go again', async () => {
  const phone = '905558400033';
  await delivered(phone);
  await posting(`/_sim/users/${phone}/preferences`, { value: 'stop' });
  const refused = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, message_template: sendParams() });
  assert.equal(refused.status, 422, JSON.stringify(refused.body));
  assert.equal(refused.body.errors[0].code, 'RECIPIENT_OPTED_OUT');
  const id = await startV1(h, { message_template_id: template, rows: v1Rows([phone]), total_time: 0, channel_id: main });
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  const [row] = await reportRows(h, id);
  assert.equal(row.status, 'OPT_IN_FAILED');
  assert.match(row.error_message_detail, /^RECIPIENT_OPTED_OUT: .*stopped marketing messages/);
  await posting(`/_sim/users/${phone}/preferences`, { value: 'resume' });
  const again = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, message_template: sendParams() });
  assert.equal(again.status, 200, JSON.stringify(again.body));
});

test('a STOP by BSUID before the number is known: the first send goes, its statuses link the number, the next is refused', async () => {
  const phone = '905558400981';
  const user = await posting('/_sim/inbound', { from: phone, text: 'STOP' });
  assert.equal(await findRecipientLink(h.store.db, h.a.companyId, user.user_id), undefined, 'nothing linked the number yet');
  await delivered(phone);
  assert.equal((await findRecipientLink(h.store.db, h.a.companyId, user.user_id))?.phone_number, `+${phone}`);
  const next = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, message_template: sendParams() });
  assert.equal(next.status, 422, JSON.stringify(next.body));
  assert.equal(next.body.errors[0].code, 'RECIPIENT_OPTED_OUT');
});
