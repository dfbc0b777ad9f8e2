/**
 * Reads for the operator's metrics (`GET /metrics`). None is tenant-scoped: they aggregate over every company
 * and expose channel ids only. Each is cheap on a large database: sums over the bulk sends' counters (one row
 * per bulk send), a grouped count of single sends over a partial index that holds only them, index look-ups for
 * the oldest due message and the oldest unapplied webhook event, and counts that stop at a cap.
 */
import { sql, type Kysely } from 'kysely';
import { DELIVERY } from '../domain/client-webhooks.js';
import { QUEUED_STATUS } from '../domain/message-moves.js';
import { REPORT_COUNTERS } from '../domain/message-states.js';
import { state } from './message-moves.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A bulk send's report counters (`REPORT_COUNTERS`, declared once in the domain). */
type BulkCounters = Record<(typeof REPORT_COUNTERS)[number], number>;

/** The bulk sends' counters summed per channel and bulk-send status. */
export interface BulkCounterSums extends BulkCounters {
  channel_id: string;
  status: string;
  bulk_sends: number;
}

/** `coalesce(sum(c), 0)::bigint as c` for every report counter. */
const counterSums = sql.join(REPORT_COUNTERS.map((c) => sql`coalesce(sum(${sql.ref(c)}), 0)::bigint as ${sql.ref(c)}`));

/** Sums every bulk send's counters per (channel, bulk-send status): a scan of send_wizards, never of messages. */
export async function sumBulkCountersByChannel(db: Db): Promise<BulkCounterSums[]> {
  const result = await sql<Record<string, string | number>>`
    select channel_id, status, count(*)::int as bulk_sends, ${counterSums}
    from send_wizards group by channel_id, status`.execute(db);
  return result.rows.map((r) => {
    const out: Record<string, unknown> = { channel_id: r.channel_id, status: r.status, bulk_sends: Number(r.bulk_sends) };
    for (const c of REPORT_COUNTERS) out[c] = Number(r[c]);
    return out as unknown as BulkCounterSums;
  });
}

/** Single sends (messages without a bulk send) counted per channel and message status. */
export interface SingleSendCount {
  channel_id: string;
  status: string;
  messages: number;
}

/**
 * Counts single sends per (channel, status): an index-only scan of the partial index `messages_single_status`
 * (migration 0014), which holds single sends only, so bulk rows are never read.
 */
export async function countSingleSendsByChannel(db: Db): Promise<SingleSendCount[]> {
  const result = await sql<{ channel_id: string; status: string; messages: string | number }>`
    select channel_id, status, count(*) as messages
    from messages where send_wizard_id is null group by channel_id, status`.execute(db);
  return result.rows.map((r) => ({ channel_id: r.channel_id, status: r.status, messages: Number(r.messages) }));
}

/**
 * Per channel: the due time of its earliest QUEUED message (any kind, single or bulk), or null when none is
 * queued. One index look-up per channel (`messages_due` is ordered by channel and due time).
 */
export async function findOldestQueuedPerChannel(db: Db): Promise<Array<{ channel_id: string; oldest_due_at: Date | null }>> {
  const result = await sql<{ channel_id: string; oldest_due_at: Date | string | null }>`
    select c.id as channel_id,
      (select m.due_at from messages m where m.channel_id = c.id and m.status = ${state(QUEUED_STATUS)} order by m.due_at limit 1) as oldest_due_at
    from channels c`.execute(db);
  return result.rows.map((r) => ({ channel_id: r.channel_id, oldest_due_at: r.oldest_due_at === null ? null : new Date(r.oldest_due_at) }));
}

/**
 * The webhook inbox's backlog: events stored and not applied yet, counted up to `cap` (the partial index
 * `webhook_events_pending`), and the arrival time of the oldest (the first by id).
 */
export async function findPendingWebhookBacklog(db: Db, cap: number): Promise<{ pending: number; oldest_received_at: Date | null }> {
  const result = await sql<{ pending: string | number; oldest_received_at: Date | string | null }>`
    select (select count(*) from (select 1 from webhook_events where state = 'RECEIVED' limit ${cap}) p) as pending,
      (select received_at from webhook_events where state = 'RECEIVED' order by id limit 1) as oldest_received_at`.execute(db);
  const row = result.rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    oldest_received_at: row?.oldest_received_at ? new Date(row.oldest_received_at) : null,
  };
}

/** The names of the migrations applied to this database (readiness). */
export async function listAppliedMigrations(db: Db): Promise<string[]> {
  const result = await sql<{ name: string }>`select name from tms_migrations`.execute(db);
  return result.rows.map((r) => r.name);
}

/**
 * The client-webhook outbox's backlog (migration 0009): deliveries still PENDING, counted up to `cap`, and the
 * creation time of the oldest (the partial index `webhook_deliveries_pending_age`).
 */
export async function findPendingDeliveryBacklog(db: Db, cap: number): Promise<{ pending: number; oldest_created_at: Date | null }> {
  const result = await sql<{ pending: string | number; oldest_created_at: Date | string | null }>`
    select (select count(*) from (select 1 from webhook_deliveries where state = ${state(DELIVERY.PENDING)} limit ${cap}) p) as pending,
      (select created_at from webhook_deliveries where state = ${state(DELIVERY.PENDING)} order by created_at limit 1) as oldest_created_at`.execute(db);
  const row = result.rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    oldest_created_at: row?.oldest_created_at ? new Date(row.oldest_created_at) : null,
  };
}
