/**
 * SQL for the client webhook outbox (migration 0009). Rows are written by triggers in the transaction of the
 * change; the delivery worker claims them (`for update skip locked`, so several instances share the work),
 * one subject (message or bulk send) at a time per endpoint: a row is claimable only when no earlier PENDING
 * row of the same (endpoint, order_key) exists, so event n+1 never goes before n was delivered or given up.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import { DELIVERY, DELIVERY_STATES, type DeliveryState } from '../domain/client-webhooks.js';
import type { Database, WebhookDeliveriesTable } from './schema.js';

type Db = Kysely<Database>;

/** A delivery row. */
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

export { DELIVERY_STATES, type DeliveryState };

const [PENDING, DELIVERED, FAILED] = [DELIVERY.PENDING, DELIVERY.DELIVERED, DELIVERY.FAILED].map((s) => sql.lit(s));

/**
 * Claims up to `limit` due deliveries of one endpoint for `owner` (lease `leaseSeconds`), oldest due first,
 * each the head of its subject's queue. The attempt is counted at the claim (a crash counts as an attempt).
 */
export async function claimDeliveries(db: Db, endpointId: string, owner: string, limit: number, leaseSeconds: number): Promise<DeliveryRow[]> {
  if (limit <= 0) return [];
  const result = await sql<DeliveryRow>`
    update webhook_deliveries d set lease_owner = ${owner}, lease_until = now() + make_interval(secs => ${leaseSeconds}),
      attempts = d.attempts + 1, last_attempt_at = now()
    where d.id in (
      select c.id from webhook_deliveries c
      where c.endpoint_id = ${endpointId} and c.state = ${PENDING} and c.next_attempt_at <= now()
        and (c.lease_until is null or c.lease_until < now())
        and not exists (select 1 from webhook_deliveries p
                        where p.endpoint_id = c.endpoint_id and p.order_key = c.order_key and p.state = ${PENDING} and p.id < c.id)
      order by c.next_attempt_at, c.id limit ${limit}
      for update skip locked)
    returning d.*`.execute(db);
  return result.rows;
}

/**
 * The receiver answered 2xx: DELIVERED (whoever holds the lease now: the delivery happened). The next event of
 * the subject becomes due at once if it was only waiting behind this one.
 */
export async function markDelivered(db: Db, id: string, statusCode: number): Promise<void> {
  await sql`
    with done as (
      update webhook_deliveries set state = ${DELIVERED}, delivered_at = now(), last_status_code = ${statusCode},
        last_error = null, lease_owner = null, lease_until = null
      where id = ${id} and state = ${PENDING}
      returning endpoint_id, order_key)
    update webhook_deliveries n set next_attempt_at = now()
    from done
    where n.endpoint_id = done.endpoint_id and n.order_key = done.order_key and n.state = ${PENDING}
      and n.attempts = 0 and n.next_attempt_at > now()`.execute(db);
}

/**
 * An attempt of `owner` failed: retried at `retryAt`, or given up (FAILED) when `retryAt` is null. Waiting
 * events of the subject move to the retry time too, so the claim does not scan them meanwhile; a give-up
 * lets the next one go at once.
 */
export async function markAttemptFailed(
  db: Db,
  owner: string,
  id: string,
  failure: { statusCode: number | null; error: string; retryAt: Date | null },
): Promise<void> {
  const retryAt = failure.retryAt?.toISOString() ?? null;
  await sql`
    with moved as (
      update webhook_deliveries set
        state = case when ${retryAt}::timestamptz is null then ${FAILED} else ${PENDING} end,
        next_attempt_at = coalesce(${retryAt}::timestamptz, next_attempt_at),
        last_status_code = ${failure.statusCode}, last_error = ${failure.error.slice(0, 500)},
        lease_owner = null, lease_until = null
      where id = ${id} and state = ${PENDING} and lease_owner = ${owner}
      returning endpoint_id, order_key, id)
    update webhook_deliveries n set next_attempt_at = coalesce(${retryAt}::timestamptz, now())
    from moved
    where n.endpoint_id = moved.endpoint_id and n.order_key = moved.order_key and n.state = ${PENDING} and n.id > moved.id
      and n.attempts = 0`.execute(db);
}

/** Gives claims of `owner` back without counting the attempt (a drain that could not wait for them). */
export async function releaseDeliveries(db: Db, owner: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await sql`
    update webhook_deliveries set lease_owner = null, lease_until = null, attempts = greatest(attempts - 1, 0)
    where id = any(${ids}::bigint[]) and state = ${PENDING} and lease_owner = ${owner}`.execute(db);
}

/** Single-process databases (PGlite): claims of a dead process end now. */
export async function expireAllDeliveryLeases(db: Db): Promise<void> {
  await sql`update webhook_deliveries set lease_until = null, lease_owner = null where state = ${PENDING} and lease_owner is not null`.execute(db);
}

/**
 * Gives up PENDING deliveries older than `maxAgeSeconds` that nobody will attempt: their endpoint is disabled
 * or deleted (an enabled endpoint's rows are given up by their own failed attempt). Returns how many.
 */
