import { sql, type Kysely } from 'kysely';

/**
 * Bounded waits and tables: an index over the messages that await their first status event (per channel,
 * oldest hand-off first), an index over applied webhook events by age (retention deletes in indexed
 * batches), and one row per channel recording when its last status webhook arrived and since when the
 * channel's status webhooks look stale.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index messages_awaiting_status on messages (channel_id, backend_sended_time) where status = 'SENT_TO_BACKEND'`.execute(db);
  await sql`create index webhook_events_applied on webhook_events (applied_at) where state = 'APPLIED'`.execute(db);
  await sql`
    create table channel_status_webhooks (
      channel_id text primary key references channels(id),
      last_status_at timestamptz,
      stale_since timestamptz
    )`.execute(db);
}
