import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { insertBulkSend, listBulkSendsWithWaitingRows, queueWaitingRows } from '../../src/store/bulk-sends.js';
import { createTestStore } from '../support/db.js';
import { capturedStatements, explainAnalyze } from '../support/plans.js';

// A started bulk send's stored rows are queued in short statements from a cursor. Each statement must read only the
// rows it queues: the statement that read and sorted every waiting row of the list held PGlite's one connection for
// seconds per batch after a large start, so every report read waited behind it.
const ROWS = 6_000;
let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000778';

async function wizardWithWaitingRows(id: string, status: string): Promise<void> {
  await insertBulkSend(store.db, { id, company_id: companyId, channel_id: channelId, template_id: 't1', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, phone_number, status, payload)
    select ${id} || lpad(g::text, 8, '0'), ${companyId}, ${channelId}, 't1', '1', ${id}, g, '1555' || g, 'NONE', '{"to":"x"}'::jsonb
    from generate_series(1, ${ROWS}::int) g`.execute(store.db);
  await sql`update send_wizards set status = ${status}, summary = ${ROWS}, waiting = ${ROWS} where id = ${id}`.execute(store.db);
}

const statusesByRow = async (id: string) =>
  (await sql<{ row_no: number; status: string }>`select row_no, status from messages where send_wizard_id = ${id} order by row_no`.execute(store.db)).rows;

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Queueing')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
  await wizardWithWaitingRows('qa', 'RUNNING');
  await wizardWithWaitingRows('qp', 'PENDING');
  await wizardWithWaitingRows('qx', 'RUNNING');
});
after(() => store.cleanup());

test('only started bulk sends with waiting rows are listed for queueing', async () => {
  assert.deepEqual(await listBulkSendsWithWaitingRows(store.db), ['qa', 'qx']);
});

test('a queueing statement takes the next rows after the cursor, in row order, and names the last', async () => {
  const first = await queueWaitingRows(store.db, 'qa', 0, 1000);
  assert.equal(first.lastRow, 1000);
  assert.deepEqual(first.groups.map((g) => [g.send_wizard_id, g.old_status, g.status, g.n]), [['qa', 'NONE', 'QUEUED', 1000]]);
  const second = await queueWaitingRows(store.db, 'qa', 1000, 1000);
  assert.equal(second.lastRow, 2000);
  const rows = await statusesByRow('qa');
  assert.ok(rows.slice(0, 2000).every((r) => r.status === 'QUEUED'));
  assert.ok(rows.slice(2000).every((r) => r.status === 'NONE'));
});

test('from the first row again, a row waiting before the cursor is queued', async () => {
  await sql`update messages set status = 'NONE' where send_wizard_id = 'qa' and row_no = 5`.execute(store.db);
  const again = await queueWaitingRows(store.db, 'qa', 0, 10);
  assert.equal(again.lastRow, 2009);
  assert.equal((await statusesByRow('qa'))[4].status, 'QUEUED');
});

test('a bulk send that is not started queues nothing', async () => {
  const none = await queueWaitingRows(store.db, 'qp', 0, 1000);
  assert.deepEqual(none, { groups: [], lastRow: null });
  assert.ok((await statusesByRow('qp')).every((r) => r.status === 'NONE'));
});

test('a queueing statement reads only the rows it queues, however many wait after them', async () => {
  // The real statement, captured as it is sent, then run again under EXPLAIN ANALYZE (rolled back).
  const [compiled] = await capturedStatements(store.db, (db) => queueWaitingRows(db, 'qx', 0, 100));
  let plan = '';
  await store.db.transaction().execute(async (tx) => {
    plan = await explainAnalyze(tx, compiled);
    await sql`rollback`.execute(tx).catch(() => undefined);
    throw new Error('rolled back');
  }).catch((error: Error) => assert.equal(error.message, 'rolled back'));
  const scans = [...plan.matchAll(/Scan[^\n]* on messages m[^\n]*\(actual rows=([\d.]+)/g)].map((m) => Number(m[1]));
  assert.ok(scans.length > 0, plan);
  assert.ok(scans.every((n) => n <= 100), plan);
  assert.doesNotMatch(plan, /Sort/, plan);
});
