import { sql, type Kysely } from 'kysely';

/**
 * Opt-outs: the company's suppression list of recipients who asked not to be messaged
 * (`source`: api, import, or an inbound keyword reply such as STOP), and the company's opt-out keywords (no row =
 * the defaults). Separate from `suppressed_numbers` (numbers the network called undeliverable, 131026): an opt-out
 * ends a row OPT_IN_FAILED, an undeliverable number OPT_IN_FAILED_INVALID_NUMBER, and removing an opt-out must not
 * forget that a number is undeliverable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table opt_outs (
      company_id text not null references companies(id),
      phone_number text not null,
      source text not null check (source in ('api', 'import', 'inbound_keyword')),
      keyword text,
      reason text,
      channel_id text,
      created_at timestamptz not null default now(),
      primary key (company_id, phone_number)
    )`.execute(db);
  await sql`create index opt_outs_newest on opt_outs (company_id, created_at desc, phone_number)`.execute(db);
  await sql`
    create table opt_out_settings (
      company_id text primary key references companies(id),
      keywords jsonb not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
}
