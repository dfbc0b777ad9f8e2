import { sql, type Kysely } from 'kysely';

/**
 * Idempotency keys: one row per (company, key), inserted as a reservation before the work (the primary key
 * stops two instances from both running it) and completed with the first answer; purged after 24 hours.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table idempotency_keys (
      company_id text not null references companies(id),
      key text not null,
      request_hash text not null,
      state text not null,
      owner text not null,
      locked_until timestamptz not null,
      status_code integer,
      response text,
      created_at timestamptz not null default now(),
      primary key (company_id, key)
    )`.execute(db);
  await sql`create index idempotency_keys_created on idempotency_keys (created_at)`.execute(db);
}
