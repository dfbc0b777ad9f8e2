/** Reads of a company's messages for the lookup (by phone number or BSUID, latest first). */
import { sql, type Kysely } from 'kysely';
import type { MessageRow } from './message-inserts.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Who a lookup is for: a phone number (E.164) or a BSUID. */
export type LookupRecipient = { phone: string } | { userId: string };

/**
 * Up to `limit` of the company's messages to a phone number (E.164) or a BSUID, newest first; with `afterId`
 * (the last message of the previous page) the page after it. The index `messages_by_phone` (or
 * `messages_by_user_id`) is walked backwards from there, so a page costs its own rows. The cursor is read in the
 * same statement (no microseconds lost on the way); an unknown cursor gives an empty page.
 */
export async function findMessagesOfRecipient(db: Db, companyId: string, who: LookupRecipient, limit: number, afterId?: string): Promise<MessageRow[]> {
  const after = afterId
    ? sql`and (created_at, id) < (select c.created_at, c.id from messages c where c.id = ${afterId} and c.company_id = ${companyId})`
    : sql``;
  const match = 'phone' in who ? sql`phone_number = ${who.phone}` : sql`user_id = ${who.userId}`;
  const result = await sql<MessageRow>`
    select * from messages
    where ${match} and company_id = ${companyId} ${after}
    order by created_at desc, id desc limit ${limit}`.execute(db);
  return result.rows;
}
