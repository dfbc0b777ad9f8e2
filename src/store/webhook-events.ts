/**
 * SQL for the webhook inbox: every event is stored, in the transaction that applies it (apply on receipt) or before it
 * is applied (store first); each is applied at most once. Ids are returned as text (bigint beyond JavaScript's exact
 * integers); orders name the column, `webhook_events.id`, because a bare `order by id` sorts by the text output
 * column ('1000' before '999'), which a numeric cursor then skips past.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A verified raw body to store, with the one channel (phone number id) its changes concern (null: none or several). */
export interface NewWebhookEvent {
  body: string;
  phoneNumberId: string | null;
}

/** Stores a verified raw webhook body; returns its id. */
export async function insertWebhookEvent(db: Db, event: NewWebhookEvent): Promise<string> {
  const row = await db
    .insertInto('webhook_events')
    .values({ body: event.body, state: 'RECEIVED', phone_number_id: event.phoneNumberId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return String(row.id);
}

/**
 * Values as an array of one parameter each, in order: a single text[] parameter would have the driver escape every
 * quote of every body into the array's text form (and the server unescape it). Padded with nulls to a power of two,
 * so a handful of statement texts serve every group size and stay prepared (prepared-statements.ts); the padding is
 * dropped by the `b is not null` of the inserts (a body is never null), and the channels' array is padded alike.
 */
function textArray(values: Array<string | null>) {
  let size = 1;
  while (size < values.length) size *= 2;
  const params: Array<string | null> = [...values];
  while (params.length < size) params.push(null);
  return sql`array[${sql.join(params.map((b) => sql`${b}::text`))}]`;
}

/** Sorts ids (bigint as text) numerically. */
function byNumber(ids: string[]): string[] {
  return ids.sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : BigInt(a) > BigInt(b) ? 1 : 0));
}

/**
 * Stores verified raw bodies in one statement (one commit for webhook POSTs that arrive together); returns their
 * ids in the order of `events` (ids are drawn in insertion order, which follows the array).
 */
export async function insertWebhookEvents(db: Db, events: NewWebhookEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const result = await sql<{ id: string }>`
    insert into webhook_events (body, state, phone_number_id)
    select b, 'RECEIVED', p from unnest(${textArray(events.map((e) => e.body))}, ${textArray(events.map((e) => e.phoneNumberId))}) with ordinality as u(b, p, n)
    where b is not null order by n
    returning id::text as id`.execute(db);
  return byNumber(result.rows.map((r) => r.id));
}

/**
 * Stores verified raw bodies that this transaction applies (apply on receipt): each row is written once, already
 * APPLIED, and commits with the changes it made (or rolls back with them). Ids in the order of `bodies`.
 */
export async function insertAppliedWebhookEvents(db: Db, events: NewWebhookEvent[]): Promise<string[]> {
  if (events.length === 0) return [];
  const result = await sql<{ id: string }>`
    insert into webhook_events (body, state, applied_at, phone_number_id)
    select b, 'APPLIED', now(), p from unnest(${textArray(events.map((e) => e.body))}, ${textArray(events.map((e) => e.phoneNumberId))}) with ordinality as u(b, p, n)
    where b is not null order by n
    returning id::text as id`.execute(db);
  return byNumber(result.rows.map((r) => r.id));
}

/**
 * One of `count` lanes of the inbox: the events of the channels whose hash falls to `index` (`hashtext`, the server's
 * own, so every instance splits alike), and lane 0 also those of no single channel.
 */
export interface WebhookLane {
  index: number;
  count: number;
}

/** The condition that an event belongs to `lane` (none for the only lane). */
function inLane(lane: WebhookLane | null) {
  if (lane === null || lane.count <= 1) return sql``;
  const hashed = sql`(hashtext(phone_number_id) & 2147483647) % ${lane.count} = ${lane.index}`;
  return lane.index === 0 ? sql`and (phone_number_id is null or ${hashed})` : sql`and ${hashed}`;
}

/**
 * Ids and body sizes (characters' bytes) of events not yet applied after `afterId` (and up to `upToId`, and of
 * `lane`), oldest first (the apply loop and crash recovery; the claim reads the bodies): the drain sizes its
 * transactions by them. `octet_length` reads a stored (even compressed) value's size from its header.
 */
export async function listPendingWebhookEvents(
  db: Db,
  afterId: string,
  limit: number,
  upToId: string | null = null,
  lane: WebhookLane | null = null,
): Promise<Array<{ id: string; bytes: number }>> {
  const result = await sql<{ id: string; bytes: number }>`
    select id::text as id, octet_length(body)::int as bytes from webhook_events
    where state = 'RECEIVED' and id > ${afterId}::bigint ${upToId === null ? sql`` : sql`and id <= ${upToId}::bigint`} ${inLane(lane)}
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
