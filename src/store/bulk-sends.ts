/** SQL for bulk sends (table send_wizards) and their counters, which moves keep exact in the same transaction. */
import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import { BULK_SEND_MOVES, canMoveBulkSend, QUEUEING_STATUSES, STORING_STATUS } from '../domain/bulk-send-states.js';
import { MESSAGE_MOVES, onlySource, type MessageMove } from '../domain/message-moves.js';
import { COUNTERS, type Counter, type MessageStatus } from '../domain/message-states.js';
import { state, states } from './message-moves.js';
import type { Database, BulkSendsTable } from './schema.js';

type Db = Kysely<Database>;

/** `'A', 'B'` as SQL literals of bulk-send statuses (from the domain's lists, never from input). */
export const bulkSendStates = states;

const { start, schedule, hold, release, complete, stop } = BULK_SEND_MOVES;
const { queue, cancelWaiting, cancelLeased, parkWaiting, parkLeased } = MESSAGE_MOVES;

/** A bulk send row. */
export type BulkSendRow = Selectable<BulkSendsTable>;

/**
 * Adds counter deltas to a bulk send (one statement), then completes it when no row is left unsettled. Returns its
 * status after the update (undefined when nothing changed): the update waits for a stop or a pause that holds the
 * bulk send, so a claim learns here that one committed after its rows were read.
 */
export async function addBulkSendCounters(db: Db, bulkSendId: string, delta: Partial<Record<Counter, number>>): Promise<string | undefined> {
  const sets = COUNTERS.filter((c) => delta[c]).map((c) => sql`${sql.ref(c)} = ${sql.ref(c)} + ${delta[c]!}`);
  if (sets.length === 0) return undefined;
  const settled = settledAfter((c) => sql`${sql.ref(c)} + ${delta[c] ?? 0}`);
  const result = await sql<{ status: string }>`
    update send_wizards set ${sql.join(sets)},
      status = case when ${settled} then ${state(complete.to)} else status end,
      finished_at = case when ${settled} then now() else finished_at end,
      updated_at = now()
    where id = ${bulkSendId}
    returning status`.execute(db);
  return result.rows[0]?.status;
}

/**
 * Whether a bulk send completes with this update: it may complete (`complete.from`) and no row is left unsettled
 * once the deltas are added. `after(c)` is the SQL of counter `c` after the update (the row's value plus the delta).
 */
function settledAfter(after: (counter: 'waiting' | 'queued' | 'awaiting_backend_count') => RawBuilder<unknown>) {
  return sql`status in (${bulkSendStates(complete.from)})
    and ${after('waiting')} = 0 and ${after('queued')} = 0 and ${after('awaiting_backend_count')} = 0`;
}

/**
 * `addBulkSendCounters` for several bulk sends in ONE statement: each bulk send's deltas added and the bulk send
 * completed when no row is left unsettled, the rows locked in id order first (lock order, README), so a move that
 * spans bulk sends (a status batch of several channels' bodies) costs one round trip for its counters instead of one
 * per bulk send. Bulk sends whose deltas are all zero are not touched. Returns each updated bulk send's status.
 */
export async function addCountersOfBulkSends(db: Db, deltas: Map<string, Partial<Record<Counter, number>>>): Promise<Map<string, string>> {
  const rows = [...deltas].filter(([, d]) => COUNTERS.some((c) => d[c])).map(([id, d]) => ({ id, ...d }));
  if (rows.length === 0) return new Map();
  const sets = COUNTERS.map((c) => sql`${sql.ref(c)} = w.${sql.ref(c)} + coalesce(d.${sql.ref(c)}, 0)`);
  const settled = settledAfter((c) => sql`w.${sql.ref(c)} + coalesce(d.${sql.ref(c)}, 0)`);
  const result = await sql<{ id: string; status: string }>`
    with d as (select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
                 as d(id text, ${sql.join(COUNTERS.map((c) => sql`${sql.ref(c)} integer`))})),
    t as (select id from send_wizards where id in (select id from d) order by id for update)
    update send_wizards w set ${sql.join(sets)},
      status = case when ${settled} then ${state(complete.to)} else w.status end,
      finished_at = case when ${settled} then now() else w.finished_at end,
      updated_at = now()
    from t, d where w.id = t.id and d.id = t.id
    returning w.id, w.status`.execute(db);
  return new Map(result.rows.map((r) => [r.id, r.status]));
}

