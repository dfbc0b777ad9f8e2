/**
 * The room for sends in flight in one process, every channel's together. A send is marked attempted before it is
 * written, so a marked send should find a network connection soon: without a bound shared by the channels, each
 * channel would fill its own room and, on many numbers at once, thousands of marked sends would wait for a connection
 * in the HTTP client's queue, each one a message a crash would leave in doubt (never sent, failed as OUTCOME_UNKNOWN).
 *
 * Channels take room in the order they asked for it: a channel that needs more waits at the head of the line
 * instead of being overtaken for ever by channels that need less. Each takes room for a whole batch at once, so
 * the batches stay as large as a channel's own room allows (a claim of a few rows costs the database the same
 * statements as one of a hundred).
 */
export class SendSlots {
  private used = 0;
  private readonly waiting: Array<{ n: number; grant: (n: number) => void }> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`SendSlots: the room must be a whole number ≥ 1 (${size})`);
  }

  /** Slots not taken now. */
  get free(): number {
    return this.size - this.used;
  }

  /**
   * Takes `n` slots (all of the room when `n` is larger) once that many are free and every earlier caller has had
   * its turn; resolves to the number taken.
   */
  take(n: number): Promise<number> {
    const wanted = Math.max(1, Math.min(n, this.size));
    return new Promise((grant) => {
      this.waiting.push({ n: wanted, grant });
      this.serve();
    });
  }

  /** Gives `n` slots back (a send answered, or a batch's slots it did not use). */
  give(n: number): void {
    if (n <= 0) return;
    this.used -= n;
    if (this.used < 0) throw new Error('SendSlots: more slots given back than taken');
    this.serve();
  }

  private serve(): void {
    while (this.waiting.length > 0 && this.free >= this.waiting[0].n) {
      const head = this.waiting.shift()!;
      this.used += head.n;
      head.grant(head.n);
    }
  }
}
