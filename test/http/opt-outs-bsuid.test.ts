/**
 * The opt-out list by BSUID over HTTP: add, search, remove and CSV import take a business-scoped user id as well as
 * (or instead of) a phone number; a malformed BSUID is 400 naming user_id with nothing written; a removal takes the
 * linked identifiers' entries too; another company's entries look missing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { insertOptOut } from '../../src/store/opt-outs.js';
import { upsertRecipientLinks } from '../../src/store/recipient-links.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

const B = '/api/v1/opt-outs';
const count = async (companyId: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from opt_outs where company_id = ${companyId}`.execute(h.store.db)).rows[0].n;
const csv = (text: string) => h.call('POST', `${B}/import`, { body: text, headers: { 'content-type': 'text/csv' } });

test('add takes a BSUID alone: the entry has no phone number, source api', async () => {
  const res = await h.call('POST', B, { body: { user_id: 'TR.13491208655302741918', reason: 'asked in chat' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.created, true);
  assert.deepEqual({ ...res.body.data.opt_out, created_at: 'x' }, {
    phone_number: null, user_id: 'TR.13491208655302741918', source: 'api', applies_to: 'all', keyword: null, reason: 'asked in chat', channel_id: null, created_at: 'x',
  });
  const again = await h.call('POST', B, { body: { user_id: 'TR.13491208655302741918' } });
  assert.equal(again.body.data.created, false);
});

test('add takes a phone number and a BSUID together as one entry', async () => {
  const res = await h.call('POST', B, { body: { phone_number: '905558300013', user_id: 'TR.5550000000000000013' } });
  assert.equal(res.status, 200);
  assert.equal(res.body.data.opt_out.phone_number, '+905558300013');
  assert.equal(res.body.data.opt_out.user_id, 'TR.5550000000000000013');
});

test('a malformed BSUID is 400 naming user_id and nothing is written', async () => {
  const before = await count(h.a.companyId);
  for (const user_id of ['tr.1349', 'TR.', 'TR.ENT', 'TR-1349', 'TR.13 49']) {
    const res = await h.call('POST', B, { body: { user_id } });
    assert.equal(res.status, 400, user_id);
    assert.equal(res.body.errors[0].field, 'user_id', user_id);
  }
  const both = await h.call('POST', B, { body: { phone_number: '905558300023', user_id: 'nope' } });
  assert.equal(both.status, 400);
  assert.equal(both.body.errors[0].field, 'user_id');
  assert.equal(await count(h.a.companyId), before);
});

test('an add with neither a phone number nor a BSUID is 400 naming phone_number', async () => {
  const res = await h.call('POST', B, { body: { reason: 'who?' } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'phone_number');
});

test('the list searches BSUIDs by part, and another company sees none of them', async () => {
  await h.call('POST', B, { body: { user_id: 'BR.7770000000000000031' } });
  const res = await h.call('GET', `${B}?user_id=777000000000000003`);
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.items.map((i: { user_id: string }) => i.user_id), ['BR.7770000000000000031']);
  const other = await h.call('GET', `${B}?user_id=777000000000000003`, { token: h.b.token });
  assert.equal(other.body.pagination.total, 0);
  const bad = await h.call('GET', `${B}?user_id=${encodeURIComponent('77%')}`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'user_id');
});

test('remove takes a BSUID; a second remove, or another company’s, is 404; a malformed one 400 on user_id', async () => {
  await h.call('POST', B, { body: { user_id: 'BR.7770000000000000041' } });
  assert.equal((await h.call('DELETE', `${B}/BR.7770000000000000041`, { token: h.b.token })).status, 404);
  assert.equal((await h.call('DELETE', `${B}/BR.7770000000000000041`)).status, 200);
  assert.equal((await h.call('DELETE', `${B}/BR.7770000000000000041`)).status, 404);
  const bad = await h.call('DELETE', `${B}/br.77`);
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'user_id');
});

test('removing a phone number removes the opt-out of the BSUID the network linked to it', async () => {
  await upsertRecipientLinks(h.store.db, h.a.companyId, [{ phone_number: '+905558300051', user_id: 'TR.5550000000000000051', source: 'inbound_message' }]);
  await insertOptOut(h.store.db, h.a.companyId, { user_id: 'TR.5550000000000000051', source: 'inbound_keyword', keyword: 'STOP' });
  assert.equal((await h.call('DELETE', `${B}/905558300051`)).status, 200);
  assert.equal((await h.call('GET', `${B}?user_id=5550000000000000051`)).body.pagination.total, 0);
});

test('import takes a user_id column: BSUID lines stored, a malformed BSUID reported naming user_id', async () => {
  const res = await csv('user_id,phone_number,reason\nUS.6660000000000000061,,chat\nus.bad,,\n,905558300062,\nUS.6660000000000000063,905558300063,\nUS.6660000000000000061,,again\n');
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.data, {
    lines: 5, added: 3, already_listed: 1, invalid: 1,
    errors: [{ line: 3, message: 'user_id "us.bad": a user_id (BSUID) is a country code, a dot and the id, e.g. US.13491208655302741918 (a parent BSUID: US.ENT.11815799212886844830)' }],
  });
  const listed = await h.call('GET', `${B}?user_id=6660000000000000063`);
  assert.equal(listed.body.items[0].phone_number, '+905558300063');
});

test('import with only a user_id column reads BSUIDs; a header with neither column is 400 and writes nothing', async () => {
  const ok = await csv('user_id\nMX.8880000000000000071\n');
  assert.equal(ok.body.data.added, 1);
  const before = await count(h.a.companyId);
  const bad = await csv('name,reason\nAna,x\n');
  assert.equal(bad.status, 400);
  assert.equal(bad.body.errors[0].field, 'file');
  assert.equal(await count(h.a.companyId), before);
});
