/**
 * The webhooks of 2026 (test/fixtures/built-2026): every body is accepted and applied, signed as Meta signs it; a
 * username user's STOP with no phone number opts out the BSUID; a webhook naming a phone number and a BSUID links
 * them, and a status stores the recipient's ids on its message; a contact-request answer links the shared number;
 * a BSUID change moves the link, the opt-out and the messages; a marketing preference stops and resumes MARKETING
 * templates. The simulator's own webhooks are off: the test posts every body itself.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { postSignedWebhook } from '../support/status-webhooks.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { findSuppressedRecipients } from '../../src/store/opt-outs.js';
import { findRecipientLink } from '../../src/store/recipient-links.js';
import { insertWebhookEvent } from '../../src/store/webhook-events.js';
import { bodyPhoneNumberId } from '../../src/domain/webhook-channels.js';
import { startV1, v1Rows } from '../support/bulk.js';
import { eventually, simAdmin, startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';

const DIR = new URL('../fixtures/built-2026/', import.meta.url);
const fixture = (name: string) => JSON.parse(readFileSync(new URL(name, DIR), 'utf8'));
const FIXTURES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();

let h: Harness;
let template: string;
before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  template = await approvedTemplate(h, SIM_CHANNEL_IDS.main);
  await simAdmin(h, '/_sim/webhook-target', { url: null });
});
after(() => h.close());

/** Posts a body signed with the app secret (or a wrong one), applies what was stored, and answers the status. */
async function post(body: unknown, secret = TEST_APP_SECRET): Promise<number> {
  const status = await postSignedWebhook(h, body as object, secret);
  await h.app.webhookInbox.drain();
  return status;
}

const A = () => h.a.companyId;
const optOutsOf = async (userId: string) =>
  (await sql<{ phone_number: string | null; user_id: string | null; source: string; keyword: string | null; applies_to: string }>`
    select phone_number, user_id, source, keyword, applies_to from opt_outs where company_id = ${A()} and user_id = ${userId}`.execute(h.store.db)).rows;

test('every built 2026 body is accepted, stored and applied', async () => {
  assert.ok(FIXTURES.length >= 12, `fixtures found: ${FIXTURES.join(', ')}`);
  const before = (await sql<{ n: number }>`select count(*)::int as n from webhook_events`.execute(h.store.db)).rows[0].n;
  for (const name of FIXTURES) assert.equal(await post(fixture(name)), 200, name);
  const states = await sql<{ state: string; n: number }>`select state, count(*)::int as n from webhook_events group by state`.execute(h.store.db);
  assert.deepEqual(states.rows, [{ state: 'APPLIED', n: before + FIXTURES.length }]);
});

test('a body whose signature does not match is refused and nothing is stored', async () => {
  const before = (await sql<{ n: number }>`select count(*)::int as n from webhook_events`.execute(h.store.db)).rows[0].n;
  assert.equal(await post(fixture('inbound_text_stop_username_no_phone.json'), 'not-the-app-secret'), 401);
  assert.equal((await sql<{ n: number }>`select count(*)::int as n from webhook_events`.execute(h.store.db)).rows[0].n, before);
});

test('a STOP from a username user with no phone number opts out the BSUID', async () => {
  const body = fixture('inbound_text_stop_username_no_phone.json');
  const message = body.entry[0].changes[0].value.messages[0];
  message.from_user_id = 'TR.1000000000000000001';
  body.entry[0].changes[0].value.contacts[0].user_id = 'TR.1000000000000000001';
  assert.equal(await post(body), 200);
  assert.deepEqual(await optOutsOf('TR.1000000000000000001'), [
    { phone_number: null, user_id: 'TR.1000000000000000001', source: 'inbound_keyword', keyword: 'STOP', applies_to: 'all' },
  ]);
});

