/**
 * On PostgreSQL a bulk send that starts now stores its rows QUEUED in the transaction that accepts it
 * (COPY on the transaction's own connection), so no NONE → QUEUED version is written and no claim sees a row before
 * the start is accepted; its counters say queued = summary from the answer on. PGlite (one connection: a long
 * transaction would block every reader) and scheduled sends store the rows waiting (NONE) as before.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { ANALYZE_AFTER_ROWS } from '../../src/engine/statistics-refresh.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { onPostgres } from '../support/db.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, startV1, v1Rows } from '../support/bulk.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// The FLAGGED channel holds its sends, so the stored rows stay as the start left them.
const flagged = SIM_CHANNEL_IDS.flagged;

test(`a bulk send that starts now stores its rows ${onPostgres ? 'QUEUED (version 0, counted queued at once)' : 'waiting (NONE) on PGlite'}`, async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { bulkBatchSize: 7 });
  const template = await approvedTemplate(h, flagged);
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(20, '9055740')), total_time: 0, channel_id: flagged });
  const item = await listItem(h, flagged, id);
  const rows = await sql<{ status: string; version: number; n: number }>`
    select status, version, count(*)::int as n from messages where send_wizard_id = ${id} group by 1, 2`.execute(h.store.db);
  if (onPostgres) {
    assert.deepEqual(rows.rows, [{ status: 'QUEUED', version: 0, n: 20 }]);
    assert.equal(item.queued, 20);
    assert.equal(item.waiting, 0);
  } else {
    // Stored NONE; the dispatcher's maintenance may already have queued some (one version each).
    assert.equal(rows.rows.reduce((s, r) => s + r.n, 0), 20);
    assert.ok(rows.rows.every((r) => (r.status === 'NONE' && r.version === 0) || (r.status === 'QUEUED' && r.version === 1)), JSON.stringify(rows.rows));
    assert.equal(item.queued + item.waiting, 20);
  }
});

test('a scheduled bulk send stores its rows waiting (NONE) on every database', async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  const template = await approvedTemplate(h, flagged);
  const at = new Date(Date.now() + 3600_000).toISOString();
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(5, '9055741')), total_time: 0, channel_id: flagged, scheduled_at: at });
  const rows = await sql<{ status: string; n: number }>`
    select status, count(*)::int as n from messages where send_wizard_id = ${id} group by 1`.execute(h.store.db);
  assert.deepEqual(rows.rows, [{ status: 'NONE', n: 5 }]);
  const item = await listItem(h, flagged, id);
  assert.equal(item.status, 'SCHEDULED');
  assert.equal(item.waiting, 5);
  assert.equal(item.queued, 0);
});

test(`a start of ${ANALYZE_AFTER_ROWS} rows ${onPostgres ? 'refreshes the planner statistics of messages (ANALYZE after the load)' : 'on PGlite leaves the statistics alone (one connection)'}`, async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  const template = await approvedTemplate(h, flagged);
  const statistics = async () =>
    (await sql<{ n: number }>`select count(*)::int as n from pg_stats where tablename = 'messages'`.execute(h!.store.db)).rows[0].n;
  assert.equal(await statistics(), 0, 'a new database has none');
  await startV1(h, { message_template_id: template, rows: v1Rows(phones(ANALYZE_AFTER_ROWS, '9055760')), total_time: 0, channel_id: flagged });
  if (onPostgres) {
    const deadline = Date.now() + 30_000;
    while ((await statistics()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    assert.ok((await statistics()) > 0, 'messages analysed after the load');
  } else {
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(await statistics(), 0);
  }
});
