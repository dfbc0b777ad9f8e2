import { sql, type Kysely } from 'kysely';

/**
 * `GET /metrics` counts single sends (messages without a bulk send) per channel and status. Bulk rows are
 * counted from their bulk send's counters, so this partial index holds single sends only: the grouped count is
 * an index-only scan over them (its size follows the single sends, never the bulk rows), read at most once
 * per metrics cache period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index messages_single_status on messages (channel_id, status) where send_wizard_id is null`.execute(db);
}
