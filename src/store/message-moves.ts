/**
 * SQL for every dispatcher and recovery move of the state machine. Each move is one statement that locks its rows,
 * changes them only from the allowed states and returns (old status, new status) per row, so the caller can keep
 * the bulk-send counters exact in the same transaction.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { BULK_SEND_MOVES, STORING_STATUS, WITHHELD_STATUSES } from '../domain/bulk-send-states.js';
import { CHECK_MOVES, LEASED_STATUSES, MESSAGE_MOVES, onlySource, QUEUED_STATUS, type MessageMove } from '../domain/message-moves.js';
import type { MessageStatus } from '../domain/message-states.js';
import type { MessageRow } from './message-inserts.js';
import type { Database } from './schema.js';
import { textArray } from './text-array.js';

type Db = Kysely<Database>;

/** One row changed by a move (or, with `n`, a group of `n` rows that moved alike). */
export interface MovedRow {
  id?: string;
  send_wizard_id: string | null;
  old_status: MessageStatus;
  old_rank: number;
  status: MessageStatus;
  reached_rank: number;
  n?: number;
}

const json = (value: unknown) => JSON.stringify(value);

/**
 * The allowed source states of each move statement (`domain/message-moves.ts`, from the one transition table),
 * never written by hand in the SQL below.
 */
export const MOVE_SOURCES = {
  ...(Object.fromEntries(Object.entries(MESSAGE_MOVES).map(([name, m]) => [name, m.from])) as Record<keyof typeof MESSAGE_MOVES, readonly MessageStatus[]>),
  ...(Object.fromEntries(Object.entries(CHECK_MOVES).map(([name, m]) => [name, m.from])) as Record<keyof typeof CHECK_MOVES, readonly MessageStatus[]>),
};

/** `'A', 'B'` as SQL literals (status names come from the domain's table, never from input). */
export const states = (list: readonly string[]) => sql.join(list.map((s) => sql.lit(s)));

/**
 * `m.id` is one of these rows' ids: said beside a join with the rows' values (`v`, a jsonb_to_recordset the planner
 * guesses at 100 rows) so that `messages` is read by its primary key whatever the statistics say. Without them
 * (PGlite never gathers any) the planner hashed `v` and scanned the whole table for every batch. Only where the rows
 * are selected (`t`): beside `m.id = t.id` in a nested loop it became a second index condition, and PostgreSQL 15
 * walks every element of the array on each probe: n² steps for a batch of n rows.
 */
export const amongIds = (rows: ReadonlyArray<{ id: string }>) => sql`m.id = any(${textArray(rows.map((r) => r.id))}::text[])`;

/** `'A'` as an SQL literal (a status from the domain's tables, never from input). */
export const state = (s: string) => sql.lit(s);

const { claim, parkWaiting, cancelWaiting, cancelLeased, requeue, refusedSend, handOff, failHandOff } = MESSAGE_MOVES;
const { claimAttempt, numberCheck } = CHECK_MOVES;
/** The check's passing outcome (the row may be sent): both check moves declare the same one. */
const passed = state(claimAttempt.passed);
const userPaused = state(BULK_SEND_MOVES.userPause.to);
const stopped = state(BULK_SEND_MOVES.stop.to);

/**
 * The columns a send reads of a due row (the gate, the checks, the call and its outcome): not the 34 of `messages`,
 * whose every value (its times as dates, its stored webhook answer) the driver would otherwise convert per row.
 */
export const DUE_MESSAGE_COLUMNS = ['id', 'company_id', 'template_id', 'send_wizard_id', 'phone_number', 'user_id', 'status', 'reached_rank', 'payload', 'due_at', 'attempts'] as const;

/** A due row as the send path reads it. */
export type DueMessageRow = Pick<MessageRow, (typeof DUE_MESSAGE_COLUMNS)[number]>;

const dueColumns = sql.join(DUE_MESSAGE_COLUMNS.map((c) => sql.ref(`m.${c}`)));