test('a quick-reply "Stop" from a username user opts out the BSUID', async () => {
  const body = fixture('inbound_button_stop_username.json');
  body.entry[0].changes[0].value.messages[0].from_user_id = 'TR.1000000000000000002';
  body.entry[0].changes[0].value.contacts[0].user_id = 'TR.1000000000000000002';
  assert.equal(await post(body), 200);
  assert.equal((await optOutsOf('TR.1000000000000000002'))[0]?.keyword, 'STOP');
});

test('an inbound message naming a phone number and a BSUID links them, with the parent BSUID', async () => {
  assert.equal(await post(fixture('inbound_text_phone_and_bsuid.json')), 200);
  const link = await findRecipientLink(h.store.db, A(), 'TR.13491208655302741918');
  assert.equal(link?.phone_number, '+905551230001');
  assert.equal(link?.parent_user_id, 'TR.ENT.11815799212886844830');
  assert.equal(await findRecipientLink(h.store.db, h.b.companyId, 'TR.13491208655302741918'), undefined);
});

test('a STOP carrying a BSUID opts out the phone number linked to it too', async () => {
  const body = fixture('inbound_text_phone_and_bsuid.json');
  const value = body.entry[0].changes[0].value;
  Object.assign(value.messages[0], { from: '905551230011', from_user_id: 'TR.1000000000000000011', text: { body: 'stop' } });
  Object.assign(value.contacts[0], { wa_id: '905551230011', user_id: 'TR.1000000000000000011' });
  assert.equal(await post(body), 200);
  const found = await findSuppressedRecipients(h.store.db, A(), { phones: ['+905551230011'], userIds: ['TR.1000000000000000011'] });
  assert.equal(found.phones.get('+905551230011')?.kind, 'opted_out');
  assert.equal(found.userIds.get('TR.1000000000000000011')?.kind, 'opted_out');
});

test('the answer to a contact request links the shared number to the sender’s BSUID', async () => {
  const body = fixture('inbound_contacts_contact_request.json');
  body.entry[0].changes[0].value.messages[0].from_user_id = 'TR.1000000000000000021';
  body.entry[0].changes[0].value.contacts[0].user_id = 'TR.1000000000000000021';
  assert.equal(await post(body), 200);
  const link = await findRecipientLink(h.store.db, A(), 'TR.1000000000000000021');
  assert.equal(link?.phone_number, '+905551230077');
  assert.equal(link?.source, 'contact_request');
  assert.equal(link?.username, 'deniz.k');
});

test('a contact card the user forwards (no contact_request origin) links nothing', async () => {
  const body = fixture('inbound_contacts_contact_request.json');
  const message = body.entry[0].changes[0].value.messages[0];
  message.from_user_id = 'TR.1000000000000000022';
  delete message.origin;
  delete message.contacts[0].origin;
  assert.equal(await post(body), 200);
  assert.equal(await findRecipientLink(h.store.db, A(), 'TR.1000000000000000022'), undefined);
});

/** A bulk send's messages to these numbers, each once handed off (its wamid known). */
async function handedOff(numbers: string[]): Promise<Map<string, { id: string; ext_id: string }>> {
  const wizardId = await startV1(h, { message_template_id: template, channel_id: SIM_CHANNEL_IDS.main, total_time: 0, rows: v1Rows(numbers) });
  return eventually(async () => {
    const rows = (await sql<{ id: string; phone_number: string; ext_id: string | null }>`
      select id, phone_number, ext_id from messages where send_wizard_id = ${wizardId}`.execute(h.store.db)).rows;
    return rows.length === numbers.length && rows.every((r) => r.ext_id)
      ? new Map(rows.map((r) => [r.phone_number.slice(1), { id: r.id, ext_id: r.ext_id! }]))
      : undefined;
  }, 20_000);
}

const messageIds = async (id: string) =>
  (await sql<{ status: string; user_id: string | null; parent_user_id: string | null; username: string | null }>`
    select status, user_id, parent_user_id, username from messages where id = ${id}`.execute(h.store.db)).rows[0];

