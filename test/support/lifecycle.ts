/** Helpers for the bulk-send lifecycle tests (schedule, pause/resume, retry). */
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { simAdmin, type Harness } from './harness.js';

/** Stored counters next to the same counters recomputed from the rows, in one statement (one snapshot). */
export async function countersSnapshot(h: Harness, id: string): Promise<Record<string, number>> {
  const result = await sql<Record<string, number>>`
    select w.summary, w.waiting, w.queued, w.processed_count, w.awaiting_backend_count, w.failed_count, w.delivered_count,
      w.sent_count, w.seen_count, w.cancelled_count,
      count(m.id)::int as rows,
      (count(*) filter (where m.status = 'NONE'))::int as r_waiting,
      (count(*) filter (where m.status in ('QUEUED', 'AGENDA', 'OPT_IN_SUCCESS')))::int as r_queued,
      (count(*) filter (where m.status not in ('NONE', 'QUEUED', 'CANCELLED')))::int as r_processed_count,
      (count(*) filter (where m.status = 'SENT_TO_BACKEND'))::int as r_awaiting_backend_count,
      (count(*) filter (where m.status in ('OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'SENT_TO_BACKEND_FAILED', 'BACKEND_FAILED')))::int as r_failed_count,
      (count(*) filter (where m.reached_rank >= 2))::int as r_delivered_count,
      (count(*) filter (where m.reached_rank >= 3))::int as r_sent_count,
      (count(*) filter (where m.reached_rank >= 4))::int as r_seen_count,
      (count(*) filter (where m.status = 'CANCELLED'))::int as r_cancelled_count
    from send_wizards w left join messages m on m.send_wizard_id = w.id
    where w.id = ${id} group by w.id`.execute(h.store.db);
  return result.rows[0];
}

/** Asserts every stored counter equals its count over the rows. */
export async function assertCountersExact(h: Harness, id: string): Promise<Record<string, number>> {
  const s = await countersSnapshot(h, id);
  assert.equal(s.summary, s.rows);
  for (const c of ['waiting', 'queued', 'processed_count', 'awaiting_backend_count', 'failed_count', 'delivered_count', 'sent_count', 'seen_count', 'cancelled_count']) {
    assert.equal(s[c], s[`r_${c}`], `${c}: stored ${s[c]}, rows say ${s[`r_${c}`]}`);
  }
  return s;
}

/** How many messages each number received at the simulator. */
export async function receivedCounts(h: Harness, numbers: string[]): Promise<number[]> {
  return Promise.all(numbers.map(async (n) => (await simAdmin(h, `/_sim/received?to=%2B${n}`)).messages.length));
}