/** Holds a channel's running bulk sends (channel FLAGGED/RED or not CONNECTED); locks them in id order. */
export async function pauseChannelBulkSends(db: Db, channelId: string, reason: string): Promise<number> {
  const result = await sql`
    update send_wizards set status = ${state(hold.to)}, paused_reason = ${reason}, updated_at = now()
    where id in (select id from send_wizards where channel_id = ${channelId} and status in (${bulkSendStates(hold.from)}) order by id for update)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Holds these bulk sends (tier quota spent); locks them in id order. */
export async function pauseBulkSends(db: Db, ids: string[], reason: string): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update send_wizards set status = ${state(hold.to)}, paused_reason = ${reason}, updated_at = now()
    where id in (select id from send_wizards where id = any(${ids}::text[]) and status in (${bulkSendStates(hold.from)}) order by id for update)`.execute(db);
}

/** Lets held bulk sends run again (their rows are being sent); locks them in id order. */
export async function resumeBulkSends(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update send_wizards set status = ${state(release.to)}, paused_reason = null, updated_at = now()
    where id in (select id from send_wizards where id = any(${ids}::text[]) and status in (${bulkSendStates(release.from)}) order by id for update)`.execute(db);
}

/**
 * A new bulk send, PENDING while its rows are stored; answers its `created_at` to the millisecond, the due time of
 * rows sent at once (the due-work probe steps over that time while the start stores: listChannelsWithDueWork).
 */
export async function insertBulkSend(
  db: Db,
  w: {
    id: string; company_id: string; channel_id: string; template_id: string; template_name: string; send_name?: string | null; from_number: string;
    has_button: boolean; total_time: number; message_send_ttl_seconds?: number | null;
  },
): Promise<Date> {
  const result = await sql<{ at: Date | string }>`
    insert into send_wizards (id, company_id, channel_id, template_id, template_name, send_name, from_number, has_button, status, total_time,
                              message_send_ttl_seconds)
    values (${w.id}, ${w.company_id}, ${w.channel_id}, ${w.template_id}, ${w.template_name}, ${w.send_name ?? null}, ${w.from_number}, ${w.has_button},
            ${state(STORING_STATUS)}, ${w.total_time}, ${w.message_send_ttl_seconds ?? null})
    returning date_trunc('milliseconds', created_at) as at`.execute(db);
  return new Date(result.rows[0].at);
}

/**
 * Every row is stored: the bulk send starts (its rows are queued by the dispatcher's maintenance, or were stored
 * QUEUED in this transaction: `storedQueued`), or with `scheduledAt` waits SCHEDULED until then (`activateDueSchedules`).
 */
export async function acceptBulkSend(
  db: Db,
  id: string,
  summary: number,
  duplicates: number,
  scheduledAt: Date | null = null,
  storedQueued = false,
): Promise<void> {
  const at = scheduledAt?.toISOString() ?? null;
  if (at && storedQueued) throw new Error('a scheduled bulk send stores its rows waiting (NONE)');
  const move = at ? schedule : start;
  await sql`
    update send_wizards set status = ${move.to}, summary = ${summary},
      waiting = ${storedQueued ? 0 : summary}, queued = queued + ${storedQueued ? summary : 0},
      duplicate_count = ${duplicates}, scheduled_at = ${at}::timestamptz,
      started_at = case when ${at}::timestamptz is null then now() end,
      window_ends_at = case when ${at}::timestamptz is null then now() + make_interval(secs => total_time) end,
      updated_at = now()
    where id = ${id} and status in (${bulkSendStates(move.from)})`.execute(db);
}

/** Marks a storing bulk send alive (so the stale-start cleanup leaves it alone). */
export async function touchBulkSend(db: Db, id: string): Promise<void> {
  await sql`update send_wizards set updated_at = now() where id = ${id}`.execute(db);
}

/** PENDING bulk sends whose start stopped storing rows long ago (the process died mid-start). */
export async function findStaleStarts(db: Db, olderThanSeconds: number): Promise<string[]> {
  const result = await sql<{ id: string }>`
    select id from send_wizards where status = ${state(STORING_STATUS)} and updated_at < now() - make_interval(secs => ${olderThanSeconds})`.execute(db);
  return result.rows.map((r) => r.id);
}

/** Removes the rows of a start that did not complete (locked in id order, like a stop's). */
export async function deleteBulkSendRows(db: Db, id: string): Promise<void> {
  await sql`
    delete from messages where id in (select id from messages where send_wizard_id = ${id} order by id for update)`.execute(db);
}

/** Removes a start that did not complete (after its rows). */
export async function deleteBulkSend(db: Db, id: string): Promise<void> {
  await sql`delete from send_wizards where id = ${id} and status = ${state(STORING_STATUS)}`.execute(db);
}

/** Started bulk sends (running or held by their channel) with stored rows still waiting (NONE) to be queued. */
export async function listBulkSendsWithWaitingRows(db: Db): Promise<string[]> {
  const result = await sql<{ id: string }>`
    select id from send_wizards where status in (${bulkSendStates(QUEUEING_STATUSES)}) and waiting > 0 order by id`.execute(db);
  return result.rows.map((r) => r.id);
}

/**
 * Queues up to `limit` stored rows of one started bulk send (NONE → QUEUED) after row `afterRow`, in row order,
 * grouped for the counters; `lastRow` is the last row number queued (the caller's cursor). The rows come from one
 * range of the waiting index (bulk send, row number), so a statement reads only the rows it queues: without
 * autovacuum (PGlite) the entries of rows queued before stay in that index, and a cursor skips them. A bulk send
 * with a spread (a schedule that activated, a user resume) gives each row its due time here: from `spread_from`,
 * evenly by row number over `spread_seconds` for the rows from `spread_first_row` to the last.
 */
export async function queueWaitingRows(db: Db, bulkSendId: string, afterRow: number, limit: number): Promise<{ groups: MovedGroup[]; lastRow: number | null }> {
  const result = await sql<MovedGroup & { last_row: number }>`
    with w as (select id, spread_from, spread_first_row, spread_seconds, summary from send_wizards
               where id = ${bulkSendId} and status in (${bulkSendStates(QUEUEING_STATUSES)})),
    t as (select m.id from messages m
          where m.send_wizard_id = ${bulkSendId} and m.status = ${state(onlySource(queue))} and m.row_no > ${afterRow}
            and exists (select 1 from w)
          order by m.row_no limit ${limit} for update skip locked),
    moved as (update messages m set status = ${state(queue.to)}, updated_at = now(), version = m.version + 1,
                due_at = case when w.spread_from is null then m.due_at
                              else w.spread_from + make_interval(secs => greatest(0, m.row_no - w.spread_first_row)
                                     * w.spread_seconds / greatest(1, w.summary - w.spread_first_row + 1)) end
              from t, w where m.id = t.id returning m.send_wizard_id, m.reached_rank, m.row_no)
    select send_wizard_id, ${state(onlySource(queue))} as old_status, reached_rank as old_rank, ${state(queue.to)} as status, reached_rank,
           count(*)::int as n,
           max(row_no) as last_row
    from moved group by send_wizard_id, reached_rank`.execute(db);
  const lastRow = result.rows.reduce<number | null>((last, r) => (last === null || r.last_row > last ? r.last_row : last), null);
  return { groups: result.rows.map(({ last_row: _, ...group }) => group), lastRow };
}

/** A group of rows that moved alike (for counters). */
export interface MovedGroup {
  send_wizard_id: string;
  old_status: MessageStatus;
  old_rank: number;
  status: MessageStatus;
  reached_rank: number;
  n: number;
}

/** Rows a stop or a user pause moves per statement: each batch is one short transaction, the next one goes on. */
export const WITHDRAW_BATCH = 1000;

/** The rows not yet handed to the network (`m`): waiting rows, and leased rows with no send attempt recorded. */
function unsentRows(m: string, waiting: MessageMove, leased: MessageMove) {
  const ref = (column: string) => sql.ref(`${m}.${column}`);
  return sql`(${ref('status')} in (${states(waiting.from)}) or (${ref('status')} in (${states(leased.from)}) and ${ref('send_attempted_at')} is null))`;
}

/**
 * Up to `limit` rows of a bulk send not yet handed to the network move: waiting rows (`waiting`), and leased rows with
 * no send attempt recorded (`leased`; an attempted send is never withdrawn); both moves reach the same state. The
 * batch's rows are found by the (send_wizard_id, status) index, then locked in id order and before the bulk send (lock
 * order, README); the limit is a literal, so any plan of this statement costs the batch, not the table. Stop moves
 * them to CANCELLED, a user pause back to NONE. Fewer than `limit` moved: none was left (or the rest changed meanwhile).
 */
async function withdrawUnsentRows(db: Db, bulkSendId: string, waiting: MessageMove, leased: MessageMove, limit: number): Promise<MovedGroup[]> {
  if (waiting.to !== leased.to) throw new Error(`withdrawn rows reach one state, not ${waiting.to} and ${leased.to}`);
  const to = waiting.to;
  const result = await sql<MovedGroup>`
    with c as (select id from messages m where m.send_wizard_id = ${bulkSendId} and ${unsentRows('m', waiting, leased)}
               limit ${sql.lit(limit)}),
    t as (select m.id, m.status as old_status, m.reached_rank as old_rank from messages m
          where m.id in (select id from c) and ${unsentRows('m', waiting, leased)}
          order by m.id for update of m),
    moved as (update messages m set status = ${to}, lease_owner = null, lease_until = null, updated_at = now(),
                version = m.version + 1
              from t where m.id = t.id returning m.send_wizard_id, t.old_status, t.old_rank, m.reached_rank)
    select send_wizard_id, old_status, old_rank, ${to}::text as status, reached_rank, count(*)::int as n
    from moved group by send_wizard_id, old_status, old_rank, reached_rank`.execute(db);
  return result.rows;
}

/** Stop: up to `limit` rows not yet handed to the network become CANCELLED. */
export function cancelBulkSendRows(db: Db, bulkSendId: string, limit = WITHDRAW_BATCH): Promise<MovedGroup[]> {
  return withdrawUnsentRows(db, bulkSendId, cancelWaiting, cancelLeased, limit);
}

/** A user pause: up to `limit` rows not yet handed to the network wait again (NONE). */
export function parkBulkSendRows(db: Db, bulkSendId: string, limit = WITHDRAW_BATCH): Promise<MovedGroup[]> {
  return withdrawUnsentRows(db, bulkSendId, parkWaiting, parkLeased, limit);
}

/**
 * Marks a bulk send STOPPED unless it has finished; `cancelling`: rows are left to cancel (the maintenance goes on
 * with them). Returns the row after, or undefined when not found. Locks the bulk send: a stop calls it after its
 * first batch of rows is locked (cancelBulkSendRows), never before.
 */
export async function markBulkSendStopped(db: Db, companyId: string, id: string, cancelling: boolean): Promise<{ status: string; stopped: boolean } | undefined> {
  const locked = await sql<{ status: string }>`
    select status from send_wizards where id = ${id} and company_id = ${companyId} for update`.execute(db);
  const current = locked.rows[0];
  if (!current) return undefined;
  if (!canMoveBulkSend(stop, current.status)) return { status: current.status, stopped: false };
  await sql`update send_wizards set status = ${state(stop.to)}, cancelling = ${cancelling}, finished_at = now(), updated_at = now() where id = ${id}`.execute(db);
  return { status: stop.to, stopped: true };
}

/** Stopped bulk sends with rows still to cancel, oldest id first. */
export async function listCancellingBulkSends(db: Db, limit: number): Promise<string[]> {
  const result = await sql<{ id: string }>`select id from send_wizards where cancelling order by id limit ${limit}`.execute(db);
  return result.rows.map((r) => r.id);
}

/** The stop's cancel is over when no row of the bulk send is left to cancel; true when it was (the mark is cleared). */
export async function endCancelling(db: Db, id: string): Promise<boolean> {
  const result = await sql`
    update send_wizards set cancelling = false, updated_at = now()
    where id = ${id} and cancelling
      and not exists (select 1 from messages m where m.send_wizard_id = ${id} and ${unsentRows('m', cancelWaiting, cancelLeased)})`.execute(db);
  return Number(result.numAffectedRows ?? 0) > 0;
}

/** A company's bulk send. */
export async function findBulkSend(db: Db, companyId: string, id: string): Promise<BulkSendRow | undefined> {
  const result = await sql<BulkSendRow>`select * from send_wizards where id = ${id} and company_id = ${companyId}`.execute(db);
  return result.rows[0];
}

/** A page of a channel's bulk sends, newest first (PENDING starts are not shown). */
export async function findBulkSendsPage(db: Db, companyId: string, channelId: string, limit: number, offset: number): Promise<BulkSendRow[]> {
  const result = await sql<BulkSendRow>`
    select * from send_wizards
    where company_id = ${companyId} and channel_id = ${channelId} and status <> ${state(STORING_STATUS)}
    order by created_at desc, id desc limit ${limit} offset ${offset}`.execute(db);
  return result.rows;
}

/** How many bulk sends the channel has (for pagination). */
export async function countBulkSends(db: Db, companyId: string, channelId: string): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from send_wizards
    where company_id = ${companyId} and channel_id = ${channelId} and status <> ${state(STORING_STATUS)}`.execute(db);
  return result.rows[0]?.n ?? 0;
}

