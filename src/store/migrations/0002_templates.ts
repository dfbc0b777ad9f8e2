import { sql, type Kysely } from 'kysely';

/** Message templates, name checks (family B create rule) and uploaded media handles. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table templates (
      id text primary key,
      company_id text not null references companies(id),
      channel_id text not null references channels(id),
      waba_id text not null,
      name text not null,
      language text not null,
      category text not null,
      status text not null,
      components jsonb not null,
      allow_category_change boolean not null default false,
      rejected_reason text,
      quality_score text,
      media_names jsonb,
      status_refreshed_at timestamptz not null default now(),
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      deleted_at timestamptz
    )`.execute(db);
  await sql`create index templates_company_waba on templates (company_id, waba_id, created_at desc) where deleted_at is null`.execute(db);
  await sql`create index templates_waba_name on templates (waba_id, name)`.execute(db);
  await sql`
    create table template_name_checks (
      company_id text not null references companies(id),
      channel_id text not null references channels(id),
      name text not null,
      checked_at timestamptz not null default now(),
      primary key (company_id, channel_id, name)
    )`.execute(db);
  await sql`
    create table media_uploads (
      file_handle text primary key,
      company_id text not null references companies(id),
      channel_id text not null references channels(id),
      file_name text not null,
      file_type text not null,
      file_length bigint not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}
