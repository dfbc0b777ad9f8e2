/**
 * The pair-rate memory of one channel: when each recipient was last sent to, kept only as long as it matters.
 * An entry older than the pair gap can no longer hold a send back, so the memory keeps two generations of one
 * gap each and drops the older generation whole when the current one is a gap old: at most the recipients of
 * the last two gaps are held (e.g. 1,000 mps × 12 s = 12,000 entries), however long the channel stays busy.
 */

/** A time-bounded `recipient → last send time (ms)` map with the `get`/`set` of a Map. */
export class PairRateMemory {
  private current = new Map<string, number>();
  private previous = new Map<string, number>();
  private rotatedAt: number;

  constructor(
    private readonly gapMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.rotatedAt = now();
  }

  /** The last send time to `recipient` within the last gap or two, or undefined. */
  get(recipient: string): number | undefined {
    this.rotate();
    return this.current.get(recipient) ?? this.previous.get(recipient);
  }

  /** Records a send to `recipient` at `at` (ms). */
  set(recipient: string, at: number): this {
    this.rotate();
    this.current.set(recipient, at);
    return this;
  }

  /** Entries held (at most the recipients of the last two gaps). */
  get size(): number {
    return this.current.size + this.previous.size;
  }

  /** Drops what is older than the gap (two rotations at once after a long quiet spell). */
  private rotate(): void {
    const now = this.now();
    if (now - this.rotatedAt < this.gapMs) return;
    this.previous = now - this.rotatedAt < 2 * this.gapMs ? this.current : new Map();
    this.current = new Map();
    this.rotatedAt = now;
  }
}