/** Claims up to `limit` due QUEUED messages of a channel for this owner (QUEUED → AGENDA). */
export async function claimDueMessages(
  db: Db,
  channelId: string,
  owner: string,
  limit: number,
  leaseSeconds: number,
): Promise<Array<DueMessageRow & { old_status: MessageStatus; old_rank: number }>> {
  const result = await sql<DueMessageRow & { old_status: MessageStatus; old_rank: number }>`
    update messages m set status = ${state(claim.to)}, lease_owner = ${owner},
      lease_until = now() + make_interval(secs => ${leaseSeconds}), updated_at = now(), version = m.version + 1
    where m.id in (
      select id from messages
      where channel_id = ${channelId} and status in (${states(claim.from)}) and due_at <= now()
      order by due_at, id limit ${limit}
      for update skip locked)
    returning ${dueColumns}, ${state(onlySource(claim))}::text as old_status, m.reached_rank as old_rank`.execute(db);
  return result.rows;
}

/**
 * Up to `limit` due QUEUED messages of a channel, read without a lock or a write (the claim that records the
 * attempt, `claimRecordingAttempts`, moves them later, after the gate, the local check and the pacing).
 */
export async function peekDueMessages(db: Db, channelId: string, limit: number): Promise<DueMessageRow[]> {
  const result = await sql<DueMessageRow>`
    select ${dueColumns} from messages m
    where channel_id = ${channelId} and status in (${states(claim.from)}) and due_at <= now()
    order by due_at, id limit ${limit}`.execute(db);
  return result.rows;
}

/** A number check's result for one row (OPT_IN_SUCCESS: may be sent; a failure with its error): engine/number-check.ts's NumberCheckResult. */
interface CheckResult {
  id: string;
  status: MessageStatus;
  error_message: string | null;
  error_message_detail: string | null;
}

/**
 * The two check-and-attempt moves: `candidates` selects and locks (`t`) which of the rows named in `rows` (`v`) may
 * move; a passing row gets the attempt mark (`send_attempted_at`, `attempts + 1`) under this owner's lease, a refused
 * one its failure (timed, lease dropped).
 */
async function recordCheckResults(
  db: Db,
  owner: string,
  rows: CheckResult[],
  leaseSeconds: number,
  candidates: RawBuilder<unknown>,
): Promise<Array<MovedRow & { attempted: boolean }>> {
  if (rows.length === 0) return [];
  const result = await sql<MovedRow & { attempted: boolean }>`
    with v as (select * from jsonb_to_recordset(${json(rows)}::jsonb)
                 as v(id text, status text, error_message text, error_message_detail text)),
    t as (select m.id, m.status as old_status, m.reached_rank as old_rank from messages m join v on v.id = m.id and ${amongIds(rows)}
          ${candidates})
    update messages m set status = v.status, error_message = v.error_message,
      error_message_detail = v.error_message_detail,
      failed_time = case when v.status = ${passed} then m.failed_time else coalesce(m.failed_time, now()) end,
      send_attempted_at = case when v.status = ${passed} then now() else null end,
      attempts = m.attempts + case when v.status = ${passed} then 1 else 0 end,
      lease_owner = case when v.status = ${passed} then ${owner} else null end,
      lease_until = case when v.status = ${passed} then now() + make_interval(secs => ${leaseSeconds}) else null end,
      updated_at = now(), version = m.version + 1
    from t, v where m.id = t.id and v.id = m.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank,
      m.status = ${passed} as attempted`.execute(db);
  return result.rows;
}

/** The row's bulk send withholds its rows (a user pause or a stop): no claim may hand them to the network. */
const withheldBulkSend = sql`exists (select 1 from send_wizards w where w.id = m.send_wizard_id
            and w.status in (${states(WITHHELD_STATUSES)}))`;

/**
 * The claim, the local number check and the at-most-once mark in ONE move (one row version instead of three):
 * QUEUED → OPT_IN_SUCCESS with the send attempt recorded (`send_attempted_at`, `attempts + 1`, this owner's lease),
 * or QUEUED → OPT_IN_FAILED / OPT_IN_FAILED_INVALID_NUMBER (failure timed). Called right before the network calls,
 * after pacing. Only rows still QUEUED and not locked by another transaction move (`skip locked`: a stop or a
 * pause that holds them wins; another sender that got them first already moved them), and never a row of a bulk
 * send its user paused or stopped (`withdrawRowsOfHeldBulkSends` takes those). `attempted` names the rows that may be
 * sent.
 */
export function claimRecordingAttempts(db: Db, owner: string, rows: CheckResult[], leaseSeconds: number) {
  return recordCheckResults(db, owner, rows, leaseSeconds, sql`
          where m.status in (${states(claimAttempt.from)}) and m.send_attempted_at is null
            and not ${withheldBulkSend}
          order by m.id for update of m skip locked`);
}

