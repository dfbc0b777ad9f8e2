import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany, createToken, revokeToken } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { hashToken } from '../../src/domain/tokens.js';
import { findSingleSendFacts, insertSingleSendsIfUnchanged, type RecheckedSingleSend, type SingleSendFacts } from '../../src/store/single-sends.js';
import { createTestStore } from '../support/db.js';
import { capturedStatements, explainAnalyze, explainAnalyzeGeneric } from '../support/plans.js';

// A single send decided on facts read before is stored only while they hold: the channel and template rows are the
// versions it was checked against, the token is live, the recipient is not opted out.
let store: Awaited<ReturnType<typeof createTestStore>>;
let company: { companyId: string; token: string };
const channelId = '100000000000894';
const templateId = 'tpl-recheck';
const ROWS = 20_000;
let next = 0;

const facts = async (phone = '+15550000000'): Promise<SingleSendFacts> => {
  const [answer] = await findSingleSendFacts(store.db, [{ companyId: company.companyId, channelId, templateId, ids: { phone, userId: null } }]);
  assert.ok(typeof answer === 'object' && answer.template);
  return answer;
};
const send = (f: SingleSendFacts, phone: string, tokenHash?: string): RecheckedSingleSend => ({
  row: {
    id: `rc${String((next += 1)).padStart(8, '0')}`, company_id: company.companyId, channel_id: channelId, template_id: templateId, waba_id: '1',
    send_wizard_id: null, row_no: null, phone_number: phone, full_name: null, status: 'QUEUED', payload: {}, due_at: new Date(),
  },
  versions: { channel: f.versions.channel, template: f.versions.template! },
  tokenHash,
});

before(async () => {
  store = await createTestStore();
  company = await createCompany(store.db, 'Recheck');
  await addChannel(store.db, { companyId: company.companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
  await sql`
    insert into templates (id, company_id, channel_id, waba_id, name, language, category, status, components)
    values (${templateId}, ${company.companyId}, ${channelId}, '1', 'recheck', 'en_US', 'MARKETING', 'APPROVED', '[]'::jsonb)`.execute(store.db);
});
after(() => store.cleanup());

test('rows whose channel and template are unchanged are stored; after a change to either, none is', async () => {
  const known = await facts();
  assert.deepEqual(await insertSingleSendsIfUnchanged(store.db, [send(known, '+15550000001'), send(known, '+15550000002')]), [true, true]);
  await sql`update templates set quality_score = 'GREEN' where id = ${templateId}`.execute(store.db);
  assert.deepEqual(await insertSingleSendsIfUnchanged(store.db, [send(known, '+15550000003')]), [false]);
  const again = await facts();
  await sql`update channels set verified_name = 'Renamed' where id = ${channelId}`.execute(store.db);
  assert.deepEqual(await insertSingleSendsIfUnchanged(store.db, [send(again, '+15550000004')]), [false]);
  const stored = await sql<{ n: number }>`select count(*)::int as n from messages where channel_id = ${channelId}`.execute(store.db);
  assert.equal(stored.rows[0].n, 2);
});

test('in one statement, a revoked token and an opted-out recipient are refused alone', async () => {
  const known = await facts();
  const revoked = await createToken(store.db, company.companyId, 'revoked');
  await revokeToken(store.db, revoked.tokenId);
  await sql`insert into opt_outs (company_id, phone_number, applies_to, source) values (${company.companyId}, '+15550000013', 'marketing', 'api')`.execute(store.db);
  const stored = await insertSingleSendsIfUnchanged(store.db, [
    send(known, '+15550000011', hashToken(company.token)),
    send(known, '+15550000012', hashToken(revoked.token)),
    send(known, '+15550000013', hashToken(company.token)),
    send(known, '+15550000014'),
  ]);
  assert.deepEqual(stored, [true, false, false, true]);
});

test('another company cannot store a row on the channel with its versions', async () => {
  const known = await facts();
  const other = await createCompany(store.db, 'Recheck other');
  const row = send(known, '+15550000021');
  row.row.company_id = other.companyId;
  assert.deepEqual(await insertSingleSendsIfUnchanged(store.db, [row]), [false]);
});

test('the recheck probes by index, never a scan of a table, with its parameters and as a prepared statement', async () => {
  const id = company.companyId;
  await sql`insert into channels (id, company_id, waba_id, access_token) select (300000000000000 + g)::text, ${id}, '1', 'x' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`insert into api_tokens (id, company_id, token_hash, name) select 'rk-' || g, ${id}, md5(g::text), '' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`
    insert into templates (id, company_id, channel_id, waba_id, name, language, category, status, components)
    select 'rt-' || g, ${id}, ${channelId}, '1', 'n' || g, 'en_US', 'UTILITY', 'APPROVED', '[]'::jsonb from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`
    insert into opt_outs (company_id, phone_number, applies_to, source)
    select ${id}, '+1666' || lpad(g::text, 7, '0'), 'all', 'api' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  const known = await facts();
  const sends = Array.from({ length: 16 }, (_, i) => send(known, `+1555${String(1000 + i).padStart(7, '0')}`, hashToken(company.token)));
  const [statement] = await capturedStatements(store.db, (db) => insertSingleSendsIfUnchanged(db, sends));
  // Captured by running it: its rows go, so that each plan below stores them again (and is rolled back).
  await sql`delete from messages where id = any(${sends.map((s) => s.row.id)}::text[])`.execute(store.db);
  for (const explain of [explainAnalyze, explainAnalyzeGeneric]) {
    await store.db.transaction().execute(async (tx) => {
      const plan = await explain(tx, statement);
      assert.doesNotMatch(plan, /Seq Scan/, plan);
      throw new Error('rolled back');
    }).catch((error: Error) => assert.equal(error.message, 'rolled back'));
  }
});
