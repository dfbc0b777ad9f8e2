/**
 * SQL of status events on messages: the messages a batch of events names, read without a lock with their row
 * version, and the one guarded statement that applies the computed states.
 */
import { sql, type Kysely } from 'kysely';
import type { MessageStatus } from '../domain/message-states.js';
import type { MessageRow } from './message-inserts.js';
import { amongIds, type MovedRow } from './message-moves.js';
import { textArray } from './text-array.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/**
 * The computed rows as the JSON `jsonb_to_recordset` reads, without their null fields: a key the document lacks reads
 * as null all the same, and most fields of a status's update are null (no failure, no time but its own), so the server
 * parses about half the keys.
 */
function rowsJson(rows: EventUpdate[]): string {
  return JSON.stringify(rows.map((row) => {
    const present: Record<string, unknown> = {};
    // for-in, not Object.entries: no [key, value] array per field of every row.
    for (const key in row) {
      const value = row[key as keyof EventUpdate];
      if (value !== null) present[key] = value;
    }
    return present;
  }));
}

/** The time columns a status event's rules read, as epoch milliseconds (null: not set), in the order of `times`. */
export const EVENT_TIME_COLUMNS = ['send_attempted_at', 'backend_sended_time', 'sended_time', 'delivered_time', 'seen_time', 'failed_time'] as const;

/** One of `EVENT_TIME_COLUMNS`. */
export type EventTimeColumn = (typeof EVENT_TIME_COLUMNS)[number];

/**
 * What applying a status event reads of its message (not the payload nor the last webhook body). Its times come as one
 * text, `times`: the six `EVENT_TIME_COLUMNS` as epoch milliseconds, comma-separated, empty where not set (read with
 * `eventTimeOf`). The rules read only whether each is set and, for a step that moves, its value, so the driver reads
 * one string a row instead of six fields (and no Date, nor number, for each of them on every row of every batch).
 */
export type StatusTarget = Pick<
  MessageRow,
  'id' | 'company_id' | 'phone_number' | 'status' | 'reached_rank' | 'ext_id' | 'pricing_rank' | 'user_id' | 'parent_user_id' | 'username'
> & {
  /** `EVENT_TIME_COLUMNS` as epoch milliseconds, comma-separated, each empty when not set. */
  times: string;
  /** The row version read (`xmin`): the update applies only while the row is still that version. */
  guard: string;
};

/** Where each time column's value is in `times`. */
const TIME_INDEX = Object.fromEntries(EVENT_TIME_COLUMNS.map((c, i) => [c, i])) as Record<EventTimeColumn, number>;

/**
 * A time of a status target as epoch milliseconds, or null when not set: the column's part of `times`, read without
 * making a string (digits, an optional minus sign; integers far below 2^53, so exact).
 */
export function eventTimeOf(m: Pick<StatusTarget, 'times'>, column: EventTimeColumn): number | null {
  const times = m.times;
  let start = 0;
  for (let k = TIME_INDEX[column]; k > 0; k--) start = times.indexOf(',', start) + 1;
  let end = times.indexOf(',', start);
  if (end < 0) end = times.length;
  if (start >= end) return null;
  const negative = times.charCodeAt(start) === 0x2d;
  let value = 0;
  for (let i = negative ? start + 1 : start; i < end; i++) value = value * 10 + (times.charCodeAt(i) - 0x30);
  return negative ? -value : value;
}

/**
 * The row version a status event's update is computed from: `xmin`, the transaction that wrote this version of the
 * row. Every update writes a new version (a lock does not), so an equal `xmin` means the row is as it was read, and
 * reading it costs nothing (optimistic: no lock while reading).
 */
const eventGuard = (m: 'm' | 'messages') => sql`${sql.ref(`${m}.xmin`)}::text`;

/**
 * A time column as epoch milliseconds in text, empty when null (`date_part` gives float8 seconds; half a microsecond
 * is added before the floor so a value on an exact millisecond is not read one below it).
 */
const epochMsText = (column: string) => sql`coalesce(floor(date_part('epoch', ${sql.ref(column)}) * 1000 + 0.0005)::int8::text, '')`;