/**
 * QUEUED rows among these whose bulk send its user paused go back to NONE (waiting; a row requeued after a refused
 * attempt is never sent while paused); those of a stopped bulk send become CANCELLED. Rows another transaction holds
 * are skipped (never waited for).
 */
export async function withdrawRowsOfHeldBulkSends(db: Db, ids: string[]): Promise<MovedRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<MovedRow>`
    with t as (select m.id, m.status as old_status, m.reached_rank as old_rank, w.status = ${stopped} as stopped
               from messages m join send_wizards w on w.id = m.send_wizard_id
               where m.id = any(${ids}::text[])
                 and ((w.status = ${userPaused} and m.status in (${states(parkWaiting.from)}))
                      or (w.status = ${stopped} and m.status in (${states(cancelWaiting.from)})))
               order by m.id for update of m skip locked)
    update messages m set status = case when t.stopped then ${state(cancelWaiting.to)} else ${state(parkWaiting.to)} end,
      lease_owner = null, lease_until = null, updated_at = now(), version = m.version + 1
    from t where m.id = t.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/**
 * Later due times for QUEUED rows the gate put off (pair rate): only the due time changes (no state move, no
 * counter); rows another transaction holds are skipped (the next peek sees them again).
 */
export async function deferQueuedRows(db: Db, rows: Array<{ id: string; due_at: string }>): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    with v as (select * from jsonb_to_recordset(${json(rows)}::jsonb) as v(id text, due_at timestamptz)),
    t as (select m.id from messages m join v on v.id = m.id and ${amongIds(rows)} where m.status = ${state(QUEUED_STATUS)}
          order by m.id for update of m skip locked)
    update messages m set due_at = v.due_at, updated_at = now()
    from t, v where m.id = t.id and v.id = m.id`.execute(db);
}

/**
 * Channels with due QUEUED messages (one index probe per channel, none for the channels in `skip`); a channel whose token the network refused
 * is left out until its back-off passes (or a rotation clears it), and a channel whose tier window is full
 * until its earliest expiry (its held rows cost nothing while they wait).
 *
 * The probe steps over the due time of a start still storing on the channel (the bulk send's `created_at` to the
 * millisecond, the due time of all its rows when sent at once: bulk-start.ts): on PostgreSQL that start's rows are
 * stored QUEUED in one open transaction, invisible but in the index, and a probe through them would walk every one
 * (none visible), each probe longer than the last while a large list is stored. Another row due at that very
 * millisecond waits until the start ends.
 *
 * Each probe is the earliest due time (ordered, one row), so that it walks `messages_due` whatever the statistics
 * say: with `exists` (whose ORDER BY and LIMIT the planner drops), statistics taken after a start (every row QUEUED)
 * let the planner expect a due row early in a scan of the whole table, and once the rows were sent each probe read
 * all of them.
 */
