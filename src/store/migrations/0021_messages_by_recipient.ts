import { sql, type Kysely } from 'kysely';

/**
 * Message lookup by phone number (`GET /api/v1/messages?phone_number=`), latest first: the index serves the
 * equality and the order (created_at, id) backwards, so a page reads only its own rows whatever the size of
 * the table. The company filter is checked on those rows (one number is rarely messaged by many companies).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index messages_by_phone on messages (phone_number, created_at, id)`.execute(db);
}
