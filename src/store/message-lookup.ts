/** Reads of a company's messages for the lookup (by phone number or BSUID, latest first), following recipient links. */
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { MessageRow } from './message-inserts.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** Who a lookup is for: a phone number (E.164) or a BSUID. */
export type LookupRecipient = { phone: string } | { userId: string };

/**
 * Up to `limit` of the company's messages to a phone number (E.164) or a BSUID, newest first; with `afterId`
 * (the last message of the previous page) the page after it.
 *
 * A recipient link (the network showed the phone number and the BSUID together) makes them one person, so the
 * lookup also returns the messages stored under the other identifier only:
 * - by BSUID: its messages (`user_id`), and the messages to the phone number linked to it that carry no BSUID
 *   (sent by number before the network reported one); a message to that number under another BSUID (a recycled
 *   number) is that BSUID's, not this one's;
 * - by phone number: its messages (`phone_number`), and the messages to a BSUID linked to it that carry no phone
 *   number (sent to the BSUID alone).
 * The two parts never overlap. Each is an index walk backwards from the cursor (`messages_by_user_id`,
 * `messages_by_phone`; the link by its primary key or `recipient_links_by_phone`) limited to the page, so a page
 * costs its own rows. The cursor is read in the same statement (no microseconds lost on the way); an unknown cursor
 * gives an empty page.
 */
export async function findMessagesOfRecipient(db: Db, companyId: string, who: LookupRecipient, limit: number, afterId?: string): Promise<MessageRow[]> {
  return (await messagesOfRecipientQuery(companyId, who, limit, afterId).execute(db)).rows;
}

/** The statement of findMessagesOfRecipient (its plan is checked by a test). */
export function messagesOfRecipientQuery(companyId: string, who: LookupRecipient, limit: number, afterId?: string): RawBuilder<MessageRow> {
  const after = (alias: string): RawBuilder<unknown> =>
    afterId
      ? sql`and (${sql.ref(`${alias}.created_at`)}, ${sql.ref(`${alias}.id`)}) < (select c.created_at, c.id from messages c where c.id = ${afterId} and c.company_id = ${companyId})`
      : sql``;
  const direct = 'phone' in who ? sql`m.phone_number = ${who.phone}` : sql`m.user_id = ${who.userId}`;
  // Per link, a walk of the other identifier's index (a lateral join keeps it an index condition).
  const link = 'phone' in who ? sql`l.phone_number = ${who.phone}` : sql`l.user_id = ${who.userId}`;
  const linked =
    'phone' in who
      ? sql`m.user_id = l.user_id and m.user_id is not null and m.phone_number is null`
      : sql`m.phone_number = l.phone_number and m.user_id is null`;
  return sql<MessageRow>`
    select * from (
      (select m.* from messages m where ${direct} and m.company_id = ${companyId} ${after('m')}
        order by m.created_at desc, m.id desc limit ${limit})
      union all
      (select x.* from recipient_links l cross join lateral (
          select m.* from messages m where ${linked} and m.company_id = ${companyId} ${after('m')}
          order by m.created_at desc, m.id desc limit ${limit}) x
        where l.company_id = ${companyId} and ${link}
        order by x.created_at desc, x.id desc limit ${limit})
    ) found
    order by created_at desc, id desc limit ${limit}`;
}
