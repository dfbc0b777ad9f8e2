/**
 * Bulk-send statuses (the interface calls a bulk send a "send wizard"), declared once, and the moves between them
 * (DESIGN §7 plus the scheduling / user pause / retry additions, docs/bulk-send-lifecycle.md).
 */

/** Every bulk-send status. */
export const BULK_SEND_STATUSES = ['PENDING', 'SCHEDULED', 'RUNNING', 'PAUSED', 'PAUSED_BY_USER', 'STOPPED', 'COMPLETED'] as const;

/** A bulk-send status. */
export type BulkSendStatus = (typeof BULK_SEND_STATUSES)[number];

/** A move of a bulk send: the statuses it may leave and the status it reaches. */
export interface BulkSendMove {
  readonly from: readonly BulkSendStatus[];
  readonly to: BulkSendStatus;
}

/** A bulk send while its start stores its rows (not listed, not reported; removed if the start dies). */
export const STORING_STATUS: BulkSendStatus = 'PENDING';

/**
 * The bulk-send transition table: every allowed move, named. The store's statements take their guards and their
 * `set status` from here, the engine its decisions, and the API each bulk send's `allowed_actions`.
 */
export const BULK_SEND_MOVES = {
  /** Every row is stored and no schedule: it runs. */
  start: { from: [STORING_STATUS], to: 'RUNNING' },
  /** Every row is stored, with `scheduled_at`: it waits. */
  schedule: { from: [STORING_STATUS], to: 'SCHEDULED' },
  /** The scheduled time has come. */
  activate: { from: ['SCHEDULED'], to: 'RUNNING' },
  /** The service holds it (channel blocked, token refused, tier window full); its reason is kept. */
  hold: { from: ['RUNNING'], to: 'PAUSED' },
  /** Its rows go out again: the service's hold ends. */
  release: { from: ['PAUSED'], to: 'RUNNING' },
  /** The user pauses it (a service hold's reason is kept). */
  userPause: { from: ['RUNNING', 'PAUSED'], to: 'PAUSED_BY_USER' },
  /** The user resumes it, with no service hold at the pause. */
  userResume: { from: ['PAUSED_BY_USER'], to: 'RUNNING' },
  /** The user resumes it, with a service hold in force at the pause (the service lifts it when rows go out). */
  userResumeHeld: { from: ['PAUSED_BY_USER'], to: 'PAUSED' },
  /** No row is left unsettled (a user pause with nothing left to hold completes too). */
  complete: { from: ['RUNNING', 'PAUSED', 'PAUSED_BY_USER'], to: 'COMPLETED' },
  /** The user stops it: rows not handed to the network are cancelled. */
  stop: { from: [STORING_STATUS, 'SCHEDULED', 'RUNNING', 'PAUSED', 'PAUSED_BY_USER'], to: 'STOPPED' },
} as const satisfies Record<string, BulkSendMove>;

/** The statuses each status may move to (read from the moves). */
export const BULK_SEND_TRANSITIONS = {} as Record<BulkSendStatus, readonly BulkSendStatus[]>;
for (const s of BULK_SEND_STATUSES) {
  const moves: readonly BulkSendMove[] = Object.values(BULK_SEND_MOVES);
  BULK_SEND_TRANSITIONS[s] = [...new Set(moves.filter((m) => m.from.includes(s)).map((m) => m.to))];
}

/** True when `move` may leave `status`. */
export function canMoveBulkSend(move: BulkSendMove, status: string): boolean {
  return (move.from as readonly string[]).includes(status);
}

/** Statuses whose stored rows the dispatcher queues: running, or held by the service (it resumes by itself). */
export const QUEUEING_STATUSES: readonly BulkSendStatus[] = [BULK_SEND_MOVES.hold.from[0], BULK_SEND_MOVES.release.from[0]];

/** Statuses that complete when no row is left unsettled. */
export const COMPLETABLE_STATUSES: readonly BulkSendStatus[] = BULK_SEND_MOVES.complete.from;

/** Statuses `stop` accepts. */
export const STOPPABLE_STATUSES: readonly BulkSendStatus[] = BULK_SEND_MOVES.stop.from;

/** Statuses a user pause accepts (PAUSED_BY_USER again is an idempotent answer, not a move). */
export const PAUSABLE_STATUSES: readonly BulkSendStatus[] = BULK_SEND_MOVES.userPause.from;

/** Statuses whose rows no claim hands to the network: a user pause parks them (NONE), a stop cancels them. */
export const WITHHELD_STATUSES: readonly BulkSendStatus[] = [BULK_SEND_MOVES.userPause.to, BULK_SEND_MOVES.stop.to];

/** Finished: no move leaves them, nothing more will be sent (retry takes only these). */
export const FINISHED_STATUSES: readonly BulkSendStatus[] = BULK_SEND_STATUSES.filter((s) => BULK_SEND_TRANSITIONS[s].length === 0);

/** What a user can do to a bulk send (the API's `allowed_actions`). */
export const BULK_SEND_ACTIONS = ['pause', 'resume', 'stop', 'retry'] as const;

/** A user action on a bulk send. */
export type BulkSendAction = (typeof BULK_SEND_ACTIONS)[number];

/**
 * The actions a user may take on a bulk send now, from the transition table: pause, resume and stop when their move
 * leaves its status, retry when it has finished with failed rows.
 */
export function allowedActions(bulkSend: { status: string; failed_count: number }): BulkSendAction[] {
  const allowed: Record<BulkSendAction, boolean> = {
    pause: canMoveBulkSend(BULK_SEND_MOVES.userPause, bulkSend.status),
    resume: canMoveBulkSend(BULK_SEND_MOVES.userResume, bulkSend.status),
    stop: canMoveBulkSend(BULK_SEND_MOVES.stop, bulkSend.status),
    retry: (FINISHED_STATUSES as readonly string[]).includes(bulkSend.status) && bulkSend.failed_count > 0,
  };
  return BULK_SEND_ACTIONS.filter((a) => allowed[a]);
}

/** The furthest ahead a bulk send may be scheduled: 90 days. */
export const MAX_SCHEDULE_AHEAD_SECONDS = 90 * 24 * 3600;

/** RFC 3339 date-time with an offset (seconds included), as the schemas' `format: date-time` checks it. */
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

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
