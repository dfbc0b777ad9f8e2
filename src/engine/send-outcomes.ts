/**
 * What became of each network call, and the writer that stores outcomes in small batches: a failure is classified
 * (retry later, fail for good, left in doubt, or a refusal of the channel's token that holds the row), and each
 * flush moves the rows, confirms the tier slots of the accepted sends and gives back the slots of the refused ones.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { channelFailureReason } from '../domain/channel.js';
import { decideSendFailure, graphTitle } from '../domain/send-failures.js';
import { NetworkError } from '../network/port.js';
import type { DueMessageRow, MovedRow } from '../store/message-moves.js';
import { failHandOffs, markHandedOff, releaseInDoubt, requeueRefusedSends } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { confirmWindowSends } from '../store/tier-window.js';
import { channelHasMessageStatusSubscribers } from '../store/webhook-endpoints.js';
import { lockRowsOfMoves, moveWithCounters } from './counters.js';
import type { DelayedHandOffs } from './hand-off-marks.js';
import { giveBackTierSlots } from './send-gate.js';

/** The outcome of one network call. */
export type Outcome =
  /**
   * `bulk`: the message belongs to a bulk send (its hand-off mark may wait for its statuses: hand-off-marks.ts).
   * `acceptedAt`: when the network accepted it (ISO; absent: when the mark is written), its handed time.
   */
  | { id: string; kind: 'sent'; wamid: string; bulk?: boolean; acceptedAt?: string }
  | { id: string; kind: 'retry'; dueAt: Date; reason: string }
  | { id: string; kind: 'fail'; message: string; detail: string }
  | { id: string; kind: 'in_doubt' }
  /** Refused for a channel-level reason (token, permission, locked account): back to QUEUED, no attempt counted. */
  | { id: string; kind: 'held' };

/** A failed call's outcome, and what it says about the channel (a refused token) and the pace (a throttle). */
export interface FailureVerdict {
  outcome: Outcome;
  /** The network refused the channel's token or account: nothing more is sent on the channel. */
  channelRefusal?: { reason: string; error: NetworkError };
  /** The network asked us to slow down. */
  throttle?: boolean;
  /** Not an answer of the network: the call may have reached it (left for reconciliation). */
  unexpected?: boolean;
}

/** Classifies a failed call of `message` (its attempt already counted in `attempts + 1`). */
export function classifySendFailure(
  message: DueMessageRow,
  error: unknown,
  options: { maxAttempts: number; retryBaseMs: number },
): FailureVerdict {
  if (!(error instanceof NetworkError)) return { outcome: { id: message.id, kind: 'in_doubt' }, unexpected: true };
  if (error.kind === 'graph') {
    const reason = channelFailureReason({ code: error.graph?.code, subcode: error.graph?.error_subcode, message: error.graph?.message });
    // A Graph refusal of the token: the request was answered, nothing was sent. The row waits for the channel.
    if (reason) return { outcome: { id: message.id, kind: 'held' }, channelRefusal: { reason, error } };
  }
  const decision = decideSendFailure(
    {
      kind: error.kind,
      httpStatus: error.httpStatus,
      code: error.graph?.code,
      title: graphTitle(error.graph?.message, error.graph?.error_user_title) ?? error.message,
      details: error.graph?.error_data?.details ?? error.graph?.error_user_msg,
      notSent: error.notSent,
    },
    message.attempts + 1,
    options.maxAttempts,
    Math.random,
    options.retryBaseMs,
  );
  if (decision.action === 'retry') {
    return { outcome: { id: message.id, kind: 'retry', dueAt: new Date(Date.now() + decision.delayMs), reason: decision.reason }, throttle: decision.throttle };
  }
  if (decision.action === 'fail') return { outcome: { id: message.id, kind: 'fail', message: decision.errorMessage, detail: decision.errorDetail } };
  return { outcome: { id: message.id, kind: 'in_doubt' } };
}

/** Stores a channel sender's outcomes in batches, one flush at a time. */
export class OutcomeWriter {
  private outcomes: Outcome[] = [];
  private flushing: Promise<void> = Promise.resolve();
  private flushTimer: NodeJS.Timeout | null = null;
  private subscribers: { takes: boolean; at: number } | null = null;

  /**
   * `handedOff`: told after each flush that handed off messages of a bulk send (the webhook inbox holds statuses while
   * bulk sends are sending, so a message's statuses merge; a single send's statuses are applied as they come, and the
   * large held batches do not stall the requests of single sends).
   */
  constructor(
    private readonly deps: {
      db: Kysely<Database>; owner: string; channelId: string; log: Logger; handedOff?: () => void;
      /** Where the hand-off marks of bulk-send messages wait (absent: written with the other outcomes). */
      handOffs?: DelayedHandOffs;
    },
  ) {}

  /** Queues an outcome: written at once when 50 wait or nothing is in flight any more, else within 20 ms. */
  add(outcome: Outcome, inflight: number): void {
    this.outcomes.push(outcome);
    if (this.outcomes.length >= 50 || inflight === 0) void this.flush();
    else if (!this.flushTimer) {
      // One timer for the outcomes that wait (not one per send): at most 20 ms before they are written.
      this.flushTimer = setTimeout(() => {
        this.flushTimer = null;
        void this.flush();
      }, 20);
      this.flushTimer.unref();
    }
  }