const REPORT_COLUMNS = sql`id, row_no, row_ref, phone_number, user_id, parent_user_id, username, full_name, status, backend_sended_time, sended_time, delivered_time,
           seen_time, failed_time, error_message, error_message_detail, webhook_response, pricing_category, pricing_type,
           pricing_billable, pricing_model`;

/** Rows `fromRow`..`toRow` of a bulk send (row numbers are contiguous from 1, so any page is an index range). */
export async function findReportRows(db: Db, bulkSendId: string, fromRow: number, toRow: number) {
  const result = await sql<Record<string, unknown>>`
    select ${REPORT_COLUMNS}
    from messages where send_wizard_id = ${bulkSendId} and row_no between ${fromRow} and ${toRow}
    order by row_no`.execute(db);
  return result.rows;
}

/**
 * A page of a bulk send's rows in one status, in row order: the page's row numbers come from the index on
 * (send_wizard_id, status, row_no) alone (an index-only scan skips the offset), then only those rows are read.
 */
export async function findReportRowsByStatus(db: Db, bulkSendId: string, status: MessageStatus, offset: number, limit: number) {
  const result = await sql<Record<string, unknown>>`
    select ${REPORT_COLUMNS}
    from messages where send_wizard_id = ${bulkSendId} and row_no in (
      select row_no from messages where send_wizard_id = ${bulkSendId} and status = ${status}
      order by row_no offset ${offset} limit ${limit})
    order by row_no`.execute(db);
  return result.rows;
}

