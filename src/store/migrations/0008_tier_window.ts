import { sql, type Kysely } from 'kysely';

/**
 * Tier window: a recipient counts from its LATEST accepted business-initiated send
 * (`last_sent_at`); a slot reserved for a send the network has not yet accepted names that message
 * (`pending_message_id`) so a refusal or an invalid number gives it back. A channel whose window is full is
 * held until the earliest expiry (`channel_tier_holds`): its held rows are not claimed meanwhile.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table tier_recipients rename column first_sent_at to last_sent_at`.execute(db);
  await sql`alter table tier_recipients add column pending_message_id text`.execute(db);
  await sql`create index tier_recipients_pending on tier_recipients (pending_message_id) where pending_message_id is not null`.execute(db);
  await sql`
    create table channel_tier_holds (
      channel_id text primary key references channels(id),
      held_until timestamptz not null
    )`.execute(db);
}
