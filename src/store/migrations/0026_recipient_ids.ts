import { sql, type Kysely } from 'kysely';

/**
 * Recipients known by a business-scoped user id (BSUID, `domain/recipients.ts`).
 *
 * - `messages.user_id`, `parent_user_id`, `username`: the BSUID a message was sent to (given by the sender) or that
 *   the network reported for its recipient, the parent BSUID and the username the network showed. Nullable, no
 *   default: no table rewrite. `messages_by_user_id` serves a BSUID's messages (latest first) and moving a BSUID.
 * - `recipient_links`: per company, that a phone number and a BSUID are the same person, learnt only from the
 *   network (a webhook carrying both, a contact-request answer), with the parent BSUID and username seen with them,
 *   why (`source`) and when. One row per BSUID; a phone number may have several (portfolios, a recycled number): the
 *   latest seen is the one that counts as its key.
 * - `opt_outs` hold a phone number, a BSUID or both: the primary key becomes two partial unique indexes (one entry
 *   per phone number, one per BSUID). `applies_to` is `marketing` for the network's `user_preferences` stop (the user
 *   stopped marketing messages only), `all` otherwise; source `user_preferences` is added.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table messages
      add column user_id text,
      add column parent_user_id text,
      add column username text`.execute(db);
  await sql`create index messages_by_user_id on messages (user_id, created_at, id) where user_id is not null`.execute(db);
  await sql`
    create table recipient_links (
      company_id text not null references companies(id),
      user_id text not null,
      phone_number text not null,
      parent_user_id text,
      username text,
      source text not null check (source in ('status_webhook', 'inbound_message', 'contact_request', 'user_id_update')),
      learned_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      primary key (company_id, user_id)
    )`.execute(db);
  await sql`create index recipient_links_by_phone on recipient_links (company_id, phone_number, updated_at desc)`.execute(db);
  await sql`
    alter table opt_outs
      drop constraint opt_outs_pkey,
      alter column phone_number drop not null,
      add column user_id text,
      add column applies_to text not null default 'all' check (applies_to in ('all', 'marketing')),
      drop constraint opt_outs_source_check,
      add constraint opt_outs_source_check check (source in ('api', 'import', 'inbound_keyword', 'user_preferences')),
      add constraint opt_outs_has_recipient check (phone_number is not null or user_id is not null)`.execute(db);
  await sql`create unique index opt_outs_by_phone on opt_outs (company_id, phone_number) where phone_number is not null`.execute(db);
  await sql`create unique index opt_outs_by_user_id on opt_outs (company_id, user_id) where user_id is not null`.execute(db);
}
