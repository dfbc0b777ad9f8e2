/**
 * Hand-off marks of bulk-send messages, written `delayMs` after the network accepted them. A message's statuses
 * (sent, delivered, read) usually arrive and are applied within that time, and they move the row past the hand-off
 * themselves: its wamid, its handed time, its lease and its counters. The mark then finds nothing left to change
 * and writes no row version, so such a message costs one version of its wide row fewer.
 *
 * The attempt mark, committed before the network call, is what keeps a message from being sent twice; this mark
 * only records the answer. A crash loses the marks still waiting: their rows keep the attempt mark (never sent
 * again), the statuses stored for them find them by our id echoed in `biz_opaque_callback_data`, and a row no
 * status ever names fails OUTCOME_UNKNOWN after the reconciliation window, as after a crash between a call and its
 * outcome's flush. A graceful stop writes every waiting mark.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../store/schema.js';
import { storeOutcomes, type Outcome } from './send-outcomes.js';

/** Marks written per statement. */
const BATCH = 500;
/** How often waiting marks are looked at (a mark is written at most this much after its time). */
const TICK_MS = 250;

type SentOutcome = Extract<Outcome, { kind: 'sent' }>;

/** Waiting hand-off marks of this process (every channel's), oldest first. */
export class DelayedHandOffs {
  private waiting: Array<{ outcome: SentOutcome; at: number }> = [];
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly deps: { db: Kysely<Database>; owner: string; log: Logger; delayMs: number; now?: () => number },
  ) {}

  /** Whether marks wait at all (a delay of 0 writes them with the other outcomes). */
  get delays(): boolean {
    return this.deps.delayMs > 0;
  }

  /** Marks waiting now. */
  get size(): number {
    return this.waiting.length;
  }

  /** Keeps the mark of an accepted send until its time. */
  add(outcome: SentOutcome): void {
    this.waiting.push({ outcome, at: this.now() });
    if (!this.timer) {
      this.timer = setInterval(() => this.writeDue(), TICK_MS);
      this.timer.unref();
    }
  }

  /** Writes every waiting mark now (the dispatcher stops, or a test needs them). */
  async flushAll(): Promise<void> {
    this.stopTimer();
    this.write(this.waiting.splice(0));
    await this.writing;
  }

  private now(): number {
    return this.deps.now ? this.deps.now() : performance.now();
  }

  private writeDue(): void {
    const due = this.now() - this.deps.delayMs;
    let count = 0;
    while (count < this.waiting.length && this.waiting[count].at <= due) count++;
    if (count > 0) this.write(this.waiting.splice(0, count));
    if (this.waiting.length === 0) this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Writes marks in batches, one batch at a time, after any batch already being written. */
  private write(entries: Array<{ outcome: SentOutcome }>): void {
    if (entries.length === 0) return;
    this.writing = this.writing.then(async () => {
      for (let i = 0; i < entries.length; i += BATCH) {
        const batch = entries.slice(i, i + BATCH).map((e) => e.outcome);
        try {
          // Their tier slots were confirmed when the network accepted them (OutcomeWriter).
          await storeOutcomes(this.deps.db, this.deps.owner, batch, { confirmSent: false });
        } catch (error) {
          // The rows keep their attempt mark: their statuses or reconciliation settle them, never a second send.
          this.deps.log.error({ err: error, count: batch.length }, 'writing hand-off marks failed');
        }
      }
    });
  }
}
