/**
 * Message states, the only moves between them, the status-event mapping and the bulk-send counters.
 * One table here; nothing else moves a message (DESIGN §6).
 */

/** Every message status, declared once. */
export const MESSAGE_STATUSES = [
  'NONE', 'CANCELLED', 'QUEUED', 'AGENDA', 'OPT_IN_SUCCESS', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER',
  'SENT_TO_BACKEND', 'SENT_TO_BACKEND_FAILED', 'BACKEND_DELIVERED', 'BACKEND_SEEN', 'BACKEND_SENT', 'BACKEND_FAILED',
  'BACKEND_DELETED',
] as const;

/** A message status. */
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** Titles from the interface's states table. */
export const MESSAGE_STATUS_TITLES: Record<MessageStatus, string> = {
  NONE: 'In Queue', CANCELLED: 'Cancelled', QUEUED: 'Queued', AGENDA: 'Agenda',
  OPT_IN_SUCCESS: 'Number Checked Success', OPT_IN_FAILED: 'Number Check Failed',
  OPT_IN_FAILED_INVALID_NUMBER: 'Invalid Number', SENT_TO_BACKEND: 'Send To Backend',
  SENT_TO_BACKEND_FAILED: 'Send To Backend Failed', BACKEND_DELIVERED: 'Delivered', BACKEND_SEEN: 'Seen',
  BACKEND_SENT: 'Sent', BACKEND_FAILED: 'Failed', BACKEND_DELETED: 'Deleted',
};

/** Rank of the states that follow the hand-off; a status event never lowers it. */
export const DELIVERY_RANK: Partial<Record<MessageStatus, number>> = {
  SENT_TO_BACKEND: 1, BACKEND_DELIVERED: 2, BACKEND_SENT: 3, BACKEND_SEEN: 4,
};

/** The allowed moves of the dispatcher and of stop (status events follow `applyStatusEvent`). */
export const TRANSITIONS: Record<MessageStatus, readonly MessageStatus[]> = {
  NONE: ['QUEUED', 'CANCELLED'],
  // QUEUED → SENT_TO_BACKEND_FAILED: waited past QUEUE_WAIT_SECONDS on a blocked channel (never sent).
  // → NONE (QUEUED, and a leased row with no send attempt recorded): its bulk send was paused by the user.
  // QUEUED → OPT_IN_*: the claim that checks the number locally and records the send attempt in one move
  // (channel-sender.ts; no AGENDA version when no network check is needed).
  QUEUED: ['AGENDA', 'OPT_IN_SUCCESS', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'CANCELLED', 'SENT_TO_BACKEND_FAILED', 'NONE'],
  AGENDA: ['OPT_IN_SUCCESS', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'QUEUED', 'CANCELLED', 'NONE'],
  OPT_IN_SUCCESS: ['SENT_TO_BACKEND', 'SENT_TO_BACKEND_FAILED', 'QUEUED', 'CANCELLED', 'NONE'],
  // SENT_TO_BACKEND → SENT_TO_BACKEND_FAILED: no status event within STATUS_WAIT_SECONDS (a late event still raises it).
  SENT_TO_BACKEND: ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED', 'BACKEND_DELETED', 'SENT_TO_BACKEND_FAILED'],
  BACKEND_DELIVERED: ['BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED', 'BACKEND_DELETED'],
  BACKEND_SENT: ['BACKEND_SEEN', 'BACKEND_DELETED'],
  BACKEND_SEEN: ['BACKEND_DELETED'],
  CANCELLED: [], OPT_IN_FAILED: [], OPT_IN_FAILED_INVALID_NUMBER: [], SENT_TO_BACKEND_FAILED: [],
  BACKEND_FAILED: [], BACKEND_DELETED: [],
};

