import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { GroupInserter } from '../../src/engine/single-send.js';
import type { NewMessage } from '../../src/store/message-inserts.js';
import { createTestStore } from '../support/db.js';
import { StatementCounter } from '../support/statement-counter.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000888';

const row = (i: number, id = `g${String(i).padStart(8, '0')}`): NewMessage => ({
  id, company_id: companyId, channel_id: channelId, template_id: 't1', waba_id: '1', send_wizard_id: null, row_no: null,
  phone_number: `+1555000${String(i).padStart(4, '0')}`, full_name: null, status: 'QUEUED', payload: {}, due_at: new Date(),
});

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Group insert')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
});
after(() => store.cleanup());

test('single sends that arrive together are stored by one insert statement each group, every one committed', async () => {
  const counter = new StatementCounter();
  const inserter = new GroupInserter(store.db.withPlugin(counter));
  await Promise.all(Array.from({ length: 40 }, (_, i) => inserter.insert(row(i))));
  const stored = await sql<{ n: number }>`select count(*)::int as n from messages where id like 'g%'`.execute(store.db);
  assert.equal(stored.rows[0].n, 40);
  // The first row goes alone (nothing was running), the 39 that arrived meanwhile go together.
  assert.equal(counter.count, 2);
});

test('a row the database refuses fails alone; the others of its group are stored', async () => {
  const inserter = new GroupInserter(store.db);
  const results = await Promise.allSettled([
    inserter.insert(row(100)),
    inserter.insert(row(101)),
    inserter.insert(row(102, 'g00000000')), // the id of a row stored by the test above
    inserter.insert(row(103)),
  ]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  const stored = await sql<{ id: string }>`select id from messages where id in ('g00000100', 'g00000101', 'g00000103') order by id`.execute(store.db);
  assert.equal(stored.rows.length, 3);
});