export async function giveUpUndeliverable(db: Db, maxAgeSeconds: number, limit: number): Promise<number> {
  const result = await sql`
    update webhook_deliveries set state = ${FAILED}, lease_owner = null, lease_until = null,
      last_error = coalesce(last_error || '; ', '') || 'not delivered within the retry window (endpoint disabled or removed)'
    where id in (
      select d.id from webhook_deliveries d
      where d.state = ${PENDING} and d.created_at < now() - make_interval(secs => ${maxAgeSeconds})
        and not exists (select 1 from webhook_endpoints e where e.id = d.endpoint_id and e.enabled)
      order by d.created_at limit ${limit}
      for update skip locked)`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Deletes finished (DELIVERED / FAILED) deliveries older than `olderThanSeconds`, at most `limit`. */
export async function deleteOldDeliveries(db: Db, olderThanSeconds: number, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries
      where state <> ${PENDING} and created_at < now() - make_interval(secs => ${olderThanSeconds})
      order by created_at limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Deletes up to `limit` deliveries of an endpoint (after the endpoint itself was deleted). */
export async function deleteEndpointDeliveries(db: Db, endpointId: string, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_deliveries where id in (
      select id from webhook_deliveries where endpoint_id = ${endpointId} order by id desc limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** A page of an endpoint's delivery log, newest first, optionally of one state (the caller checked the endpoint is the company's). */
export async function listDeliveries(
  db: Db,
  companyId: string,
  endpointId: string,
  state: DeliveryState | undefined,
  limit: number,
  offset: number,
): Promise<DeliveryRow[]> {
  const result = await sql<DeliveryRow>`
    select * from webhook_deliveries
    where endpoint_id = ${endpointId} and company_id = ${companyId} ${state ? sql`and state = ${state}` : sql``}
    order by id desc limit ${limit} offset ${offset}`.execute(db);
  return result.rows;
}

/** How many deliveries the endpoint's log holds (of one state). */
export async function countDeliveries(db: Db, companyId: string, endpointId: string, state: DeliveryState | undefined): Promise<number> {
  const result = await sql<{ n: number }>`
    select count(*)::int as n from webhook_deliveries
    where endpoint_id = ${endpointId} and company_id = ${companyId} ${state ? sql`and state = ${state}` : sql``}`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** One delivery of the company's endpoint. */
export async function findDelivery(db: Db, companyId: string, endpointId: string, id: string): Promise<DeliveryRow | undefined> {
  if (!/^\d{1,18}$/.test(id)) return undefined;
  const result = await sql<DeliveryRow>`
    select * from webhook_deliveries where id = ${id}::bigint and endpoint_id = ${endpointId} and company_id = ${companyId}`.execute(db);
  return result.rows[0];
}

/**
 * A replay: a new PENDING delivery of the same event (same event id) to the same endpoint, due now. It has its
 * own order key, so it neither waits for nor holds up the subject's other events.
 */
export async function insertReplay(db: Db, source: DeliveryRow): Promise<DeliveryRow> {
  const result = await sql<DeliveryRow>`
    insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at, replay_of)
    select endpoint_id, company_id, event_id, event_type, 'replay:' || id || ':' || gen_random_uuid()::text, data, occurred_at, id
    from webhook_deliveries where id = ${source.id}::bigint and company_id = ${source.company_id}
    returning *`.execute(db);
  return result.rows[0]!;
}

/** An endpoint's undelivered deliveries: how many (up to the cap), the oldest, and when the next attempt is due. */
export interface EndpointBacklog {
  endpoint_id: string;
  pending: number;
  oldest_pending_at: Date | null;
  next_attempt_at: Date | null;
}

/**
 * The backlog of these endpoints (every endpoint when `endpointIds` is absent), each figure read through a
 * PENDING-only index: `pending` counts up to `cap` (the worker bounds a dead endpoint's backlog; the cap keeps this
 * read bounded too).
 */
export async function findEndpointBacklogs(db: Db, cap: number, endpointIds?: string[]): Promise<EndpointBacklog[]> {
  const result = await sql<EndpointBacklog>`
    select e.id as endpoint_id,
      (select count(*) from (select 1 from webhook_deliveries d where d.endpoint_id = e.id and d.state = ${PENDING}
                             limit ${cap}) x)::int as pending,
      (select d.created_at from webhook_deliveries d where d.endpoint_id = e.id and d.state = ${PENDING}
       order by d.id limit 1) as oldest_pending_at,
      (select d.next_attempt_at from webhook_deliveries d where d.endpoint_id = e.id and d.state = ${PENDING}
       order by d.next_attempt_at limit 1) as next_attempt_at
    from webhook_endpoints e
    where ${endpointIds ? sql`e.id = any(${endpointIds}::text[])` : sql`true`}
    order by e.id`.execute(db);
  return result.rows;
}

/** PENDING deliveries per endpoint state (enabled or not), for the health of the outbox. */
export async function countPendingDeliveries(db: Db): Promise<number> {
  const result = await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where state = ${PENDING}`.execute(db);
  return result.rows[0]?.n ?? 0;
}
