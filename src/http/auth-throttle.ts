/**
 * Throttles invalid credentials: each client address and each token prefix (`tms_` and the next 8 characters) may
 * present at most `perMinute` unknown or revoked tokens in a minute; past that, its requests are answered 429
 * RATE_LIMITED with Retry-After until the minute is over, before any token is looked up — valid or not, so a guess
 * cannot be told right from wrong while throttled. Counted per instance, in memory (bounded).
 */

/** Distinct addresses and prefixes remembered at most; past it, the oldest windows are forgotten. */
const MAX_KEYS = 100_000;
const WINDOW_MS = 60_000;

/** The prefix of a token the throttle counts by. */
export function tokenPrefix(token: string): string {
  return token.slice(0, 12);
}

/** Fixed one-minute windows of failures per key. */
export class FailureThrottle {
  private readonly windows = new Map<string, { start: number; failures: number }>();

  constructor(private readonly perMinute: number, private readonly now: () => number = Date.now) {}

  /** Seconds until `keys` may try again, or 0 when none is over its limit. */
  retryAfter(keys: string[]): number {
    const now = this.now();
    let wait = 0;
    for (const key of keys) {
      const w = this.windows.get(key);
      if (!w || now - w.start >= WINDOW_MS) continue;
      if (w.failures >= this.perMinute) wait = Math.max(wait, Math.ceil((w.start + WINDOW_MS - now) / 1000));
    }
    return wait;
  }

  /** Counts one failure against each key. */
  fail(keys: string[]): void {
    const now = this.now();
    for (const key of keys) {
      const w = this.windows.get(key);
      if (w && now - w.start < WINDOW_MS) {
        w.failures += 1;
        continue;
      }
      this.windows.delete(key);
      if (this.windows.size >= MAX_KEYS) this.forgetOldest(now);
      this.windows.set(key, { start: now, failures: 1 });
    }
  }

  private forgetOldest(now: number): void {
    for (const [key, w] of this.windows) {
      if (now - w.start >= WINDOW_MS || this.windows.size >= MAX_KEYS) this.windows.delete(key);
      if (this.windows.size < MAX_KEYS * 0.9) break;
    }
  }
}
