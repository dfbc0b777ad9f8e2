/**
 * Bulk-send lifecycle timings, a short separate run:
 *   npx tsx bench/lifecycle.ts [--rows 100000] [--pg postgres://…]
 * One bulk send of N QUEUED rows (no network): how long a user pause takes to park every row (one statement +
 * counters), a resume, re-queueing the parked rows (the dispatcher's maintenance rounds of 5,000), a schedule
 * activation, and a retry that copies the 10% failed rows out of N (with the "later message" exclusion).
 */
import { sql } from 'kysely';
import { createCompany } from '../src/admin.js';
import { newId } from '../src/domain/ids.js';
import { applyCounterMoves } from '../src/engine/counters.js';
import { activateDueSchedules, insertRetryRows, insertRetryBulkSend, markPausedByUser, resumeByUser } from '../src/store/bulk-lifecycle.js';
import { parkBulkSendRows, WITHDRAW_BATCH } from '../src/store/bulk-sends.js';
import { migrate, openDatabase } from '../src/store/db.js';
import { insertMessages } from '../src/store/message-inserts.js';
import { acceptBulkSend, insertBulkSend, listBulkSendsWithWaitingRows, queueWaitingRows } from '../src/store/bulk-sends.js';

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const ROWS = Number(arg('--rows') ?? 100_000);
const pgUrl = arg('--pg');

async function main() {
  const store = await openDatabase(pgUrl ? { databaseUrl: pgUrl } : { memory: true });
  const db = store.db;
  await migrate(db);
  const { companyId } = await createCompany(db, 'bench');
  const channelId = String(880000000000000 + Math.floor(Math.random() * 99999));
  await sql`insert into channels (id, company_id, waba_id, display_phone_number, access_token) values (${channelId}, ${companyId}, 'w', '+1', 'x')`.execute(db);
  const time = async <T>(label: string, fn: () => Promise<T>) => {
    const t = performance.now();
    const out = await fn();
    const ms = performance.now() - t;
    console.log(`${label.padEnd(58)} ${ms.toFixed(0).padStart(7)} ms  (${((ROWS / ms) * 1000).toFixed(0)} rows/s of ${ROWS})`);
    return out;
  };
  const makeWizard = async (scheduledAt: Date | null, prefix: string) => {
    const id = newId();
    await insertBulkSend(db, { id, company_id: companyId, channel_id: channelId, template_id: 't', template_name: 't', from_number: '+1', has_button: false, total_time: 3600 });
    for (let i = 0; i < ROWS; i += 5000) {
      await insertMessages(db, Array.from({ length: Math.min(5000, ROWS - i) }, (_, k) => ({
        id: newId(), company_id: companyId, channel_id: channelId, template_id: 't', waba_id: 'w', send_wizard_id: id, row_no: i + k + 1,
        phone_number: `+${prefix}${String(i + k).padStart(8, '0')}`, full_name: null, status: 'NONE' as const, payload: { to: 'x' }, due_at: new Date(),
      })));
    }
    await acceptBulkSend(db, id, ROWS, 0, scheduledAt);
    return id;
  };
  const queueAll = async () => {
    for (const bulkSendId of await listBulkSendsWithWaitingRows(db)) {
      let after = 0;
      for (let round = 0; round < 10_000; round += 1) {
        const { moved, lastRow } = await db.transaction().execute(async (tx) => {
          const q = await queueWaitingRows(tx, bulkSendId, after, 5000);
          await applyCounterMoves(tx, q.groups);
          return { moved: q.groups.reduce((s, x) => s + x.n, 0), lastRow: q.lastRow };
        });
        if (moved < 5000 || lastRow === null) break;
        after = lastRow;
      }
    }
  };

  console.log(`${pgUrl ? 'PostgreSQL' : 'PGlite (memory)'}, ${ROWS} rows`);
  const id = await makeWizard(null, '9055');
  await time('queue every row (maintenance rounds of 5,000)', queueAll);
  await time('user pause: mark + park every QUEUED row to NONE + counters (batches of 1,000)', async () => {
    await markPausedByUser(db, companyId, id);
    for (;;) {
      const parked = await db.transaction().execute(async (tx) => {
        const g = await parkBulkSendRows(tx, id);
        await applyCounterMoves(tx, g);
        return g.reduce((s, x) => s + x.n, 0);
      });
      if (parked < WITHDRAW_BATCH) break;
    }
  });
  await time('user resume (one statement)', () => resumeByUser(db, companyId, id));
  await time('re-queue the parked rows with their new spread', queueAll);

  const scheduled = await makeWizard(new Date(Date.now() + 1000), '9056');
  await new Promise((r) => setTimeout(r, 1100));
  await time('schedule activation (status-guarded UPDATE)', () => activateDueSchedules(db));
  await time('queue the activated rows with their spread', queueAll);
  void scheduled;

  // Retry: 10% of the first bulk send's rows failed with 131049.
  await sql`update messages set status = 'BACKEND_FAILED', error_message_detail = '131049: x' where send_wizard_id = ${id} and row_no % 10 = 0`.execute(db);
  await sql`update send_wizards set status = 'COMPLETED' where id = ${id}`.execute(db);
  const retryId = newId();
  const counts = await time(`retry: copy the ${ROWS / 10} failed rows (exclusion over the company)`, () =>
    db.transaction().execute(async (tx) => {
      await insertRetryBulkSend(tx, id, retryId, 0);
      return insertRetryRows(tx, { companyId, sourceId: id, newId: retryId, codes: [131049], startAt: new Date(), totalTime: 0 });
    }));
  console.log(`retry counts: ${JSON.stringify(counts)}`);
  await store.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
