import { sql, type Kysely } from 'kysely';

/**
 * Every move of a message is a non-HOT update (its status is indexed), so it writes a new entry in every
 * index of `messages`. `messages_company (company_id, id)` had no reader that needs it: company-scoped reads of
 * messages go by primary key (`findMessagesByIds`: `id = any(…)` plus the company filter) or through a bulk send
 * (`send_wizard_id`), and the retry's exclusion reads the company's messages with a hash anti-join (a rare call).
 * Dropped: one index entry fewer per row version (about seven per bulk-send message).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop index if exists messages_company`.execute(db);
}
