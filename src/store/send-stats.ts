/**
 * Reads for the bulk-send timeline and the overview; one function per statement. None reads every row of a
 * large table: a timeline samples at most TIMELINE_SAMPLE_ROWS rows through the (send_wizard_id, row_no) index,
 * bulk volumes come from the bulk sends' counters, single sends through their own partial index, failures
 * through the (send_wizard_id, status) index.
 */
import { sql, type Kysely } from 'kysely';
import { FAILED_STATUSES } from '../domain/message-states.js';
import { states } from './message-moves.js';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

const channelFilter = (column: string, channelId: string | null) => (channelId ? sql`and ${sql.ref(column)} = ${channelId}` : sql``);

/** The highest row number of a bulk send (0 when it has none): one step back through its row index. */
export async function findMaxRowNo(db: Db, bulkSendId: string): Promise<number> {
  const result = await sql<{ n: number | null }>`select max(row_no)::int as n from messages where send_wizard_id = ${bulkSendId}`.execute(db);
  return result.rows[0]?.n ?? 0;
}

/** The time fields of rows step, 2·step, … of a bulk send (every row when step is 1). */
export async function findTimelineSample(db: Db, bulkSendId: string, step: number, maxRow: number) {
  const result = await sql<{ backend_sended_time: Date | null; sended_time: Date | null; delivered_time: Date | null; seen_time: Date | null; failed_time: Date | null }>`
    select m.backend_sended_time, m.sended_time, m.delivered_time, m.seen_time, m.failed_time
    from generate_series(${step}::int, ${maxRow}::int, ${step}::int) as g(n)
    join messages m on m.send_wizard_id = ${bulkSendId} and m.row_no = g.n`.execute(db);
  return result.rows;
}

/** The counters of the company's bulk sends created since `from` (optionally of one channel), oldest first. */
export async function findBulkSendsSince(db: Db, companyId: string, channelId: string | null, from: Date) {
  const result = await sql<{
    id: string; channel_id: string; created_at: Date; summary: number; awaiting_backend_count: number; delivered_count: number;
    sent_count: number; seen_count: number; failed_count: number; cancelled_count: number;
  }>`
    select id, channel_id, created_at, summary, awaiting_backend_count, delivered_count, sent_count, seen_count, failed_count, cancelled_count
    from send_wizards where company_id = ${companyId} and created_at >= ${from} ${channelFilter('channel_id', channelId)}
    order by created_at`.execute(db);
  return result.rows;
}

/**
 * Single sends made since `from`, per bucket of `bucketSeconds` (aligned to the epoch): how many, and how many
 * reached sent, delivered, read, or failed. Read through `messages_single_created` (single sends only).
 */
export async function countSingleSendsByBucket(db: Db, companyId: string, channelId: string | null, from: Date, bucketSeconds: number) {
  const result = await sql<{ bucket: number; messages: number; sent: number; delivered: number; read: number; failed: number }>`
    select (floor(extract(epoch from created_at) / ${bucketSeconds}) * ${bucketSeconds})::float8 * 1000 as bucket,
      count(*)::int as messages,
      count(*) filter (where reached_rank >= 2)::int as sent,
      count(*) filter (where reached_rank >= 3)::int as delivered,
      count(*) filter (where reached_rank >= 4)::int as read,
      count(*) filter (where status in (${states(FAILED_STATUSES)}))::int as failed
    from messages
    where company_id = ${companyId} and send_wizard_id is null and created_at >= ${from} ${channelFilter('channel_id', channelId)}
    group by 1 order by 1`.execute(db);
  return result.rows.map((r) => ({ ...r, bucket: Number(r.bucket) }));
}

/**
 * Failed messages by the code that starts their error detail (131049, RECIPIENT_OPTED_OUT, …) with one title of
 * each: the failed rows of these bulk sends and the company's failed single sends since `from`. Most first.
 */
export async function countFailuresByCode(db: Db, companyId: string, channelId: string | null, bulkSendIds: string[], from: Date, limit = 20) {
  const result = await sql<{ code: string | null; title: string | null; n: number }>`
    with failed as (
      select error_message, error_message_detail from messages
      where send_wizard_id = any(${bulkSendIds}::text[]) and status in (${states(FAILED_STATUSES)})
      union all
      select error_message, error_message_detail from messages
      where company_id = ${companyId} and send_wizard_id is null and created_at >= ${from}
        and status in (${states(FAILED_STATUSES)}) ${channelFilter('channel_id', channelId)})
    select substring(error_message_detail from '^[A-Za-z0-9_]+') as code, max(error_message) as title, count(*)::int as n
    from failed group by 1 order by n desc, 1 limit ${limit}`.execute(db);
  return result.rows;
}

/**
 * Billed single sends (billable, delivered or read) made since `from`, by pricing category and the first four digits of the phone number
 * (enough to tell its country; for a message with no phone number, its BSUID's `CC.` prefix): the few rows the overview prices them from.
 */
export async function countSingleSendBillables(db: Db, companyId: string, channelId: string | null, from: Date) {
  const result = await sql<{ category: string; phone_prefix: string | null; user_prefix: string | null; n: number }>`
    select pricing_category as category, left(regexp_replace(phone_number, '[^0-9]', '', 'g'), 4) as phone_prefix,
      case when phone_number is null then substring(user_id from '^[A-Z]{2}\.') end as user_prefix, count(*)::int as n
    from messages
    where company_id = ${companyId} and send_wizard_id is null and created_at >= ${from} ${channelFilter('channel_id', channelId)}
      and pricing_billable and pricing_category is not null and reached_rank >= 3
    group by 1, 2, 3`.execute(db);
  return result.rows;
}

/** One bulk send's failed rows by the code that starts their error detail, with one title of each. Most first. */
export async function countBulkSendFailuresByCode(db: Db, bulkSendId: string, limit = 20) {
  const result = await sql<{ code: string | null; title: string | null; n: number }>`
    select substring(error_message_detail from '^[A-Za-z0-9_]+') as code, max(error_message) as title, count(*)::int as n
    from messages where send_wizard_id = ${bulkSendId} and status in (${states(FAILED_STATUSES)})
    group by 1 order by n desc, 1 limit ${limit}`.execute(db);
  return result.rows;
}
