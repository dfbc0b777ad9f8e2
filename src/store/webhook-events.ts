/**
 * SQL for the webhook inbox: every event is stored, in the transaction that applies it (apply on receipt) or before it
 * is applied (store first); each is applied at most once. Ids are returned as text (bigint beyond JavaScript's exact
 * integers); orders name the column, `webhook_events.id`, because a bare `order by id` sorts by the text output
 * column ('1000' before '999'), which a numeric cursor then skips past.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Stores a verified raw webhook body; returns its id. */
export async function insertWebhookEvent(db: Db, body: string): Promise<string> {
  const row = await db.insertInto('webhook_events').values({ body, state: 'RECEIVED' }).returning('id').executeTakeFirstOrThrow();
  return String(row.id);
}

/**
 * The bodies as an array of one parameter each, in order: a single text[] parameter would have the driver escape
 * every quote of every body into the array's text form (and the server unescape it). Padded with nulls to a power of
 * two, so a handful of statement texts serve every group size and stay prepared (prepared-statements.ts); the nulls
 * are dropped by the `b is not null` of the insert (a body is never null).
 */
function bodyArray(bodies: string[]) {
  let size = 1;
  while (size < bodies.length) size *= 2;
  const params: Array<string | null> = [...bodies];
  while (params.length < size) params.push(null);
  return sql`array[${sql.join(params.map((b) => sql`${b}::text`))}]`;
}

/**
 * Stores verified raw bodies in one statement (one commit for webhook POSTs that arrive together); returns their
 * ids in the order of `bodies` (ids are drawn in insertion order, which follows the array).
 */
export async function insertWebhookEvents(db: Db, bodies: string[]): Promise<string[]> {
  if (bodies.length === 0) return [];
  const result = await sql<{ id: string }>`
    insert into webhook_events (body, state)
    select b, 'RECEIVED' from unnest(${bodyArray(bodies)}) with ordinality as u(b, n) where b is not null order by n
    returning id::text as id`.execute(db);
  return result.rows.map((r) => r.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}

/**
 * Stores verified raw bodies that this transaction applies (apply on receipt): each row is written once, already
 * APPLIED, and commits with the changes it made (or rolls back with them). Ids in the order of `bodies`.
 */
export async function insertAppliedWebhookEvents(db: Db, bodies: string[]): Promise<string[]> {
  if (bodies.length === 0) return [];
  const result = await sql<{ id: string }>`
    insert into webhook_events (body, state, applied_at)
    select b, 'APPLIED', now() from unnest(${bodyArray(bodies)}) with ordinality as u(b, n) where b is not null order by n
    returning id::text as id`.execute(db);
  return result.rows.map((r) => r.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}

/**
 * Ids and body sizes (characters' bytes) of events not yet applied after `afterId` (and up to `upToId`), oldest first
 * (the apply loop and crash recovery; the claim reads the bodies): the drain sizes its transactions by them.
 * `octet_length` reads a stored (even compressed) value's size from its header.
 */
export async function listPendingWebhookEvents(db: Db, afterId: string, limit: number, upToId: string | null = null): Promise<Array<{ id: string; bytes: number }>> {
  const result = await sql<{ id: string; bytes: number }>`
    select id::text as id, octet_length(body)::int as bytes from webhook_events
    where state = 'RECEIVED' and id > ${afterId}::bigint ${upToId === null ? sql`` : sql`and id <= ${upToId}::bigint`}
    order by webhook_events.id limit ${limit}`.execute(db);
  return result.rows.map((r) => ({ id: r.id, bytes: Number(r.bytes) }));
}

/**
 * The largest id of an event not yet applied, stored by any process; null when none is pending (read from the end of
 * the pending index).
 */
export async function highestPendingWebhookEventId(db: Db): Promise<string | null> {
  const result = await sql<{ id: string | null }>`select max(id)::text as id from webhook_events where state = 'RECEIVED'`.execute(db);
  return result.rows[0]?.id ?? null;
}

/** Locks the events among `ids` that are still pending, skipping those another instance holds. */
export async function claimWebhookEvents(db: Db, ids: string[]): Promise<Array<{ id: string; body: string }>> {
  const result = await sql<{ id: string; body: string }>`
    select id::text as id, body from webhook_events
    where id = any(${ids}::bigint[]) and state = 'RECEIVED' order by webhook_events.id for update skip locked`.execute(db);
  return result.rows;
}

/** Marks events applied. */
export async function markWebhookEventsApplied(db: Db, ids: string[]): Promise<void> {
  await sql`update webhook_events set state = 'APPLIED', applied_at = now() where id = any(${ids}::bigint[])`.execute(db);
}

/** Records a failed application; after `maxAttempts` the event is parked as FAILED. */
export async function markWebhookEventFailed(db: Db, id: string, error: string, maxAttempts: number): Promise<void> {
  await db
    .updateTable('webhook_events')
    .set({
      attempts: sql<number>`attempts + 1`,
      last_error: error.slice(0, 2000),
      state: sql<string>`case when attempts + 1 >= ${maxAttempts} then 'FAILED' else 'RECEIVED' end`,
    })
    .where('id', '=', id)
    .execute();
}

/** Counts events by state (for /health and tests). */
export async function countWebhookEventsByState(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('webhook_events')
    .select(['state', db.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
}

/**
 * Deletes applied events older than `olderThanSeconds` (retention), oldest first, at most `limit` at a time: an
 * index range over `webhook_events_applied`; rows another instance is deleting are skipped.
 */
export async function deleteOldAppliedWebhookEvents(db: Db, olderThanSeconds: number, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_events where id in (
      select id from webhook_events
      where state = 'APPLIED' and applied_at < now() - make_interval(secs => ${olderThanSeconds})
      order by applied_at limit ${limit} for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
