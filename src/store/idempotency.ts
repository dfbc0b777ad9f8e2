/**
 * Idempotency keys (`Idempotency-Key` header): a reservation row per (company, key) inserted before the work,
 * completed with the first answer, and purged after the retention window. The primary key makes the
 * reservation the one place where two concurrent requests (on one instance or many) are told apart.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** How long a key answers with its first result. */
export const IDEMPOTENCY_RETENTION_SECONDS = 24 * 3600;

/** A stored key. */
export interface IdempotencyKeyRow {
  request_hash: string;
  state: 'IN_PROGRESS' | 'DONE';
  status_code: number | null;
  response: string | null;
  expired: boolean;
}

/** A reservation to insert or take over. */
export interface IdempotencyReservation {
  companyId: string;
  key: string;
  requestHash: string;
  owner: string;
  leaseSeconds: number;
  /** The instance running the attempt: its death frees the key at once (see takeOverIdempotencyKey). */
  instance?: string;
  /** The database is this process's alone (PGlite): every other instance is dead. */
  soleInstance?: boolean;
}

/** Inserts the reservation; false when the company already has this key. */
export async function insertIdempotencyKey(db: Db, r: IdempotencyReservation): Promise<boolean> {
  const result = await sql<{ key: string }>`
    insert into idempotency_keys (company_id, key, request_hash, state, owner, instance, locked_until)
    values (${r.companyId}, ${r.key}, ${r.requestHash}, 'IN_PROGRESS', ${r.owner}, ${r.instance ?? null}, now() + make_interval(secs => ${r.leaseSeconds}))
    on conflict (company_id, key) do nothing
    returning key`.execute(db);
  return result.rows.length === 1;
}

/** SQL true when the reservation's instance is known dead to the caller's instance `r.instance`. */
function ownerDead(r: IdempotencyReservation) {
  if (r.instance === undefined) return sql<boolean>`false`;
  if (r.soleInstance) return sql<boolean>`(instance is not null and instance <> ${r.instance})`;
  return sql<boolean>`(instance is not null and instance <> ${r.instance}
    and not exists (select 1 from dispatcher_instances d where d.owner = idempotency_keys.instance and d.seen_until > now()))`;
}

/**
 * Takes a key over: one older than the retention window (whatever it held), or a reservation of the same
 * request whose lease ran out or whose instance is dead — another instance with no live heartbeat in
 * dispatcher_instances, or on a database this process holds alone any other instance (the owner's work commits
 * only while it still holds the key, so a takeover never lets both commit).
 */
export async function takeOverIdempotencyKey(db: Db, r: IdempotencyReservation): Promise<boolean> {
  const result = await sql<{ key: string }>`
    update idempotency_keys
    set request_hash = ${r.requestHash}, state = 'IN_PROGRESS', owner = ${r.owner}, instance = ${r.instance ?? null}, status_code = null, response = null,
      locked_until = now() + make_interval(secs => ${r.leaseSeconds}), created_at = now()
    where company_id = ${r.companyId} and key = ${r.key}
      and (created_at < now() - make_interval(secs => ${IDEMPOTENCY_RETENTION_SECONDS})
        or (state = 'IN_PROGRESS' and request_hash = ${r.requestHash} and (locked_until < now() or ${ownerDead(r)})))
    returning key`.execute(db);
  return result.rows.length === 1;
}

/** The company's key, if stored. */
export async function findIdempotencyKey(db: Db, companyId: string, key: string): Promise<IdempotencyKeyRow | undefined> {
  const result = await sql<IdempotencyKeyRow>`
    select request_hash, state, status_code, response,
      created_at < now() - make_interval(secs => ${IDEMPOTENCY_RETENTION_SECONDS}) as expired
    from idempotency_keys where company_id = ${companyId} and key = ${key}`.execute(db);
  return result.rows[0];
}

/**
 * Stores the first answer of the reservation's owner; false when the owner no longer holds it (taken over).
 * Called inside the work's own transaction where the work allows it, so work and answer commit together.
 */
export async function completeIdempotencyKey(
  db: Db,
  companyId: string,
  key: string,
  owner: string,
  statusCode: number,
  response: string,
): Promise<boolean> {
  const result = await sql`
    update idempotency_keys set state = 'DONE', status_code = ${statusCode}, response = ${response}
    where company_id = ${companyId} and key = ${key} and owner = ${owner} and state = 'IN_PROGRESS'`.execute(db);
  return Number(result.numAffectedRows ?? 0) === 1;
}

/** Removes the owner's reservation (the work failed with 5xx: a retry runs anew). */
export async function deleteIdempotencyReservation(db: Db, companyId: string, key: string, owner: string): Promise<void> {
  await sql`
    delete from idempotency_keys where company_id = ${companyId} and key = ${key} and owner = ${owner} and state = 'IN_PROGRESS'`.execute(db);
}

/** Deletes keys older than the retention window, at most `limit`; returns how many. */
export async function deleteExpiredIdempotencyKeys(db: Db, limit: number): Promise<number> {
  const result = await sql`
    delete from idempotency_keys where (company_id, key) in (
      select company_id, key from idempotency_keys
      where created_at < now() - make_interval(secs => ${IDEMPOTENCY_RETENTION_SECONDS})
      order by created_at limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