export async function listChannelsWithDueWork(db: Db, skip: string[] = []): Promise<string[]> {
  // `skip`: channels the caller is sending already (their probe would walk the entries of the rows it just claimed).
  const result = await sql<{ id: string }>`
    select c.id from channels c
    cross join lateral (select min(date_trunc('milliseconds', w.created_at)) as at from send_wizards w
                        where w.channel_id = c.id and w.status = ${state(STORING_STATUS)}) storing
    where c.id <> all(${skip}::text[]) and (c.auth_retry_at is null or c.auth_retry_at <= now())
      and not exists (select 1 from channel_tier_holds h where h.channel_id = c.id and h.held_until > now())
      and ((select m.due_at from messages m where m.channel_id = c.id and m.status = ${state(QUEUED_STATUS)} and m.due_at <= now()
              and m.due_at < coalesce(storing.at, 'infinity') order by m.due_at limit 1) is not null
           or (select m.due_at from messages m where m.channel_id = c.id and m.status = ${state(QUEUED_STATUS)} and m.due_at <= now()
              and m.due_at > storing.at order by m.due_at limit 1) is not null)`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * Number-check results and the at-most-once mark in one move (one row version instead of two):
 * AGENDA → OPT_IN_FAILED / OPT_IN_FAILED_INVALID_NUMBER (failures timed, lease dropped), or AGENDA →
 * OPT_IN_SUCCESS with the send attempt recorded (`send_attempted_at`, `attempts + 1`, lease renewed) — called
 * right before the network calls, after pacing. Only rows still AGENDA under this owner's lease with no attempt
 * move, never a row of a bulk send its user paused or stopped; `attempted` names the rows that may be sent.
 */
export function finishChecksRecordingAttempts(db: Db, owner: string, rows: CheckResult[], leaseSeconds: number) {
  return recordCheckResults(db, owner, rows, leaseSeconds, sql`
          where m.status in (${states(numberCheck.from)}) and m.lease_owner = ${owner} and m.send_attempted_at is null
            and not ${withheldBulkSend}
          order by m.id for update of m`);
}

/** A row going back to the queue. */
export interface RequeueRow {
  id: string;
  due_at: string;
  attempts_increment: number;
  error_message?: string | null;
}

/**
 * Back to the queue with a new due time (gate, pair rate, a check to retry, the channel paused) — only rows
 * still under this owner's lease with NO attempt recorded. A stalled owner whose lease ran out moves nothing:
 * the row may be another instance's by now, perhaps already with the network.
 */
export async function requeueMessages(db: Db, owner: string, rows: RequeueRow[]): Promise<MovedRow[]> {
  return requeueWhere(db, owner, rows, requeue, false);
}

/**
 * Back to the queue after the network REFUSED this owner's attempt (retryable refusal, or a channel-level
 * refusal of the token): the answer proves nothing was sent, so the attempt mark is cleared. Only rows
 * under this owner's lease with an attempt recorded. A row of a bulk send stopped meanwhile is CANCELLED instead (here
 * and in `requeueMessages`): it would only wait for its retry time to be withdrawn.
 */
export async function requeueRefusedSends(db: Db, owner: string, rows: RequeueRow[]): Promise<MovedRow[]> {
  return requeueWhere(db, owner, rows, refusedSend, true);
}

async function requeueWhere(db: Db, owner: string, rows: RequeueRow[], move: MessageMove, attempted: boolean): Promise<MovedRow[]> {
  if (rows.length === 0) return [];
  const result = await sql<MovedRow>`
    with v as (select * from jsonb_to_recordset(${json(rows)}::jsonb)
                 as v(id text, due_at timestamptz, attempts_increment integer, error_message text)),
    t as (select m.id, m.status as old_status, m.reached_rank as old_rank,
            m.status in (${states(cancelLeased.from)}) and exists (select 1 from send_wizards w
              where w.id = m.send_wizard_id and w.status = ${stopped}) as stopped
          from messages m join v on v.id = m.id and ${amongIds(rows)}
          where m.status in (${states(move.from)}) and m.lease_owner = ${owner}
            and m.send_attempted_at is ${attempted ? sql`not null` : sql`null`}
          order by m.id for update of m)
    update messages m set status = case when t.stopped then ${state(cancelLeased.to)} else ${state(move.to)} end, due_at = v.due_at, attempts = m.attempts + v.attempts_increment,
      send_attempted_at = null, lease_owner = null, lease_until = null,
      error_message = coalesce(v.error_message, m.error_message), updated_at = now(), version = m.version + 1
    from t, v where m.id = t.id and v.id = m.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/**
 * The network accepted: OPT_IN_SUCCESS → SENT_TO_BACKEND with the wamid, for rows whose attempt is recorded
 * (the network's acceptance is the truth, so no owner is needed). A status event may have beaten this commit
 * (and already raised the state): then only what it left missing (the wamid, the handed time, the rank, the lease)
 * is filled in, and a row it left nothing missing on is neither locked nor written (a delayed mark,
 * engine/hand-off-marks.ts, usually finds its row so). `handed_at`: when the network accepted (a mark written late
 * still dates the hand-off then, never before the attempt whatever the two clocks say); absent, now.
 */
export async function markHandedOff(db: Db, rows: Array<{ id: string; ext_id: string; handed_at?: string | null }>): Promise<MovedRow[]> {
  if (rows.length === 0) return [];
  const result = await sql<MovedRow>`
    with v as (select * from jsonb_to_recordset(${json(rows)}::jsonb) as v(id text, ext_id text, handed_at timestamptz)),
    t as (select m.id, m.status as old_status, m.reached_rank as old_rank from messages m join v on v.id = m.id and ${amongIds(rows)}
          where m.status in (${states(handOff.from)}) or m.ext_id is null or m.backend_sended_time is null
             or m.reached_rank < 1 or m.lease_owner is not null or m.lease_until is not null
          order by m.id for update of m)
    update messages m set
      status = case when m.status in (${states(handOff.from)}) and m.send_attempted_at is not null
                    then ${state(handOff.to)} else m.status end,
      reached_rank = greatest(m.reached_rank, 1),
      ext_id = coalesce(m.ext_id, v.ext_id),
      backend_sended_time = coalesce(m.backend_sended_time,
        case when v.handed_at is null then now() else greatest(v.handed_at, m.send_attempted_at) end),
      lease_owner = null, lease_until = null, updated_at = now(), version = m.version + 1
    from t, v where m.id = t.id and v.id = m.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/** The hand-off failed for good: OPT_IN_SUCCESS → SENT_TO_BACKEND_FAILED with the network's error (this owner's rows). */
export async function failHandOffs(
  db: Db,
  owner: string,
  rows: Array<{ id: string; error_message: string; error_message_detail: string }>,
): Promise<MovedRow[]> {
  if (rows.length === 0) return [];
  const result = await sql<MovedRow>`
    with v as (select * from jsonb_to_recordset(${json(rows)}::jsonb)
                 as v(id text, error_message text, error_message_detail text)),
    t as (select m.id, m.status as old_status, m.reached_rank as old_rank from messages m join v on v.id = m.id and ${amongIds(rows)}
          where m.status in (${states(failHandOff.from)}) and m.lease_owner = ${owner}
          order by m.id for update of m)
    update messages m set status = ${state(failHandOff.to)}, error_message = v.error_message,
      error_message_detail = v.error_message_detail, failed_time = coalesce(m.failed_time, now()),
      lease_owner = null, lease_until = null, updated_at = now(), version = m.version + 1
    from t, v where m.id = t.id and v.id = m.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/** Leaves an in-doubt send of this owner for reconciliation: the lease is dropped, the attempt mark stays. */
export async function releaseInDoubt(db: Db, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update messages set lease_owner = null, lease_until = null, updated_at = now()
    where id in (select id from messages where id = any(${ids}::text[]) and status in (${states(handOff.from)})
                   and lease_owner = ${owner} order by id for update)`.execute(db);
}

/**
 * Crash recovery: claimed messages whose lease ran out and that were never attempted go back to the
 * queue (no call was made for them).
 */
export async function requeueExpiredLeases(db: Db, limit: number): Promise<MovedRow[]> {
  const result = await sql<MovedRow>`
    with t as (select id, status as old_status, reached_rank as old_rank from messages
               where status in (${states(requeue.from)}) and send_attempted_at is null and lease_until < now()
               order by lease_until limit ${limit} for update skip locked)
    update messages m set status = ${state(requeue.to)}, lease_owner = null, lease_until = null, updated_at = now(),
      version = m.version + 1
    from t where m.id = t.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/**
 * Reconciliation window over: a message whose send may have reached the network and that no status event
 * has claimed is failed with OUTCOME_UNKNOWN, never sent again.
 */
export async function failUnreconciled(db: Db, windowSeconds: number, limit: number): Promise<MovedRow[]> {
  const result = await sql<MovedRow>`
    with t as (select id, status as old_status, reached_rank as old_rank from messages
               where status in (${states(failHandOff.from)}) and send_attempted_at is not null
                 and send_attempted_at < now() - make_interval(secs => ${windowSeconds})
                 and (lease_until is null or lease_until < now())
               limit ${limit} for update skip locked)
    update messages m set status = ${state(failHandOff.to)}, error_message = 'OUTCOME_UNKNOWN',
      error_message_detail = 'The network call may have reached the network but no answer or status event arrived; not resent.',
      failed_time = coalesce(m.failed_time, now()), lease_owner = null, lease_until = null, updated_at = now(),
      version = m.version + 1
    from t where m.id = t.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank`.execute(db);
  return result.rows;
}

/**
 * Locks these messages in id order (lock order, README): a transaction that moves rows in more than one
 * statement locks them all here first, so it never holds a higher id while it waits for a lower one.
 */
export async function lockMessageRows(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`select id from messages where id = any(${ids}::text[]) order by id for update`.execute(db);
}


/** Single-process databases (PGlite) only: claims of a dead process end now (recovery then requeues them). */
export async function expireAllMessageLeases(db: Db): Promise<void> {
  await sql`update messages set lease_until = now() - interval '1 second' where status in (${states(LEASED_STATUSES)}) and lease_until is not null`.execute(db);
}
