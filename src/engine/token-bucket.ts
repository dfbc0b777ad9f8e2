/** A token bucket for one channel's messages per second, which 130429 answers shrink for a while. */
export class TokenBucket {
  private tokens: number;
  private last = Date.now();
  private shrunkUntil = 0;
  private waiters: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  private rate: number;
  /** True until the first setRate of a bucket made without a rate. */
  private unset: boolean;

  /**
   * `rate` per second. The burst is a quarter second's worth (at least 1): the network keeps its own bucket,
   * and a small burst leaves it slack for the jitter between our send and its arrival, so the cap is held
   * without 130429 refusals. A bucket made before its channel's rate is known (no `rate`) starts full at the
   * first rate it is given, as one made with that rate would: no send was paced by it yet.
   */
  constructor(rate?: number) {
    this.rate = rate ?? 1;
    this.unset = rate === undefined;
    this.tokens = this.unset ? 0 : this.burst();
  }

  private burst(): number {
    return Math.max(1, this.currentRate() / 4);
  }

  /** The rate in force now (halved after a 130429 for `shrinkMs`). */
  currentRate(): number {
    return Date.now() < this.shrunkUntil ? Math.max(1, this.rate / 2) : this.rate;
  }

  /** Changes the nominal rate (the channel's configured throughput). */
  setRate(rate: number): void {
    if (this.unset) {
      this.unset = false;
      this.rate = rate;
      this.last = Date.now();
      this.tokens = this.burst();
      return;
    }
    this.refill();
    this.rate = rate;
  }

  /** The network said 130429: send at half the rate for a while and drop what was saved up. */
  shrink(ms: number): void {
    this.shrunkUntil = Date.now() + ms;
    this.tokens = Math.min(this.tokens, 0);
  }

  /** Tokens available now (whole). */
  available(): number {
    this.refill();
    return Math.floor(this.tokens);
  }

  /** Resolves when a token is taken. */
  take(): Promise<void> {
    this.refill();
    if (this.waiters.length === 0 && this.tokens >= 1) {
      this.tokens -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  /** Releases every waiter (shutdown). */
  drain(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const w of this.waiters.splice(0)) w();
  }

  private refill(): void {
    const now = Date.now();
    const rate = this.currentRate();
    this.tokens = Math.min(this.burst(), this.tokens + ((now - this.last) / 1000) * rate);
    this.last = now;
  }

  private schedule(): void {
    if (this.timer) return;
    const wait = Math.max(1, Math.ceil(((1 - this.tokens) / this.currentRate()) * 1000));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.refill();
      while (this.waiters.length > 0 && this.tokens >= 1) {
        this.tokens -= 1;
        this.waiters.shift()!();
      }
      if (this.waiters.length > 0) this.schedule();
    }, wait);
  }
}
