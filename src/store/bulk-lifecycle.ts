/**
 * SQL for the bulk-send lifecycle beyond start and stop: schedules that activate, the user's pause and resume,
 * and new bulk sends made from the failed rows of a finished one (docs/bulk-send-lifecycle.md).
 * Lock order (README): rows first in id order, then the bulk send; no row is locked after a bulk send.
 */
import { sql, type Kysely } from 'kysely';
import { BULK_SEND_MOVES, STORING_STATUS } from '../domain/bulk-send-states.js';
import { MESSAGE_MOVES, WAITING_STATUS } from '../domain/message-moves.js';
import { FAILED_STATUSES, type MessageStatus } from '../domain/message-states.js';
import { state, states, type MovedRow } from './message-moves.js';
import type { Database } from './schema.js';
import type { BulkSendRow } from './bulk-sends.js';

type Db = Kysely<Database>;

const { activate, userPause, userResume, userResumeHeld, stop } = BULK_SEND_MOVES;
const { parkLeased, cancelLeased, failHandOff, cancelWaiting } = MESSAGE_MOVES;

/**
 * SCHEDULED bulk sends whose time has come start RUNNING, their spread from now (any instance; the status
 * guard in the UPDATE makes each activation happen exactly once). Returns the activated ids.
 */
export async function activateDueSchedules(db: Db, limit = 100): Promise<string[]> {
  const result = await sql<{ id: string }>`
    update send_wizards w set status = ${state(activate.to)}, started_at = now(), spread_from = now(), spread_seconds = w.total_time,
      spread_first_row = 1, window_ends_at = now() + make_interval(secs => w.total_time), updated_at = now()
    where w.id in (select id from send_wizards where status in (${states(activate.from)}) and scheduled_at <= now()
                   order by id limit ${limit} for update skip locked)
      and w.status in (${states(activate.from)})
    returning w.id`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * The user pauses a bulk send: RUNNING or PAUSED (by the service; its reason is kept) → PAUSED_BY_USER.
 * Locks only the bulk send. Returns the status found and whether it moved (undefined: not the company's).
 */
export async function markPausedByUser(db: Db, companyId: string, id: string): Promise<{ before: string; paused: boolean } | undefined> {
  const result = await sql<{ before: string; paused: boolean }>`
    with cur as (select id, status from send_wizards where id = ${id} and company_id = ${companyId} for update),
    upd as (update send_wizards w set status = ${state(userPause.to)}, user_paused_at = now(), updated_at = now()
            from cur where w.id = cur.id and cur.status in (${states(userPause.from)}) returning w.id)
    select cur.status as before, exists (select 1 from upd) as paused from cur`.execute(db);
  return result.rows[0];
}

/**
 * Rows this owner just claimed whose bulk send the user paused meanwhile go back to NONE, those of a bulk send
 * stopped meanwhile become CANCELLED (the claim's own transaction, rows already locked by it): a row requeued after
 * a refused attempt is never sent while paused or after a stop.
 */
export async function withdrawClaimedRows(db: Db, owner: string, ids: string[]): Promise<MovedRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<MovedRow>`
    with t as (select m.id, m.status as old_status, m.reached_rank as old_rank, w.status = ${state(stop.to)} as stopped
               from messages m join send_wizards w on w.id = m.send_wizard_id
               where m.id = any(${ids}::text[]) and m.lease_owner = ${owner} and m.send_attempted_at is null
                 and ((w.status = ${state(userPause.to)} and m.status in (${states(parkLeased.from)}))
                      or (w.status = ${state(stop.to)} and m.status in (${states(cancelLeased.from)})))
               order by m.id for update of m)
    update messages m set status = case when t.stopped then ${state(cancelLeased.to)} else ${state(parkLeased.to)} end,
      lease_owner = null, lease_until = null, updated_at = now(), version = m.version + 1
    from t where m.id = t.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/** Gives back the tier slots reserved for a bulk send's rows that wait again (they take one when they go). */
export async function releaseParkedSlots(db: Db, bulkSendId: string): Promise<void> {
  await sql`
    delete from tier_recipients t using messages m
    where t.pending_message_id = m.id and m.send_wizard_id = ${bulkSendId} and m.status = ${state(WAITING_STATUS)}`.execute(db);
}

/**
 * The user resumes a PAUSED_BY_USER bulk send: back to PAUSED when the service's reason was held at the pause
 * (the service lifts it when rows go out again), else RUNNING. The rest of the total_time window (frozen at the
 * pause) restarts now: the waiting rows are spread over it from the first waiting row. Undefined when the bulk
 * send was not paused by the user.
 */
export async function resumeByUser(db: Db, companyId: string, id: string): Promise<{ status: string; paused_reason: string | null; window_seconds: number } | undefined> {
  const result = await sql<{ status: string; paused_reason: string | null; window_seconds: number }>`
    with cur as (select id, greatest(0, extract(epoch from coalesce(window_ends_at, started_at + make_interval(secs => total_time)) - user_paused_at))::float8 as rest
                 from send_wizards where id = ${id} and company_id = ${companyId} and status in (${states(userResume.from)}) for update)
    update send_wizards w set status = case when w.paused_reason is null then ${state(userResume.to)} else ${state(userResumeHeld.to)} end,
      spread_from = now(), spread_seconds = cur.rest, window_ends_at = now() + make_interval(secs => cur.rest),
      spread_first_row = coalesce((select min(m.row_no) from messages m where m.send_wizard_id = w.id and m.status = ${state(WAITING_STATUS)}), 1),
      user_paused_at = null, updated_at = now()
    from cur where w.id = cur.id and w.status in (${states(userResume.from)})
    returning w.status, w.paused_reason, cur.rest as window_seconds`.execute(db);
  return result.rows[0];
}

/** Locks a company's bulk send (retry serialises on its source: two retries never take the same rows). */
export async function lockBulkSend(db: Db, companyId: string, id: string): Promise<BulkSendRow | undefined> {
  const result = await sql<BulkSendRow>`select * from send_wizards where id = ${id} and company_id = ${companyId} for update`.execute(db);
  return result.rows[0];
}

/** A retry's new bulk send, PENDING, copying the source's channel, template, name and sender number. */
export async function insertRetryBulkSend(db: Db, sourceId: string, id: string, totalTime: number): Promise<void> {
  await sql`
    insert into send_wizards (id, company_id, channel_id, template_id, template_name, send_name, from_number, has_button, status, total_time, retry_of)
    select ${id}, company_id, channel_id, template_id, template_name, send_name, from_number, has_button, ${state(STORING_STATUS)}, ${totalTime}, id
    from send_wizards where id = ${sourceId}`.execute(db);
}

/** What a retry found in its source. */
export interface RetryCounts {
  /** Failed rows of the source. */
  failed: number;
  /** Of those, rows with one of the asked error codes (all failed rows without a filter). */
  matched: number;
  /** Of those, rows copied into the new bulk send. */
  taken: number;
}

/**
 * Copies the retryable failed rows of `sourceId` into `newId` as NONE rows numbered 1..n in source row order,
 * due from `startAt` over `totalTime` seconds. A failed row is retryable unless its recipient may have got the
 * message: SENT_TO_BACKEND_FAILED after the network accepted it (reached_rank > 0) or with OUTCOME_UNKNOWN, or
 * a later message of the same template in the company to the same number that did not fail and was not
 * cancelled (already delivered, or still on its way: another retry). `codes` keeps only failures whose
 * network error code (leading error_message_detail) is one of them.
 */
export async function insertRetryRows(
  db: Db,
  p: { companyId: string; sourceId: string; newId: string; codes: number[] | null; startAt: Date; totalTime: number },
): Promise<RetryCounts> {
  const notSuccess: MessageStatus[] = [...FAILED_STATUSES, cancelWaiting.to];
  // The exclusion reads the company's messages of the template once (a hash anti-join; no index on phone numbers,
  // so bulk inserts pay nothing for this rare call). Freshly written rows have no planner statistics yet, and a
  // nested loop here was quadratic (10,000 failed rows of 200,000: stopped after 13 min); this transaction only.
  await sql`set local enable_nestloop = off`.execute(db);
  const result = await sql<RetryCounts>`
    with failed as (select * from messages where send_wizard_id = ${p.sourceId} and status in (${states(FAILED_STATUSES)})),
    coded as (select * from failed
              where ${p.codes === null}::boolean or substring(error_message_detail from '^([0-9]+)')::bigint = any(${p.codes ?? []}::bigint[])),
    eligible as (select f.*, row_number() over (order by f.row_no) as rn, count(*) over () as n from coded f
                 where not (f.status = ${state(failHandOff.to)} and (f.reached_rank > 0 or f.error_message = 'OUTCOME_UNKNOWN'))
                   and not exists (select 1 from messages l
                                   where l.company_id = ${p.companyId} and l.template_id = f.template_id
                                     and l.phone_number = f.phone_number and l.id <> f.id and l.created_at >= f.created_at
                                     and l.status not in (${states(notSuccess)}))
                   -- The same person by BSUID (a message to it, or one whose recipient the network reported with it).
                   and not exists (select 1 from messages l
                                   where l.company_id = ${p.companyId} and l.template_id = f.template_id
                                     and l.user_id = f.user_id and l.id <> f.id and l.created_at >= f.created_at
                                     and l.status not in (${states(notSuccess)}))),
    ins as (insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, row_ref,
                                  phone_number, user_id, full_name, status, payload, due_at)
            select lpad(to_hex(floor(extract(epoch from now()))::bigint), 8, '0') || substr(md5(gen_random_uuid()::text), 1, 16),
                   company_id, channel_id, template_id, waba_id, ${p.newId}, rn, row_ref, phone_number, user_id, full_name, ${state(WAITING_STATUS)}, payload,
                   ${p.startAt.toISOString()}::timestamptz + make_interval(secs => (rn - 1) * ${p.totalTime}::float8 / n)
            from eligible
            returning 1)
    select (select count(*) from failed)::int as failed, (select count(*) from coded)::int as matched,
           (select count(*) from ins)::int as taken`.execute(db);
  return result.rows[0];
}
