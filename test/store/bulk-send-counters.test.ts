import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { applyCounterMoves } from '../../src/engine/counters.js';
import { insertBulkSend } from '../../src/store/bulk-sends.js';
import type { MovedRow } from '../../src/store/message-moves.js';
import { createTestStore } from '../support/db.js';
import { StatementCounter } from '../support/statement-counter.js';

// A status batch holds the bodies of several channels, so its moves span several bulk sends: their counters are added
// in one statement (each bulk send its own deltas, completed when nothing is left unsettled), not one round trip each
// inside the batch's transaction.
let store: Awaited<ReturnType<typeof createTestStore>>;
let companyId: string;
const channelId = '100000000000779';

async function bulkSend(id: string, counts: { queued: number; awaiting: number; delivered: number }): Promise<void> {
  await insertBulkSend(store.db, { id, company_id: companyId, channel_id: channelId, template_id: 't1', template_name: 't', from_number: '+1', has_button: false, total_time: 0 });
  await sql`update send_wizards set status = 'RUNNING', summary = 10, queued = ${counts.queued}, processed_count = ${10 - counts.queued},
    awaiting_backend_count = ${counts.awaiting}, delivered_count = ${counts.delivered} where id = ${id}`.execute(store.db);
}

const counters = async (id: string) =>
  (await sql<{ status: string; queued: number; processed_count: number; awaiting_backend_count: number; delivered_count: number; finished: boolean }>`
    select status, queued, processed_count, awaiting_backend_count, delivered_count, finished_at is not null as finished
    from send_wizards where id = ${id}`.execute(store.db)).rows[0];

const moved = (send_wizard_id: string, old_status: string, old_rank: number, status: string, reached_rank: number, n = 1): MovedRow =>
  ({ id: null, send_wizard_id, old_status, old_rank, status, reached_rank, n }) as unknown as MovedRow;

before(async () => {
  store = await createTestStore();
  companyId = (await createCompany(store.db, 'Counters')).companyId;
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
});
after(() => store.cleanup());

test('a move spanning several bulk sends adds each one its own counter deltas in one statement', async () => {
  await bulkSend('ca', { queued: 0, awaiting: 5, delivered: 5 });
  await bulkSend('cb', { queued: 2, awaiting: 4, delivered: 4 });
  const counter = new StatementCounter();
  const statuses = await store.db.transaction().execute((tx) =>
    applyCounterMoves(tx.withPlugin(counter), [
      moved('cb', 'SENT_TO_BACKEND', 1, 'BACKEND_DELIVERED', 2, 3),
      moved('ca', 'SENT_TO_BACKEND', 1, 'BACKEND_DELIVERED', 2, 2),
      moved('cb', 'QUEUED', 0, 'SENT_TO_BACKEND', 1),
    ]),
  );
  assert.equal(counter.count, 1);
  assert.deepEqual([...statuses].sort(), [['ca', 'RUNNING'], ['cb', 'RUNNING']]);
  assert.deepEqual(await counters('ca'), { status: 'RUNNING', queued: 0, processed_count: 10, awaiting_backend_count: 3, delivered_count: 7, finished: false });
  assert.deepEqual(await counters('cb'), { status: 'RUNNING', queued: 1, processed_count: 9, awaiting_backend_count: 2, delivered_count: 7, finished: false });
});

test('a bulk send whose last unsettled rows settle in a move of several bulk sends completes; the others run on', async () => {
  await bulkSend('cc', { queued: 0, awaiting: 2, delivered: 8 });
  await bulkSend('cd', { queued: 0, awaiting: 2, delivered: 8 });
  const statuses = await store.db.transaction().execute((tx) =>
    applyCounterMoves(tx, [moved('cc', 'SENT_TO_BACKEND', 1, 'BACKEND_DELIVERED', 2, 2), moved('cd', 'SENT_TO_BACKEND', 1, 'BACKEND_DELIVERED', 2, 1)]),
  );
  assert.deepEqual([...statuses].sort(), [['cc', 'COMPLETED'], ['cd', 'RUNNING']]);
  assert.deepEqual(await counters('cc'), { status: 'COMPLETED', queued: 0, processed_count: 10, awaiting_backend_count: 0, delivered_count: 10, finished: true });
  assert.deepEqual(await counters('cd'), { status: 'RUNNING', queued: 0, processed_count: 10, awaiting_backend_count: 1, delivered_count: 9, finished: false });
});
