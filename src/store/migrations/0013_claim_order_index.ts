import { sql, type Kysely } from 'kysely';

/**
 * The claim reads a channel's due QUEUED rows `order by due_at, id`. `messages_due` was (channel_id, due_at):
 * a bulk send with total_time 0 gives every row the same due_at, so each claim of a 500-row batch sorted the
 * channel's whole backlog. With `id` in the index the claim reads its batch in order and stops after `limit` rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_due`.execute(db);
  await sql`create index messages_due on messages (channel_id, due_at, id) where status = 'QUEUED'`.execute(db);
}
