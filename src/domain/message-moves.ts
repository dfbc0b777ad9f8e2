/**
 * Every move the store makes on messages, declared once: the states its rows may leave (taken from the transition
 * table, `TRANSITIONS`, one stage at a time) and the state they reach. The store's statements take both their
 * guard (`status in (...)`) and their `set status` from here, and so does the counters' old status wherever a
 * statement cannot read it back; the bulk-send counters then follow from (old status, new status) through
 * `counterDelta`. No statement of the store names a state by hand (test/store/no-status-literals.test.ts).
 */
import { sourcesOf, STAGE_STATUSES, type MessageStatus, type MoveStage } from './message-states.js';

/** A move: the states its rows may leave, and the state they reach. */
export interface MessageMove {
  readonly from: readonly MessageStatus[];
  readonly to: MessageStatus;
}

/** A move whose rows reach one of several states, row by row (the number check's outcome). */
export interface CheckMove {
  readonly from: readonly MessageStatus[];
  readonly to: readonly MessageStatus[];
  /** The outcome that lets the row be sent (it gets the attempt mark). */
  readonly passed: MessageStatus;
}

const move = (to: MessageStatus, stage: MoveStage): MessageMove => ({ from: sourcesOf(to, stage), to });

/** The number check's outcomes: the number may be sent to, or the row fails. */
export const CHECK_OUTCOMES: readonly MessageStatus[] = ['OPT_IN_SUCCESS', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER'];

const check = (stage: MoveStage): CheckMove => ({ from: sourcesOf(CHECK_OUTCOMES, stage), to: CHECK_OUTCOMES, passed: 'OPT_IN_SUCCESS' });

/** The moves of the dispatcher, of recovery, of the bounded waits and of the user's stop and pause. */
export const MESSAGE_MOVES = {
  /** A running bulk send's stored rows join the queue (NONE → QUEUED). */
  queue: move('QUEUED', 'waiting'),
  /** The leased claim (QUEUED → AGENDA). */
  claim: move('AGENDA', 'waiting'),
  /** Stop: waiting rows → CANCELLED. */
  cancelWaiting: move('CANCELLED', 'waiting'),
  /** Stop: leased rows → CANCELLED, only while no send attempt is recorded. */
  cancelLeased: move('CANCELLED', 'leased'),
  /** User pause: queued rows → NONE (waiting again). */
  parkWaiting: move('NONE', 'waiting'),
  /** User pause: leased rows → NONE, only while no send attempt is recorded. */
  parkLeased: move('NONE', 'leased'),
  /** Leased → QUEUED (before any attempt; after a refused attempt see `refusedSend`; an expired lease). */
  requeue: move('QUEUED', 'leased'),
  /** A refused attempt goes back to the queue: states that both allow a requeue and carry an attempt. */
  refusedSend: { from: sourcesOf(['QUEUED', 'SENT_TO_BACKEND'], 'leased'), to: 'QUEUED' },
  /** The network accepted: → SENT_TO_BACKEND. */
  handOff: move('SENT_TO_BACKEND', 'leased'),
  /** Leased → SENT_TO_BACKEND_FAILED (a refusal, or the reconciliation window over). */
  failHandOff: move('SENT_TO_BACKEND_FAILED', 'leased'),
  /** Bounded wait: handed off, and no status event came (→ SENT_TO_BACKEND_FAILED). */
  statuslessTimeout: move('SENT_TO_BACKEND_FAILED', 'with_network'),
  /** Bounded wait: queued on a blocked channel for too long (→ SENT_TO_BACKEND_FAILED). */
  queueTimeout: move('SENT_TO_BACKEND_FAILED', 'waiting'),
} as const satisfies Record<string, MessageMove>;

/** The moves that record the number check's outcome (and, for a passing row, the send attempt). */
export const CHECK_MOVES = {
  /** QUEUED → OPT_IN_* in one move: the local number check and the attempt recorded by the claim itself. */
  claimAttempt: check('waiting'),
  /** AGENDA → OPT_IN_*. */
  numberCheck: check('leased'),
} as const satisfies Record<string, CheckMove>;

/** The state due rows wait in for a claim (the queue). */
export const QUEUED_STATUS = MESSAGE_MOVES.queue.to;
/** The state stored rows wait in before they are queued (NONE). */
export const WAITING_STATUS = MESSAGE_MOVES.parkWaiting.to;
/** The state of a handed-off message awaiting its first status event. */
export const AWAITING_EVENT_STATUS = MESSAGE_MOVES.handOff.to;
/** The states held under a dispatcher's lease. */
export const LEASED_STATUSES = STAGE_STATUSES.leased;

/** The one state a move leaves, for statements that report it without reading it back; throws if there are several. */
export function onlySource(m: MessageMove): MessageStatus {
  if (m.from.length !== 1) throw new Error(`the move to ${m.to} leaves ${m.from.length} states, not one`);
  return m.from[0];
}