  /** Writes queued outcomes (serialised, so batches never interleave). */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(async () => {
      const batch = this.outcomes.splice(0);
      if (batch.length === 0) return;
      try {
        await this.write(batch);
      } catch (error) {
        // The rows keep their attempt mark: reconciliation settles them, they are never sent twice.
        this.deps.log.error({ err: error, count: batch.length }, 'writing send outcomes failed');
      }
    });
    return this.flushing;
  }

  /**
   * Whether the channel's company takes each message status change at a client endpoint (read at most every 5 s).
   * Its marks do not wait: a status applied before the mark would skip the `OPT_IN_SUCCESS→SENT_TO_BACKEND` event.
   */
  private async companyTakesEachStatus(): Promise<boolean> {
    const now = Date.now();
    if (this.subscribers === null || now - this.subscribers.at >= 5000) {
      this.subscribers = { takes: await channelHasMessageStatusSubscribers(this.deps.db, this.deps.channelId), at: now };
    }
    return this.subscribers.takes;
  }

  /**
   * Stores a batch. The hand-off marks of bulk-send messages go to the delayed marks (when they wait) after their
   * tier slots are confirmed here, as every accepted send's are.
   */
  private async write(batch: Outcome[]): Promise<void> {
    const { db, owner, handOffs } = this.deps;
    const waits = (o: Outcome): o is Extract<Outcome, { kind: 'sent' }> => o.kind === 'sent' && o.bulk === true;
    const delayed = handOffs?.delays && batch.some(waits) && !(await this.companyTakesEachStatus()) ? batch.filter(waits) : [];
    const now = delayed.length === 0 ? batch : batch.filter((o) => !waits(o));
    const moved = await storeOutcomes(db, owner, now, { alsoConfirm: delayed.map((o) => o.id) });
    for (const outcome of delayed) handOffs!.add(outcome);
    if (delayed.length > 0 || moved.some((m) => m.send_wizard_id !== null && m.status === 'SENT_TO_BACKEND')) this.deps.handedOff?.();
    // A refusal gives its slot back.
    const refused = batch.flatMap((o) => (o.kind === 'fail' || o.kind === 'retry' || o.kind === 'held' ? [o.id] : []));
    await giveBackTierSlots(db, this.deps.channelId, refused);
  }
}

/**
 * Stores outcomes in one transaction: moves the rows (a hand-off mark skips a row its statuses already moved past
 * the hand-off) and confirms the tier slots of the accepted sends and of `alsoConfirm`; then drops the leases of the
 * sends in doubt. `confirmSent: false`: the sends' slots were confirmed when they were accepted (delayed marks).
 * Returns the rows moved.
 */
export async function storeOutcomes(
  db: Kysely<Database>, owner: string, batch: Outcome[], tier: { alsoConfirm?: string[]; confirmSent?: boolean } = {},
): Promise<MovedRow[]> {
  const sent = batch.flatMap((o) => (o.kind === 'sent' ? [{ id: o.id, ext_id: o.wamid, handed_at: o.acceptedAt ?? null }] : []));
  const failed = batch.flatMap((o) => (o.kind === 'fail' ? [{ id: o.id, error_message: o.message, error_message_detail: o.detail }] : []));
  const retry = batch.flatMap((o) =>
    o.kind === 'retry' ? [{ id: o.id, due_at: o.dueAt.toISOString(), attempts_increment: 0 }] : [],
  );
  const inDoubt = batch.flatMap((o) => (o.kind === 'in_doubt' ? [o.id] : []));
  // Undo the attempt mark's count: a refused token is not a send failure of the row.
  const held = batch.flatMap((o) => (o.kind === 'held' ? [{ id: o.id, due_at: new Date().toISOString(), attempts_increment: -1 }] : []));
  const moved = await moveWithCounters(db, async (tx) => {
    await lockRowsOfMoves(tx, [sent, failed, retry, held]);
    const moved = [
      ...(await markHandedOff(tx, sent)),
      ...(await failHandOffs(tx, owner, failed)),
      ...(await requeueRefusedSends(tx, owner, retry)),
      ...(await requeueRefusedSends(tx, owner, held)),
    ];
    // A slot is spent only when the network accepted (counted from this, the latest send). In the flush's own
    // transaction (one commit fewer per flush): it locks only tier_recipients rows, after the message rows and
    // before the bulk sends' counters, so the lock order (src/store/README.md) is kept. A send in doubt may have
    // reached the customer, so it counts too (a capped channel keeps its slot held for it anyway).
    await confirmWindowSends(tx, [...(tier.confirmSent === false ? [] : sent.map((o) => o.id)), ...inDoubt, ...(tier.alsoConfirm ?? [])]);
    return moved;
  });
  await releaseInDoubt(db, owner, inDoubt);
  return moved;
}
