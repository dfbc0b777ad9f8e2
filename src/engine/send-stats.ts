/** The bulk-send timeline and the overview of a company's (or a channel's) sends over a period. */
import type { Kysely } from 'kysely';
import { tierLimit } from '../domain/channel.js';
import { periodBuckets, ratePercent, timelineOf, timelineStep, type OverviewPeriod, type TimelinePoint } from '../domain/send-stats.js';
import { AppError } from '../errors.js';
import { listChannels } from '../store/channels.js';
import type { Database } from '../store/schema.js';
import { countBulkSendFailuresByCode, countFailuresByCode, countSingleSendBillables, countSingleSendsByBucket, findBulkSendsSince, findMaxRowNo, findTimelineSample } from '../store/send-stats.js';
import { findBulkSend } from '../store/bulk-sends.js';
import { windowUseByChannel } from '../store/tier-window.js';
import { listBulkSendCosts } from '../store/bulk-send-costs.js';
import { costOf, type BillableCount } from '../domain/pricing/rate-card.js';
import { marketOf, rateCardOf } from './pricing.js';

type Db = Kysely<Database>;

const ms = (d: Date | null) => (d ? new Date(d).getTime() : null);

/**
 * How a bulk send's rows reached each stage over time: cumulative curves from every row, or from every k-th
 * row of a large send (each standing for k rows; `sampled_rows` says how many were read), and its failed rows by
 * reason. 404 for another company's id, like a missing one.
 */
export async function bulkSendTimeline(db: Db, companyId: string, id: string) {
  const bulkSend = await findBulkSend(db, companyId, id);
  if (!bulkSend) throw new AppError('NOT_FOUND', `Bulk send ${id} was not found.`, { field: 'id' });
  const maxRow = await findMaxRowNo(db, id);
  const step = timelineStep(maxRow);
  const rows = maxRow > 0 ? await findTimelineSample(db, id, step, maxRow) : [];
  const weight = rows.length > 0 ? bulkSend.summary / rows.length : 1;
  const { bucketSeconds, points } = timelineOf(
    rows.map((r) => ({ handed: ms(r.backend_sended_time), sent: ms(r.sended_time), delivered: ms(r.delivered_time), read: ms(r.seen_time), failed: ms(r.failed_time) })),
    step === 1 ? 1 : weight,
  );
  const failures = bulkSend.failed_count > 0 ? await countBulkSendFailuresByCode(db, id) : [];
  return {
    rows: bulkSend.summary,
    sampled_rows: rows.length,
    estimated: step > 1,
    bucket_seconds: bucketSeconds,
    points: points.map(isoPoint),
    failures: failures.map(failureView),
  };
}

function failureView(f: { code: string | null; title: string | null; n: number }) {
  return { code: f.code, title: f.title, count: f.n };
}

function isoPoint(p: TimelinePoint) {
  return { ...p, at: new Date(p.at).toISOString() };
}

/**
 * The overview of the last 24 h, 7 d or 30 d: messages made in the period (bulk rows by their bulk send's
 * creation, single sends by their own), how many reached sent, delivered and read (the network's words) or
 * failed, per hour or day; the failures by error code; each channel's tier use now; and what the billable ones
 * cost at Meta's list price (bulk sends from their cost counters, single sends from their stored pricing).
 */
export async function overview(db: Db, companyId: string, period: OverviewPeriod, channelId: string | null, now = Date.now()) {
  const channels = await listChannels(db, companyId);
  if (channelId && !channels.some((c) => c.id === channelId)) {
    throw new AppError('CHANNEL_NOT_FOUND', undefined, { field: 'channel_id' });
  }
  const { from, bucketSeconds, starts } = periodBuckets(period, now);
  const size = bucketSeconds * 1000;
  const series = new Map(starts.map((at) => [at, { messages: 0, sent: 0, delivered: 0, read: 0, failed: 0 }]));
  const bucketOf = (at: number) => series.get(Math.floor(at / size) * size);

  const bulk = await findBulkSendsSince(db, companyId, channelId, new Date(from));
  const totals = { messages: 0, bulk_sends: bulk.length, single_sends: 0, sent: 0, delivered: 0, read: 0, failed: 0, cancelled: 0 };
  for (const w of bulk) {
    const add = { messages: w.summary, sent: w.delivered_count, delivered: w.sent_count, read: w.seen_count, failed: w.failed_count };
    const point = bucketOf(new Date(w.created_at).getTime());
    for (const [k, v] of Object.entries(add) as Array<[keyof typeof add, number]>) {
      totals[k] += v;
      if (point) point[k] += v;
    }
    totals.cancelled += w.cancelled_count;
  }
  for (const s of await countSingleSendsByBucket(db, companyId, channelId, new Date(from), bucketSeconds)) {
    const point = series.get(s.bucket);
    totals.single_sends += s.messages;
    for (const k of ['messages', 'sent', 'delivered', 'read', 'failed'] as const) {
      totals[k] += s[k];
      if (point) point[k] += s[k];
    }
  }
  const failures = await countFailuresByCode(db, companyId, channelId, bulk.map((w) => w.id), new Date(from));
  const use = await windowUseByChannel(db, companyId);
  const cost = await costOfPeriod(db, companyId, channelId, bulk.map((w) => w.id), new Date(from));
  return {
    period,
    from: new Date(from).toISOString(),
    to: new Date(now).toISOString(),
    bucket_seconds: bucketSeconds,
    channel_id: channelId,
    totals: { ...totals, delivered_rate: ratePercent(totals.delivered, totals.sent), read_rate: ratePercent(totals.read, totals.delivered) },
    series: [...series.entries()].map(([at, p]) => ({ at: new Date(at).toISOString(), ...p })),
    failures: failures.map(failureView),
    cost,
    channels: channels
      .filter((c) => !channelId || c.id === channelId)
      .map((c) => ({
        channel_id: c.id,
        name: c.verified_name || c.display_phone_number,
        messaging_limit_tier: c.messaging_limit_tier ?? 'TIER_NOT_SET',
        tier_limit: tierLimit(c.messaging_limit_tier),
        tier_used_24h: use.get(c.id)?.used ?? 0,
      })),
  };
}

/** The estimated cost of the period's billable messages: these bulk sends' counters and the single sends since `from`. */
async function costOfPeriod(db: Db, companyId: string, channelId: string | null, bulkSendIds: string[], from: Date) {
  const [card, bulkCosts, singles] = await Promise.all([
    rateCardOf(db, companyId),
    listBulkSendCosts(db, bulkSendIds),
    countSingleSendBillables(db, companyId, channelId, from),
  ]);
  const counts: BillableCount[] = bulkCosts.map((r) => ({ market: r.market || null, category: r.category, count: r.billable_count }));
  for (const s of singles) counts.push({ market: marketOf({ phone_number: s.phone_prefix, user_id: s.user_prefix }), category: s.category, count: s.n });
  return costOf(card, counts);
}