/** The columns a status event's rules read (not the payload nor the last webhook body, the widest), with the guard. */
const eventTargetColumns = sql`id, company_id, phone_number, status, reached_rank, ext_id,
  ${sql.join(EVENT_TIME_COLUMNS.map(epochMsText), sql` || ',' || `)} as times, pricing_rank, user_id, parent_user_id, username,
  ${eventGuard('messages')} as guard`;

/**
 * Messages named by status events (by wamid, or by our id echoed as biz_opaque_callback_data), read without a lock,
 * with their guard for `applyEventUpdates`, each once. The wamids are probed first; an id is probed only when no
 * message was found by wamid under it (a status that beat the commit of its own hand-off): a status names its own
 * message both ways, so the usual batch is one probe of `messages_ext_id` a status and not a second one of the
 * primary key for the same row. Two statements, not one `or`: each alone lets the planner see a unique index
 * (`messages_ext_id`, whose `ext_id is not null` the `= any` implies, and the primary key), so it probes them
 * whatever the table's statistics say; with the `or` and no fresh statistics (after a bulk start, or with
 * autovacuum off) it scanned the whole table for every status batch, a cost that grew with the table.
 */
export async function findMessagesForEvents(db: Db, wamids: string[], ids: string[]): Promise<StatusTarget[]> {
  // A wamid given twice finds its row once all the same (`= any` matches a row, not an element), so none is dropped here.
  const found = wamids.length === 0 ? [] : (await sql<StatusTarget>`
    select ${eventTargetColumns} from messages where ext_id = any(${textArray(wamids)}::text[])`.execute(db)).rows;
  if (ids.length === 0) return found;
  const seen = new Set<string>();
  for (let i = 0; i < found.length; i++) seen.add(found[i].id);
  const rest: string[] = [];
  for (let i = 0; i < ids.length; i++) if (!seen.has(ids[i])) rest.push(ids[i]);
  if (rest.length === 0) return found;
  const byId = await sql<StatusTarget>`
    select ${eventTargetColumns} from messages where id = any(${textArray([...new Set(rest)])}::text[]) and send_attempted_at is not null`.execute(db);
  return [...found, ...byId.rows];
}

/** These messages again (those whose guarded update found them changed), with their guard; no lock. */
export async function findMessagesForEventsById(db: Db, ids: string[]): Promise<StatusTarget[]> {
  const result = await sql<StatusTarget>`select ${eventTargetColumns} from messages where id = any(${textArray(ids)}::text[])`.execute(db);
  return result.rows;
}

/** The state and fields a status event leaves on a message (computed by the domain rules). */
export interface EventUpdate {
  id: string;
  /** The row's guard when it was read: the update applies only while it is unchanged. */
  guard: string;
  expected_status: MessageStatus;
  status: MessageStatus;
  reached_rank: number;
  ext_id: string | null;
  backend_sended_time: string | null;
  sended_time: string | null;
  delivered_time: string | null;
  seen_time: string | null;
  failed_time: string | null;
  error_message: string | null;
  error_message_detail: string | null;
  webhook_response: unknown;
  /** The move leaves a failed state: error_message, error_message_detail and failed_time are cleared. */
  clear_failure: boolean;
  /**
   * The `pricing` to store, from the highest-ranked status that carried one (`pricing_rank`, the delivery rank of that
   * status); stored only when above the row's own, so the result does not depend on the order statuses arrive in.
   * `pricing_rank` null: no pricing in these statuses.
   */
  pricing_category: string | null;
  pricing_type: string | null;
  pricing_billable: boolean | null;
  pricing_model: string | null;
  pricing_rank: number | null;
  /**
   * What the network said about the recipient: the BSUID (stored only when the message has none: it keeps what it
   * was sent to), the parent BSUID and username (the latest given replaces an older one). Null: not given.
   */
  user_id: string | null;
  parent_user_id: string | null;
  username: string | null;
}

