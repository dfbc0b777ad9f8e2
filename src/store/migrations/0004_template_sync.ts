import { sql, type Kysely } from 'kysely';

/**
 * Template sync from the WABA: where a template came from (created through the service or imported from the
 * network), its parameter format and the components exactly as the network returns them; and when each company's
 * WABA listing was last read completely (`template_syncs`).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table templates add column source text not null default 'service'`.execute(db);
  await sql`alter table templates add column parameter_format text not null default 'POSITIONAL'`.execute(db);
  await sql`alter table templates add column network_components jsonb`.execute(db);
  await sql`
    create table template_syncs (
      company_id text not null references companies(id),
      waba_id text not null,
      attempted_at timestamptz not null default now(),
      synced_at timestamptz,
      primary key (company_id, waba_id)
    )`.execute(db);
}
