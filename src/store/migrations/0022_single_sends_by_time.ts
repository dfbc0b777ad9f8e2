import { sql, type Kysely } from 'kysely';

/**
 * The overview counts a company's single sends of the last 24 h / 7 d / 30 d by time. A partial index holds
 * single sends only (bulk rows are counted from their bulk send's counters), so its size and the overview's
 * read follow the single sends of the period, never the bulk rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index messages_single_created on messages (company_id, created_at) where send_wizard_id is null`.execute(db);
}
