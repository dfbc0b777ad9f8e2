import { sql, type Kysely } from 'kysely';

/**
 * What each message cost, and the Marketing Messages API.
 *
 * - `messages.pricing_*`: the `pricing` of the message's status webhooks (category, type, billable, pricing model)
 *   and the rank of the status that carried it (a later status's pricing replaces an earlier one's, whatever order
 *   they arrive in). Nullable columns without a default: no table rewrite.
 * - `bulk_send_costs`: per bulk send, the billable messages by pricing category and market (the recipient's country,
 *   '' when unknown), kept in the transaction of each status batch, so a report reads a few rows per bulk send and
 *   never counts messages.
 * - `company_rate_cards`: a company's replacement of the shipped rate card (no row: the shipped one).
 * - `channels.marketing_messages_*`: send MARKETING templates through `/marketing_messages`; the reason and time it
 *   was switched off when the network refused the account.
 * - `send_wizards.message_send_ttl_seconds`: the bulk send's TTL for the Marketing Messages API.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table messages
      add column pricing_category text,
      add column pricing_type text,
      add column pricing_billable boolean,
      add column pricing_model text,
      add column pricing_rank smallint`.execute(db);
  await sql`
    create table bulk_send_costs (
      send_wizard_id text not null references send_wizards(id),
      category text not null,
      market text not null,
      billable_count bigint not null default 0,
      primary key (send_wizard_id, category, market)
    )`.execute(db);
  await sql`
    create table company_rate_cards (
      company_id text primary key references companies(id),
      currency text not null,
      effective_date text not null,
      note text not null default '',
      rates jsonb not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    alter table channels
      add column marketing_messages_enabled boolean not null default false,
      add column marketing_messages_disabled_reason text,
      add column marketing_messages_disabled_at timestamptz`.execute(db);
  await sql`alter table send_wizards add column message_send_ttl_seconds integer`.execute(db);
}
