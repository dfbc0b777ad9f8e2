import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { claimDueMessages } from '../../src/store/message-moves.js';
import { createTestStore } from '../support/db.js';

// A bulk send with total_time 0 gives every row the same due_at. The claim must read its batch from the index in
// (due_at, id) order and stop after `limit` rows, not sort the channel's whole backlog for every batch (the 1M-row
// soak saw 1.4-6 s per claim and 13 msg/s before migration 0013).
const BACKLOG = 20_000;
let store: Awaited<ReturnType<typeof createTestStore>>;
let channelId: string;

before(async () => {
  store = await createTestStore();
  const company = await createCompany(store.db, 'Claim order');
  channelId = '100000000000777';
  await addChannel(store.db, { companyId: company.companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at)
    select 'm' || lpad(g::text, 8, '0'), ${company.companyId}, ${channelId}, 't1', '1', '1555' || g, 'QUEUED', '{}'::jsonb,
           '2026-01-01T00:00:00Z'
    from generate_series(1, ${BACKLOG}) g`.execute(store.db);
  await sql`analyze messages`.execute(store.db);
});
after(() => store.cleanup());

test('the claim of a backlog with one due time reads its batch in order from the index, without sorting the backlog', async () => {
  const plan = await sql<{ 'QUERY PLAN': string }>`
    explain select id from messages
    where channel_id = ${channelId} and status in ('QUEUED') and due_at <= now()
    order by due_at, id limit 500 for update skip locked`.execute(store.db);
  const text = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  assert.match(text, /Index Scan using messages_due/, text);
  assert.doesNotMatch(text, /Sort/, text);
});

test('claimed batches come out in id order across calls, each one batch long', async () => {
  const first = await claimDueMessages(store.db, channelId, 'owner-1', 500, 60);
  const second = await claimDueMessages(store.db, channelId, 'owner-1', 500, 60);
  assert.equal(first.length, 500);
  assert.equal(second.length, 500);
  const ids = [...first, ...second].map((m) => m.id).sort();
  assert.equal(ids[0], 'm00000001');
  assert.equal(ids[999], 'm00001000');
});
