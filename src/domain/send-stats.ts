/**
 * Statistics of sends for the reports and the overview: the times of a bulk send's rows as cumulative curves,
 * and the buckets an overview period is cut into. Pure; the store reads the rows, the routes shape the answer.
 */

/** The stages a message goes through, as the console names them (network sent/delivered/read, DESIGN §6). */
export const TIMELINE_STAGES = ['handed', 'sent', 'delivered', 'read', 'failed'] as const;

/** A stage of the timeline. */
export type TimelineStage = (typeof TIMELINE_STAGES)[number];

/** The time fields of one row (ms since the epoch, null until set). */
export interface RowTimes {
  /** backend_sended_time: handed to the network. */
  handed: number | null;
  /** sended_time: BACKEND_DELIVERED, the network's `sent`. */
  sent: number | null;
  /** delivered_time: BACKEND_SENT, the network's `delivered`. */
  delivered: number | null;
  /** seen_time: BACKEND_SEEN, `read`. */
  read: number | null;
  failed: number | null;
}

/** One point of a timeline: how many rows had reached each stage by `at` (cumulative). */
export type TimelinePoint = { at: number } & Record<TimelineStage, number>;

/** Bucket widths a timeline may use (seconds): whole, readable steps. */
const STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400];

/**
 * When a row reached each stage. Events arrive late and out of order, and each state sets its own time
 * once, so a row read before its `delivered` event has no delivered_time: a later stage implies the earlier.
 */
export function stageTimes(r: RowTimes): Record<TimelineStage, number | null> {
  const read = r.read;
  const delivered = r.delivered ?? read;
  const sent = r.sent ?? delivered;
  const handed = r.handed ?? sent;
  return { handed, sent, delivered, read, failed: r.failed };
}

/**
 * Cumulative curves of the rows' stages, cut into at most `maxPoints` buckets of a readable width from the
 * first event to the last; each row counts `weight` (a sample of every k-th row stands for k rows). The
 * first point is the start (all zero), each next one the end of a bucket.
 */
export function timelineOf(rows: RowTimes[], weight = 1, maxPoints = 120): { bucketSeconds: number; points: TimelinePoint[] } {
  const times = rows.map(stageTimes);
  let first = Infinity;
  let last = -Infinity;
  for (const t of times) {
    for (const stage of TIMELINE_STAGES) {
      const at = t[stage];
      if (at === null) continue;
      if (at < first) first = at;
      if (at > last) last = at;
    }
  }
  if (first === Infinity) return { bucketSeconds: 0, points: [] };
  const span = Math.max(1, (last - first) / 1000);
  const bucketSeconds = STEPS.find((s) => span / s <= maxPoints) ?? Math.ceil(span / maxPoints / 86400) * 86400;
  const start = Math.floor(first / (bucketSeconds * 1000)) * bucketSeconds * 1000;
  const buckets = Math.floor((last - start) / (bucketSeconds * 1000)) + 1;
  const counts = TIMELINE_STAGES.map(() => new Array<number>(buckets).fill(0));
  for (const t of times) {
    TIMELINE_STAGES.forEach((stage, i) => {
      const at = t[stage];
      if (at !== null) counts[i][Math.floor((at - start) / (bucketSeconds * 1000))] += 1;
    });
  }
  const running = TIMELINE_STAGES.map(() => 0);
  const zero = Object.fromEntries(TIMELINE_STAGES.map((s) => [s, 0])) as Record<TimelineStage, number>;
  const points: TimelinePoint[] = [{ at: start, ...zero }];
  for (let b = 0; b < buckets; b++) {
    const point = { at: start + (b + 1) * bucketSeconds * 1000 } as TimelinePoint;
    TIMELINE_STAGES.forEach((stage, i) => {
      running[i] += counts[i][b];
      point[stage] = Math.round(running[i] * weight);
    });
    points.push(point);
  }
  return { bucketSeconds, points };
}

/** A share in percent with one decimal (93.5), or null when there is nothing to divide by. */
export function ratePercent(part: number, whole: number): number | null {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : null;
}

/** The most rows a timeline reads: a larger bulk send is read every k-th row. */
export const TIMELINE_SAMPLE_ROWS = 2000;

/** The step between sampled row numbers for a bulk send whose highest row number is `maxRow`. */
export function timelineStep(maxRow: number, sample = TIMELINE_SAMPLE_ROWS): number {
  return Math.max(1, Math.ceil(maxRow / sample));
}

/** Overview periods and how each is cut. */
export const OVERVIEW_PERIODS = {
  '24h': { seconds: 24 * 3600, bucketSeconds: 3600 },
  '7d': { seconds: 7 * 86400, bucketSeconds: 86400 },
  '30d': { seconds: 30 * 86400, bucketSeconds: 86400 },
} as const;

/** An overview period. */
export type OverviewPeriod = keyof typeof OVERVIEW_PERIODS;

/**
 * The buckets of a period ending `now`: aligned to whole hours (24 h) or UTC days, the first one holding the
 * period's start, the last one now.
 */
export function periodBuckets(period: OverviewPeriod, now: number): { from: number; bucketSeconds: number; starts: number[] } {
  const { seconds, bucketSeconds } = OVERVIEW_PERIODS[period];
  const size = bucketSeconds * 1000;
  const from = now - seconds * 1000;
  const first = Math.floor(from / size) * size;
  const starts: number[] = [];
  for (let at = first; at <= now; at += size) starts.push(at);
  return { from, bucketSeconds, starts };
}
