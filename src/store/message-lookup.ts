/** Reads of a company's messages for the lookup (by recipient, latest first); one function per statement. */
import { sql, type Kysely } from 'kysely';
import type { MessageRow } from './message-inserts.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/**
 * Up to `limit` of the company's messages to `phone` (E.164), newest first; with `afterId` (the last message
 * of the previous page) the page after it. The index `messages_by_phone` is walked backwards from there, so a
 * page costs its own rows. The cursor is read in the same statement (no microseconds lost on the way); an
 * unknown cursor gives an empty page.
 */
export async function findMessagesByPhone(db: Db, companyId: string, phone: string, limit: number, afterId?: string): Promise<MessageRow[]> {
  const after = afterId
    ? sql`and (created_at, id) < (select c.created_at, c.id from messages c where c.id = ${afterId} and c.company_id = ${companyId})`
    : sql``;
  const result = await sql<MessageRow>`
    select * from messages
    where phone_number = ${phone} and company_id = ${companyId} ${after}
    order by created_at desc, id desc limit ${limit}`.execute(db);
  return result.rows;
}
