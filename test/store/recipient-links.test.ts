/**
 * Recipient links and opt-outs by BSUID at the SQL level: a link records that a phone number and a BSUID are one
 * person for one company; an opt-out on either identifier suppresses the other; a BSUID change moves links,
 * opt-outs and messages.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { createCompany } from '../../src/admin.js';
import { deleteOptOutsOfRecipient, findSuppressed, findSuppressedRecipients, insertOptOut, insertOptOuts, moveOptOutUserId } from '../../src/store/opt-outs.js';
import { findPhonesOfUserIds, findRecipientLink, findUserIdsOfPhones, moveRecipientLink, upsertRecipientLinks } from '../../src/store/recipient-links.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let a: string;
let b: string;
before(async () => {
  store = await createTestStore();
  a = (await createCompany(store.db, 'Links A')).companyId;
  b = (await createCompany(store.db, 'Links B')).companyId;
});
after(() => store.cleanup());

test('a recorded link resolves both ways, for its company only', async () => {
  await upsertRecipientLinks(store.db, a, [{ phone_number: '+905550000001', user_id: 'TR.1001', source: 'status_webhook' }]);
  assert.equal((await findUserIdsOfPhones(store.db, a, ['+905550000001'])).get('+905550000001'), 'TR.1001');
  assert.equal((await findPhonesOfUserIds(store.db, a, ['TR.1001'])).get('TR.1001'), '+905550000001');
  assert.equal((await findUserIdsOfPhones(store.db, b, ['+905550000001'])).size, 0);
  assert.equal((await findPhonesOfUserIds(store.db, b, ['TR.1001'])).size, 0);
});

test('a second sighting keeps the parent BSUID and username it does not carry, and the first learned_at', async () => {
  await upsertRecipientLinks(store.db, a, [{ phone_number: '+905550000002', user_id: 'TR.1002', parent_user_id: 'TR.ENT.9', username: 'ayse', source: 'inbound_message' }]);
  const first = await findRecipientLink(store.db, a, 'TR.1002');
  await upsertRecipientLinks(store.db, a, [{ phone_number: '+905550000003', user_id: 'TR.1002', source: 'status_webhook' }]);
  const link = await findRecipientLink(store.db, a, 'TR.1002');
  assert.equal(link?.phone_number, '+905550000003');
  assert.equal(link?.parent_user_id, 'TR.ENT.9');
  assert.equal(link?.username, 'ayse');
  assert.equal(link?.learned_at.getTime(), first?.learned_at.getTime());
});

test('an opt-out by BSUID suppresses the linked phone number, and one by phone number the linked BSUID', async () => {
  await upsertRecipientLinks(store.db, a, [
    { phone_number: '+905550000011', user_id: 'TR.1011', source: 'inbound_message' },
    { phone_number: '+905550000012', user_id: 'TR.1012', source: 'inbound_message' },
  ]);
  await insertOptOut(store.db, a, { user_id: 'TR.1011', source: 'inbound_keyword', keyword: 'STOP' });
  await insertOptOut(store.db, a, { phone_number: '+905550000012', source: 'api' });
  const found = await findSuppressedRecipients(store.db, a, { phones: ['+905550000011', '+905550000099'], userIds: ['TR.1012', 'TR.1099'] });
  assert.deepEqual([...found.phones.keys()], ['+905550000011']);
  assert.equal(found.phones.get('+905550000011')?.keyword, 'STOP');
  assert.deepEqual([...found.userIds.keys()], ['TR.1012']);
  assert.equal((await findSuppressed(store.db, a, ['+905550000011'])).get('+905550000011')?.kind, 'opted_out');
  const other = await findSuppressedRecipients(store.db, b, { phones: ['+905550000011'], userIds: ['TR.1011', 'TR.1012'] });
  assert.equal(other.phones.size + other.userIds.size, 0, "company B is not suppressed by A's opt-outs");
});

test('a marketing-only opt-out suppresses a MARKETING send only', async () => {
  await insertOptOut(store.db, a, { user_id: 'TR.1021', source: 'user_preferences', applies_to: 'marketing' });
  assert.equal((await findSuppressedRecipients(store.db, a, { phones: [], userIds: ['TR.1021'] })).userIds.size, 0);
  assert.equal((await findSuppressedRecipients(store.db, a, { phones: [], userIds: ['TR.1021'] }, { marketing: true })).userIds.size, 1);
});

test('one entry per phone number and one per BSUID: a repeat of either is not added again', async () => {
  assert.ok(await insertOptOut(store.db, a, { phone_number: '+905550000031', user_id: 'TR.1031', source: 'inbound_keyword' }));
  assert.equal(await insertOptOut(store.db, a, { user_id: 'TR.1031', source: 'api' }), undefined);
  assert.equal(await insertOptOut(store.db, a, { phone_number: '+905550000031', source: 'api' }), undefined);
  assert.equal(await insertOptOuts(store.db, a, [{ user_id: 'TR.1031', source: 'import' }, { user_id: 'TR.1032', source: 'import' }]), 1);
});

test('an opt-out needs a phone number or a BSUID', async () => {
  await assert.rejects(insertOptOut(store.db, a, { source: 'api' }), /opt_outs_has_recipient/);
});

test('removing a recipient removes the entries of its linked identifiers too', async () => {
  await upsertRecipientLinks(store.db, a, [{ phone_number: '+905550000041', user_id: 'TR.1041', source: 'contact_request' }]);
  await insertOptOut(store.db, a, { user_id: 'TR.1041', source: 'inbound_keyword' });
  assert.equal(await deleteOptOutsOfRecipient(store.db, a, { phone_number: '+905550000041', user_id: null }), 1);
  assert.equal((await findSuppressed(store.db, a, ['+905550000041'])).size, 0);
});

test('a BSUID change moves its link and its opt-out', async () => {
  await upsertRecipientLinks(store.db, a, [{ phone_number: '+905550000051', user_id: 'TR.1051', username: 'mert', source: 'inbound_message' }]);
  await insertOptOut(store.db, a, { user_id: 'TR.1051', source: 'inbound_keyword' });
  assert.equal(await moveRecipientLink(store.db, a, 'TR.1051', 'TR.2051', null), true);
  assert.equal(await moveOptOutUserId(store.db, a, 'TR.1051', 'TR.2051'), true);
  assert.equal(await findRecipientLink(store.db, a, 'TR.1051'), undefined);
  const moved = await findRecipientLink(store.db, a, 'TR.2051');
  assert.equal(moved?.phone_number, '+905550000051');
  assert.equal(moved?.username, 'mert');
  assert.equal(moved?.source, 'user_id_update');
  assert.equal((await findSuppressedRecipients(store.db, a, { phones: [], userIds: ['TR.2051'] })).userIds.get('TR.2051')?.kind, 'opted_out');
  assert.equal((await findSuppressed(store.db, a, ['+905550000051'])).size, 1);
  assert.equal(await moveRecipientLink(store.db, b, 'TR.2051', 'TR.3051', null), false, "company B cannot move A's link");
});

test('messages columns for the BSUID, parent BSUID and username exist and are nullable', async () => {
  const cols = await sql<{ column_name: string; is_nullable: string }>`
    select column_name, is_nullable from information_schema.columns
    where table_name = 'messages' and column_name in ('user_id', 'parent_user_id', 'username') order by column_name`.execute(store.db);
  assert.deepEqual(cols.rows, [
    { column_name: 'parent_user_id', is_nullable: 'YES' },
    { column_name: 'user_id', is_nullable: 'YES' },
    { column_name: 'username', is_nullable: 'YES' },
  ]);
});
