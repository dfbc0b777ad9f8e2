import { sql, type Kysely } from 'kysely';

/** Companies, API tokens, channels and the webhook inbox. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table companies (
      id text primary key,
      name text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table api_tokens (
      id text primary key,
      company_id text not null references companies(id),
      token_hash text not null unique,
      name text not null default '',
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`.execute(db);
  await sql`create index api_tokens_company on api_tokens (company_id)`.execute(db);
  await sql`
    create table channels (
      id text primary key,
      company_id text not null references companies(id),
      waba_id text not null,
      access_token text not null,
      display_phone_number text not null default '',
      verified_name text not null default '',
      status text not null default 'UNKNOWN',
      quality_rating text not null default 'UNKNOWN',
      messaging_limit_tier text,
      throughput_mps integer not null default 80,
      refreshed_at timestamptz,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index channels_company on channels (company_id)`.execute(db);
  await sql`create index channels_waba_number on channels (waba_id, display_phone_number)`.execute(db);
  await sql`
    create table webhook_events (
      id bigserial primary key,
      received_at timestamptz not null default now(),
      body text not null,
      state text not null default 'RECEIVED',
      attempts integer not null default 0,
      applied_at timestamptz,
      last_error text
    )`.execute(db);
  await sql`create index webhook_events_pending on webhook_events (id) where state = 'RECEIVED'`.execute(db);
}