/** A message a status batch changed, with its pricing before and after (the bulk send's cost counters follow it). */
export interface EventMovedRow extends MovedRow {
  phone_number: string | null;
  user_id: string | null;
  old_pricing_category: string | null;
  old_pricing_billable: boolean | null;
  pricing_category: string | null;
  pricing_billable: boolean | null;
}

/**
 * Applies status events to messages read with their guard (time fields only ever filled once; failure fields
 * cleared on recovery): one statement locks the rows in id order and updates those whose guard still holds. A row
 * that changed since it was read (a concurrent hand-off or another batch) is not updated and not returned: the
 * caller reads it again and recomputes. `wait: false` skips rows another transaction holds instead of waiting
 * (a transaction that already holds message rows must not wait for more: lock order, README).
 */
export async function applyEventUpdates(db: Db, rows: EventUpdate[], wait = true): Promise<EventMovedRow[]> {
  if (rows.length === 0) return [];
  const result = await sql<EventMovedRow>`
    with v as (select * from jsonb_to_recordset(${rowsJson(rows)}::jsonb) as v(id text, guard text, expected_status text, status text,
                 reached_rank smallint, ext_id text, backend_sended_time timestamptz, sended_time timestamptz,
                 delivered_time timestamptz, seen_time timestamptz, failed_time timestamptz, error_message text,
                 error_message_detail text, webhook_response jsonb, clear_failure boolean, pricing_category text,
                 pricing_type text, pricing_billable boolean, pricing_model text, pricing_rank smallint, user_id text,
                 parent_user_id text, username text)),
    t as (select m.id, m.status as old_status, m.reached_rank as old_rank, m.pricing_category as old_pricing_category,
                 m.pricing_billable as old_pricing_billable
          from messages m join v on v.id = m.id and ${amongIds(rows)}
          where m.status = v.expected_status and ${eventGuard('m')} = v.guard
          order by m.id for update of m ${wait ? sql`` : sql`skip locked`})
    update messages m set status = v.status, reached_rank = greatest(m.reached_rank, v.reached_rank),
      ext_id = coalesce(m.ext_id, v.ext_id),
      backend_sended_time = coalesce(m.backend_sended_time, v.backend_sended_time),
      sended_time = coalesce(m.sended_time, v.sended_time),
      delivered_time = coalesce(m.delivered_time, v.delivered_time),
      seen_time = coalesce(m.seen_time, v.seen_time),
      failed_time = case when v.clear_failure then null else coalesce(m.failed_time, v.failed_time) end,
      error_message = case when v.clear_failure then null else coalesce(v.error_message, m.error_message) end,
      error_message_detail = case when v.clear_failure then null else coalesce(v.error_message_detail, m.error_message_detail) end,
      webhook_response = coalesce(v.webhook_response, m.webhook_response),
      pricing_category = case when v.pricing_rank > coalesce(m.pricing_rank, -1) then v.pricing_category else m.pricing_category end,
      pricing_type = case when v.pricing_rank > coalesce(m.pricing_rank, -1) then v.pricing_type else m.pricing_type end,
      pricing_billable = case when v.pricing_rank > coalesce(m.pricing_rank, -1) then v.pricing_billable else m.pricing_billable end,
      pricing_model = case when v.pricing_rank > coalesce(m.pricing_rank, -1) then v.pricing_model else m.pricing_model end,
      pricing_rank = greatest(m.pricing_rank, v.pricing_rank),
      user_id = coalesce(m.user_id, v.user_id),
      parent_user_id = coalesce(v.parent_user_id, m.parent_user_id),
      username = coalesce(v.username, m.username),
      lease_owner = case when v.status = m.status then m.lease_owner else null end,
      lease_until = case when v.status = m.status then m.lease_until else null end,
      updated_at = now(), version = m.version + 1
    from t, v where m.id = t.id and v.id = m.id
    returning m.id, m.send_wizard_id, t.old_status, t.old_rank, m.status, m.reached_rank, m.phone_number, m.user_id,
      t.old_pricing_category, t.old_pricing_billable, m.pricing_category, m.pricing_billable`.execute(db);
  return result.rows;
}
