import { sql, type Kysely } from 'kysely';

/**
 * The bulk sends still storing their rows (PENDING), by channel: the due-work probe reads them every round for each
 * channel (listChannelsWithDueWork), so the read must not grow with every bulk send ever made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index send_wizards_storing on send_wizards (channel_id, created_at) where status = 'PENDING'`.execute(db);
}
