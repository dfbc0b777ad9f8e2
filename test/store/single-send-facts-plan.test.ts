import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { hashToken } from '../../src/domain/tokens.js';
import { findSingleSendFacts } from '../../src/store/single-sends.js';
import { createTestStore } from '../support/db.js';
import { capturedStatements, explainAnalyze } from '../support/plans.js';

// The single sends' facts read takes a group of requests in one statement: each request's channel, token, template,
// opt-outs and links must be probed by index, whatever the planner's statistics say (none gathered here).
let store: Awaited<ReturnType<typeof createTestStore>>;
let company: { companyId: string; token: string };
const channelId = '100000000000893';
const ROWS = 20_000;

before(async () => {
  store = await createTestStore();
  company = await createCompany(store.db, 'Facts plan');
  await addChannel(store.db, { companyId: company.companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
  const id = company.companyId;
  await sql`insert into channels (id, company_id, waba_id, access_token) select (200000000000000 + g)::text, ${id}, '1', 'x' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`insert into api_tokens (id, company_id, token_hash, name) select 'tk-' || g, ${id}, md5(g::text), '' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`
    insert into recipient_links (company_id, user_id, phone_number, source)
    select ${id}, 'US.' || g, '+1555' || lpad(g::text, 7, '0'), 'status_webhook' from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`
    insert into opt_outs (company_id, phone_number, applies_to, source)
    select ${id}, '+1555' || lpad(g::text, 7, '0'), 'all', 'api' from generate_series(${ROWS}::int, ${2 * ROWS}::int) g`.execute(store.db);
});
after(() => store.cleanup());

test("a group of single sends' facts is read by index probes, never a scan of a table", async () => {
  const asks = Array.from({ length: 16 }, (_, i) => ({
    companyId: company.companyId, channelId, templateId: 't', ids: { phone: `+1555${String(1000 + i).padStart(7, '0')}`, userId: null }, tokenHash: hashToken(company.token),
  }));
  const answers = await findSingleSendFacts(store.db, asks);
  assert.equal(answers.length, 16);
  assert.equal(typeof answers[3] === 'object' && answers[3].linkedUserId, 'US.1003');
  const [statement] = await capturedStatements(store.db, (db) => findSingleSendFacts(db, asks));
  const plan = await explainAnalyze(store.db, statement);
  assert.doesNotMatch(plan, /Seq Scan/, plan);
});
