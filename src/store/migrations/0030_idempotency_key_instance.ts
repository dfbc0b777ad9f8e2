import { sql, type Kysely } from 'kysely';

/**
 * The instance (its dispatcher_instances owner) that holds an IN_PROGRESS Idempotency-Key reservation: once that
 * instance is known dead (no live heartbeat; on PGlite, any instance but the running one), a retry takes the key at
 * once instead of waiting out the lease (15 minutes for file starts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table idempotency_keys add column instance text`.execute(db);
}
