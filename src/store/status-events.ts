/** SQL for status events that arrived before their message could be matched (kept, then retried). */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A kept status event. */
export interface PendingStatusEvent {
  id: string;
  wamid: string;
  callback_data: string | null;
  status: string;
  body: Record<string, unknown>;
  attempts: number;
}

/** Keeps unmatched status events (the raw status objects). */
export async function insertPendingStatusEvents(db: Db, events: Array<{ wamid: string; callback_data: string | null; status: string; body: unknown }>): Promise<void> {
  if (events.length === 0) return;
  await sql`
    insert into pending_status_events (wamid, callback_data, status, body)
    select wamid, callback_data, status, body
    from jsonb_to_recordset(${JSON.stringify(events)}::jsonb) as e(wamid text, callback_data text, status text, body jsonb)`.execute(db);
}

/**
 * Locks up to `limit` kept events, oldest first (by the bigint column: a bare `order by id` would sort the text
 * output column), skipping those another instance holds.
 */
export async function lockPendingStatusEvents(db: Db, limit: number): Promise<PendingStatusEvent[]> {
  const result = await sql<PendingStatusEvent>`
    select id::text as id, wamid, callback_data, status, body, attempts from pending_status_events
    order by pending_status_events.id limit ${limit} for update skip locked`.execute(db);
  return result.rows;
}

/** Removes kept events that found their message. */
export async function deletePendingStatusEvents(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`delete from pending_status_events where id = any(${ids}::bigint[])`.execute(db);
}

/** Counts another failed match; events older than `maxAgeSeconds` are dropped (the network retries for 7 days). */
export async function agePendingStatusEvents(db: Db, ids: string[], maxAgeSeconds: number): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    with bumped as (update pending_status_events set attempts = attempts + 1 where id = any(${ids}::bigint[]) returning id)
    delete from pending_status_events
    where id in (select id from bumped) and received_at < now() - make_interval(secs => ${maxAgeSeconds})`.execute(db);
}