/** The next rows of a bulk send after `afterRow` (keyset), optionally in one status, in row order. */
export async function findReportRowsAfter(db: Db, bulkSendId: string, afterRow: number, limit: number, status?: MessageStatus) {
  const result = await sql<Record<string, unknown>>`
    select ${REPORT_COLUMNS}
    from messages where send_wizard_id = ${bulkSendId} and row_no > ${afterRow}
      ${status ? sql`and status = ${status}` : sql``}
    order by row_no limit ${limit}`.execute(db);
  return result.rows;
}

/** How many of a bulk send's rows are in this status. */
export async function countReportRowsByStatus(db: Db, bulkSendId: string, status: MessageStatus): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from messages where send_wizard_id = ${bulkSendId} and status = ${status}`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** A time column as ISO 8601 UTC text with milliseconds, as the API writes it (no Date parsing per row). */
const isoText = (column: string) => sql`to_char(${sql.ref(column)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as ${sql.ref(column)}`;

/** A row of a report export: the detail item's fields, times as ISO 8601 text. */
export interface ExportRow {
  id: string;
  row_no: number;
  row_ref: string | null;
  phone_number: string | null;
  user_id: string | null;
  parent_user_id: string | null;
  username: string | null;
  full_name: string | null;
  status: string;
  backend_sended_time: string | null;
  sended_time: string | null;
  delivered_time: string | null;
  seen_time: string | null;
  failed_time: string | null;
  error_message: string | null;
  error_message_detail: string | null;
  reached_rank: number;
  pricing_category: string | null;
  pricing_type: string | null;
  pricing_billable: boolean | null;
}

/** The next rows of a bulk send for an export, after `afterRow` (keyset), optionally in one status, in row order. */
export async function findExportRowsAfter(db: Db, bulkSendId: string, afterRow: number, limit: number, status?: MessageStatus): Promise<ExportRow[]> {
  const result = await sql<ExportRow>`
    select id, row_no, row_ref::text as row_ref, phone_number, user_id, parent_user_id, username, full_name, status,
           ${isoText('backend_sended_time')}, ${isoText('sended_time')}, ${isoText('delivered_time')}, ${isoText('seen_time')},
           ${isoText('failed_time')}, error_message, error_message_detail, reached_rank, pricing_category, pricing_type,
           pricing_billable
    from messages where send_wizard_id = ${bulkSendId} and row_no > ${afterRow}
      ${status ? sql`and status = ${status}` : sql``}
    order by row_no limit ${limit}`.execute(db);
  return result.rows;
}

/** The Marketing Messages API TTL a bulk send was started with (null: the network's default). */
export async function findBulkSendTtl(db: Db, id: string): Promise<number | null> {
  const result = await sql<{ ttl: number | null }>`select message_send_ttl_seconds as ttl from send_wizards where id = ${id}`.execute(db);
  return result.rows[0]?.ttl ?? null;
}