test('statuses store the recipient’s BSUID, parent BSUID and username on the message and link the number', async () => {
  const sent = await handedOff(['905551231001']);
  const m = sent.get('905551231001')!;
  const s = fixture('status_sent_to_phone_with_bsuid.json');
  const v = s.entry[0].changes[0].value;
  Object.assign(v.statuses[0], { id: m.ext_id, recipient_id: '905551231001', recipient_user_id: 'TR.1000000000000001001' });
  Object.assign(v.contacts[0], { wa_id: '905551231001', user_id: 'TR.1000000000000001001' });
  assert.equal(await post(s), 200);
  assert.deepEqual(await messageIds(m.id), { status: 'BACKEND_DELIVERED', user_id: 'TR.1000000000000001001', parent_user_id: 'TR.ENT.11815799212886844830', username: null });
  const r = fixture('status_read_username_and_phone.json');
  const rv = r.entry[0].changes[0].value;
  Object.assign(rv.statuses[0], { id: m.ext_id, recipient_id: '905551231001', recipient_user_id: 'TR.1000000000000001001' });
  Object.assign(rv.contacts[0], { wa_id: '905551231001', user_id: 'TR.1000000000000001001' });
  assert.equal(await post(r), 200);
  assert.equal((await messageIds(m.id)).username, 'ayse.y');
  const link = await findRecipientLink(h.store.db, A(), 'TR.1000000000000001001');
  assert.equal(link?.phone_number, '+905551231001');
  assert.equal(link?.source, 'status_webhook');
  const raw = (await sql<{ webhook_response: Record<string, unknown> }>`select webhook_response from messages where id = ${m.id}`.execute(h.store.db)).rows[0];
  assert.equal('tms_contact' in raw.webhook_response, false, 'the stored webhook_response is the status as the network sent it');
});

test('a failed status with no contacts fails its message and links nothing', async () => {
  const sent = await handedOff(['905551231002']);
  const m = sent.get('905551231002')!;
  const f = fixture('status_failed_to_phone_no_contacts.json');
  Object.assign(f.entry[0].changes[0].value.statuses[0], { id: m.ext_id, recipient_id: '905551231002' });
  assert.equal(await post(f), 200);
  assert.deepEqual(await messageIds(m.id), { status: 'BACKEND_FAILED', user_id: null, parent_user_id: null, username: null });
});

test("a failed status beside another recipient's status with a contact takes neither its BSUID nor a link", async () => {
  const sent = await handedOff(['905551231004', '905551231005']);
  const ok = sent.get('905551231004')!;
  const failed = sent.get('905551231005')!;
  // One body as the network may batch it: the delivered status with its contact, and a failed one with none.
  const s = fixture('status_sent_to_phone_with_bsuid.json');
  const v = s.entry[0].changes[0].value;
  Object.assign(v.statuses[0], { id: ok.ext_id, recipient_id: '905551231004', recipient_user_id: 'TR.1000000000000001004' });
  Object.assign(v.contacts[0], { wa_id: '905551231004', user_id: 'TR.1000000000000001004' });
  const f = fixture('status_failed_to_phone_no_contacts.json').entry[0].changes[0].value.statuses[0];
  v.statuses.push({ ...f, id: failed.ext_id, recipient_id: '905551231005' });
  assert.equal(await post(s), 200);
  assert.equal((await messageIds(ok.id)).user_id, 'TR.1000000000000001004');
  assert.deepEqual(await messageIds(failed.id), { status: 'BACKEND_FAILED', user_id: null, parent_user_id: null, username: null });
  assert.equal((await findRecipientLink(h.store.db, A(), 'TR.1000000000000001004'))?.phone_number, '+905551231004');
});

