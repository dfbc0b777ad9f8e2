/**
 * Bulk-send statuses (the interface calls a bulk send a "send wizard"), declared once, and which of them each lifecycle action accepts
 * (DESIGN §7 plus the scheduling / user pause / retry additions, docs/bulk-send-lifecycle.md).
 */

/** Every bulk-send status. */
export const BULK_SEND_STATUSES = ['PENDING', 'SCHEDULED', 'RUNNING', 'PAUSED', 'PAUSED_BY_USER', 'STOPPED', 'COMPLETED'] as const;

/** A bulk-send status. */
export type BulkSendStatus = (typeof BULK_SEND_STATUSES)[number];

/** Statuses whose stored rows the dispatcher queues (the service's own PAUSED included: it resumes by itself). */
export const QUEUEING_STATUSES: readonly BulkSendStatus[] = ['RUNNING', 'PAUSED'];

/** Statuses that complete when no row is left unsettled (a user pause with nothing left to hold completes too). */
export const COMPLETABLE_STATUSES: readonly BulkSendStatus[] = ['RUNNING', 'PAUSED', 'PAUSED_BY_USER'];

/** Statuses `stop` accepts. */
export const STOPPABLE_STATUSES: readonly BulkSendStatus[] = ['PENDING', 'SCHEDULED', 'RUNNING', 'PAUSED', 'PAUSED_BY_USER'];

/** Statuses a user pause accepts (PAUSED_BY_USER again is an idempotent answer, not a move). */
export const PAUSABLE_STATUSES: readonly BulkSendStatus[] = ['RUNNING', 'PAUSED'];

/** Finished: nothing more will be sent (retry takes only these). */
export const FINISHED_STATUSES: readonly BulkSendStatus[] = ['STOPPED', 'COMPLETED'];

/** The furthest ahead a bulk send may be scheduled: 90 days. */
export const MAX_SCHEDULE_AHEAD_SECONDS = 90 * 24 * 3600;

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Reads `scheduled_at`: an ISO 8601 date-time WITH an offset (`Z` or `±hh:mm`), later than `now` and at most
 * MAX_SCHEDULE_AHEAD_SECONDS ahead. Returns the instant, or the reason it is refused.
 */
export function parseScheduledAt(value: unknown, now: Date): { ok: true; at: Date } | { ok: false; reason: string } {
  if (typeof value !== 'string' || !ISO_WITH_OFFSET.test(value)) {
    return { ok: false, reason: 'scheduled_at must be an ISO 8601 date-time with an offset, e.g. 2026-11-24T09:00:00+03:00 or 2026-11-24T06:00:00Z' };
  }
  const at = new Date(value);
  const [y, mo, d] = value.slice(0, 10).split('-').map(Number);
  const daysInMonth = new Date(Date.UTC(y, mo, 0)).getUTCDate();
  if (Number.isNaN(at.getTime()) || mo < 1 || mo > 12 || d < 1 || d > daysInMonth) return { ok: false, reason: 'scheduled_at is not a real date-time' };
  if (at.getTime() <= now.getTime()) return { ok: false, reason: 'scheduled_at is in the past; leave it out to start now' };
  if (at.getTime() - now.getTime() > MAX_SCHEDULE_AHEAD_SECONDS * 1000) {
    return { ok: false, reason: `scheduled_at is more than ${MAX_SCHEDULE_AHEAD_SECONDS / 86400} days ahead` };
  }
  return { ok: true, at };
}

/**
 * The network's numeric error code of a failed row, as it leads `error_message_detail` ("131049: ...",
 * "131026", "130429: ... (after 8 attempts)"); null when the failure has none (a local check, a bounded wait).
 */
export function errorCodeOf(detail: string | null | undefined): number | null {
  const m = /^(\d+)\b/.exec(detail ?? '');
  return m ? Number(m[1]) : null;
}