/** True when the move is allowed. */
export function canMove(from: MessageStatus, to: MessageStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** Stages of a message's life: waiting for a claim, held under a dispatcher's lease, or with the network. */
export type MoveStage = 'waiting' | 'leased' | 'with_network';

/** The states of each stage (a statement of the store moves rows of one stage only). */
export const STAGE_STATUSES: Record<MoveStage, readonly MessageStatus[]> = {
  waiting: ['NONE', 'QUEUED'],
  leased: ['AGENDA', 'OPT_IN_SUCCESS'],
  with_network: ['SENT_TO_BACKEND', 'BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'],
};

/**
 * The states of `stage` from which the transition table allows a move to every one of `to`: the store's
 * move statements take their allowed source states from here, so the SQL cannot drift from `TRANSITIONS`.
 */
export function sourcesOf(to: MessageStatus | readonly MessageStatus[], stage: MoveStage): MessageStatus[] {
  const targets: readonly MessageStatus[] = typeof to === 'string' ? [to] : to;
  return STAGE_STATUSES[stage].filter((from) => targets.every((t) => canMove(from, t)));
}

/**
 * Settled states: failed, cancelled, or handed over and acknowledged by the network (BACKEND_DELIVERED or
 * beyond; later events still raise the rank). SENT_TO_BACKEND waits for its first status event.
 */
export const FINAL_STATUSES: readonly MessageStatus[] = [
  'CANCELLED', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'SENT_TO_BACKEND_FAILED', 'BACKEND_DELIVERED',
  'BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED', 'BACKEND_DELETED',
];

/** Failure states. */
export const FAILED_STATUSES: readonly MessageStatus[] = [
  'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'SENT_TO_BACKEND_FAILED', 'BACKEND_FAILED',
];

/** The network's status event names and the state each maps to. */
export const EVENT_STATUS: Record<string, MessageStatus> = {
  sent: 'BACKEND_DELIVERED',
  delivered: 'BACKEND_SENT',
  read: 'BACKEND_SEEN',
  played: 'BACKEND_SEEN',
  failed: 'BACKEND_FAILED',
  deleted: 'BACKEND_DELETED',
};

/** The time field each state sets (once). */
export const TIME_FIELD_OF: Partial<Record<MessageStatus, 'backend_sended_time' | 'sended_time' | 'delivered_time' | 'seen_time' | 'failed_time'>> = {
  SENT_TO_BACKEND: 'backend_sended_time',
  BACKEND_DELIVERED: 'sended_time',
  BACKEND_SENT: 'delivered_time',
  BACKEND_SEEN: 'seen_time',
  OPT_IN_FAILED: 'failed_time',
  OPT_IN_FAILED_INVALID_NUMBER: 'failed_time',
  SENT_TO_BACKEND_FAILED: 'failed_time',
  BACKEND_FAILED: 'failed_time',
};

/**
 * Which time field a status event may still fill on a message in `current` state. A time field records when its
 * step happened, so a late event (reordered: the network does not guarantee order) fills its field even when it no
 * longer moves the state — except on a message the network reported `failed`: Meta sends `failed` for a message it
 * could not deliver, and a failed message is never delivered or read afterwards (research, "Webhooks" and "Error
 * codes"). So after BACKEND_FAILED only `sent` may still fill `sended_time` (accepted, then not delivered); a
 * `delivered`, `read` or `played` that follows changes nothing, and the record keeps failed_time, no delivered_time
 * and no seen_time. (A send failed without the network's word — SENT_TO_BACKEND_FAILED, OUTCOME_UNKNOWN — is not
 * the network's failure: its real events move it on, see statusAfterEvent.)
 */
export function timeFieldAfterEvent(current: MessageStatus, event: MessageStatus): (typeof TIME_FIELD_OF)[MessageStatus] | undefined {
  const field = TIME_FIELD_OF[event];
  if (!field || field === 'failed_time') return undefined;
  if (current === 'BACKEND_FAILED' && field !== 'sended_time') return undefined;
  return field;
}

/**
 * The state after a status event, or null when the event changes nothing: events never lower the rank,
 * `failed` wins only below BACKEND_SENT, `deleted` is final, and nothing leaves a final failure (nor gains its later
 * times: timeFieldAfterEvent).
 * A message still before the hand-off (its send call in flight or unknown) accepts events too: the event
 * proves the network has it.
 */
export function statusAfterEvent(current: MessageStatus, event: MessageStatus): MessageStatus | null {
  if (current === 'BACKEND_DELETED' || current === 'BACKEND_FAILED' || current === 'CANCELLED') return null;
  if (current === 'OPT_IN_FAILED' || current === 'OPT_IN_FAILED_INVALID_NUMBER') return null;
  if (event === 'BACKEND_DELETED') return 'BACKEND_DELETED';
  const rank = DELIVERY_RANK[current] ?? 0;
  if (event === 'BACKEND_FAILED') return rank < 3 ? 'BACKEND_FAILED' : null;
  const next = DELIVERY_RANK[event] ?? 0;
  return next > rank ? event : null;
}

/** The bulk-send counters (DESIGN §7), all derived from (status, highest rank reached). */
export const COUNTERS = [
  'waiting', 'queued', 'processed_count', 'awaiting_backend_count', 'failed_count', 'delivered_count', 'sent_count',
  'seen_count', 'cancelled_count',
] as const;

/** A counter name. */
export type Counter = (typeof COUNTERS)[number];

/** Every count a bulk-send report shows: the row total, the counters moved by the messages, the duplicates removed. */
export const REPORT_COUNTERS = ['summary', ...COUNTERS, 'duplicate_count'] as const;

/** Which counters a message in `status` that reached `rank` contributes 1 to. */
export function countersOf(status: MessageStatus, rank: number): Counter[] {
  const out: Counter[] = [];
  if (status === 'NONE') out.push('waiting');
  if (status === 'QUEUED' || status === 'AGENDA' || status === 'OPT_IN_SUCCESS') out.push('queued');
  if (status !== 'NONE' && status !== 'QUEUED' && status !== 'CANCELLED') out.push('processed_count');
  if (status === 'SENT_TO_BACKEND') out.push('awaiting_backend_count');
  if (FAILED_STATUSES.includes(status)) out.push('failed_count');
  if (status === 'CANCELLED') out.push('cancelled_count');
  if (rank >= 2) out.push('delivered_count');
  if (rank >= 3) out.push('sent_count');
  if (rank >= 4) out.push('seen_count');
  return out;
}

/** The counter changes of one move from (status, rank) to (status, rank). */
export function counterDelta(from: MessageStatus, fromRank: number, to: MessageStatus, toRank: number): Partial<Record<Counter, number>> {
  const delta: Partial<Record<Counter, number>> = {};
  for (const c of countersOf(from, fromRank)) delta[c] = (delta[c] ?? 0) - 1;
  for (const c of countersOf(to, toRank)) delta[c] = (delta[c] ?? 0) + 1;
  for (const key of Object.keys(delta) as Counter[]) if (delta[key] === 0) delete delta[key];
  return delta;
}

/** `counterDelta` as (counter, change) pairs, worked out once per (from, rank, to, rank): every moved row asks. */
const deltaEntries = new Map<string, ReadonlyArray<readonly [Counter, number]>>();

/** The counter changes of one move, as (counter, change) pairs (the same frozen list for the same move). */
export function counterDeltaEntries(from: MessageStatus, fromRank: number, to: MessageStatus, toRank: number): ReadonlyArray<readonly [Counter, number]> {
  const key = `${from} ${fromRank} ${to} ${toRank}`;
  let entries = deltaEntries.get(key);
  if (entries === undefined) {
    entries = Object.freeze((Object.entries(counterDelta(from, fromRank, to, toRank)) as Array<[Counter, number]>).map((e) => Object.freeze(e)));
    // Statuses and ranks are a few dozen known values; anything else is worked out again rather than kept.
    if (deltaEntries.size < 4096) deltaEntries.set(key, entries);
  }
  return entries;
}