test('a BSUID change (system message) moves the link, the opt-out and the messages', async () => {
  const sent = await handedOff(['905551231003']);
  const m = sent.get('905551231003')!;
  const s = fixture('status_sent_to_phone_with_bsuid.json');
  Object.assign(s.entry[0].changes[0].value.statuses[0], { id: m.ext_id, recipient_id: '905551231003', recipient_user_id: 'TR.1000000000000001003' });
  Object.assign(s.entry[0].changes[0].value.contacts[0], { wa_id: '905551231003', user_id: 'TR.1000000000000001003' });
  assert.equal(await post(s), 200);
  const stop = fixture('inbound_text_stop_username_no_phone.json');
  stop.entry[0].changes[0].value.messages[0].from_user_id = 'TR.1000000000000001003';
  stop.entry[0].changes[0].value.contacts[0].user_id = 'TR.1000000000000001003';
  assert.equal(await post(stop), 200);
  const change = fixture('system_user_changed_user_id.json');
  Object.assign(change.entry[0].changes[0].value.messages[0], { from_user_id: 'TR.1000000000000001003' });
  Object.assign(change.entry[0].changes[0].value.messages[0].system, { previous_user_id: 'TR.1000000000000001003', user_id: 'TR.2000000000000001003' });
  assert.equal(await post(change), 200);
  assert.equal(await findRecipientLink(h.store.db, A(), 'TR.1000000000000001003'), undefined);
  assert.equal((await findRecipientLink(h.store.db, A(), 'TR.2000000000000001003'))?.phone_number, '+905551231003');
  assert.equal((await optOutsOf('TR.2000000000000001003')).length, 1);
  assert.equal((await messageIds(m.id)).user_id, 'TR.2000000000000001003');
});

test('a user_id_update moves the link to the new BSUID', async () => {
  await post(fixture('inbound_text_phone_and_bsuid.json'));
  assert.equal(await post(fixture('user_id_update.json')), 200);
  assert.equal(await findRecipientLink(h.store.db, A(), 'TR.13491208655302741918'), undefined);
  assert.equal((await findRecipientLink(h.store.db, A(), 'TR.40417715380042913366'))?.phone_number, '+905551230001');
});

test('a marketing stop suppresses MARKETING templates only, and a resume lifts it', async () => {
  assert.equal(await post(fixture('user_preferences_stop.json')), 200);
  const ids = { phones: ['+905551230002'], userIds: ['TR.62220098874410087731'] };
  const marketing = await findSuppressedRecipients(h.store.db, A(), ids, { marketing: true });
  assert.equal(marketing.phones.get('+905551230002')?.reason, 'user_preferences');
  assert.equal(marketing.userIds.get('TR.62220098874410087731')?.reason, 'user_preferences');
  const other = await findSuppressedRecipients(h.store.db, A(), ids);
  assert.equal(other.phones.size + other.userIds.size, 0, 'utility and authentication templates still go');
  assert.equal(await post(fixture('user_preferences_resume.json')), 200);
  const after = await findSuppressedRecipients(h.store.db, A(), ids, { marketing: true });
  assert.equal(after.phones.size + after.userIds.size, 0);
});

test('a username user’s STOP stored but not applied before a crash is applied on the next drain', async () => {
  const body = fixture('inbound_text_stop_username_no_phone.json');
  body.entry[0].changes[0].value.messages[0].from_user_id = 'TR.1000000000000000091';
  body.entry[0].changes[0].value.contacts[0].user_id = 'TR.1000000000000000091';
  const id = await insertWebhookEvent(h.store.db, { body: JSON.stringify(body), phoneNumberId: bodyPhoneNumberId(body) }); // stored, never applied: as if the process died here
  assert.equal((await optOutsOf('TR.1000000000000000091')).length, 0);
  await h.app.webhookInbox.drain();
  const event = await h.store.db.selectFrom('webhook_events').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(event.state, 'APPLIED');
  assert.equal((await optOutsOf('TR.1000000000000000091'))[0]?.keyword, 'STOP');
});
