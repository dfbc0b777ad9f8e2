/** What to do after a failed send call: retry later, fail the message, or wait for reconciliation. */

/** A failed call, as the network adapter describes it. */
export interface SendFailure {
  kind: 'graph' | 'timeout' | 'connection' | 'bad_response';
  httpStatus: number | null;
  code?: number;
  title?: string;
  details?: string;
  /** The request was certainly not written (safe to send again). */
  notSent: boolean;
}

/** The decision. */
export type SendDecision =
  | { action: 'retry'; delayMs: number; throttle: boolean; reason: string }
  | { action: 'fail'; errorMessage: string; errorDetail: string }
  | { action: 'in_doubt' };

/** Graph codes the network documents as "try again later" (research §6, DESIGN §6). */
export const RETRYABLE_CODES: ReadonlySet<number> = new Set([130429, 131056, 4, 80007, 131000, 131016, 2, 133004, 131057, 2494100]);

/** Backoff with jitter: base, 2×, 4× … capped at 60×base (base 1 s), times 0.5–1.5; pair-rate refusals wait ≥ 6 s. */
export function backoffMs(attempt: number, code: number | undefined, random: () => number = Math.random, baseMs = 1000): number {
  const base = Math.min(60 * baseMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const floor = code === 131056 ? 6000 * attempt : 0;
  return Math.max(floor, Math.round(base * (0.5 + random())));
}

/**
 * Decides a failed send's fate; `attempt` is the attempt that just failed (1-based).
 * Retried: a Graph error with a retryable code or a 5xx (Graph answered, so it did not take the message), and any
 * failure before the request was written (refused connection, connect timeout, DNS). In doubt (never resent,
 * reconciled by status webhooks): a timeout or broken connection after writing, and an answer that is not Graph's
 * (e.g. a proxy's HTML 502, or an unreadable 2xx) — the message may have gone out.
 */
export function decideSendFailure(f: SendFailure, attempt: number, maxAttempts: number, random?: () => number, baseMs = 1000): SendDecision {
  const status = f.httpStatus ?? 0;
  const retryable =
    (f.kind === 'graph' && ((f.code !== undefined && RETRYABLE_CODES.has(f.code)) || status >= 500)) ||
    ((f.kind === 'connection' || f.kind === 'timeout') && f.notSent);
  if (retryable) {
    const reason = f.code !== undefined ? `${f.code}: ${f.title ?? ''}`.trim() : `${f.kind} ${f.httpStatus ?? ''}`.trim();
    if (attempt >= maxAttempts) {
      return { action: 'fail', errorMessage: f.title ?? 'The network kept refusing the message', errorDetail: `${reason} (after ${attempt} attempts)` };
    }
    return { action: 'retry', delayMs: backoffMs(attempt, f.code, random, baseMs), throttle: f.code === 130429, reason };
  }
  if (f.kind === 'timeout' || f.kind === 'connection') return { action: 'in_doubt' };
  if (f.kind === 'bad_response' && !f.notSent && (status >= 500 || (status >= 200 && status < 300))) return { action: 'in_doubt' };
  const detail = [f.code !== undefined ? String(f.code) : `HTTP ${f.httpStatus ?? '?'}`, f.details].filter(Boolean).join(': ');
  return { action: 'fail', errorMessage: f.title ?? 'The network refused the message', errorDetail: detail };
}

/** The network's title from a Graph message such as "(#132000) Number of parameters does not match". */
export function graphTitle(message: string | undefined, userTitle?: string): string | undefined {
  if (userTitle) return userTitle;
  return message?.replace(/^\(#\d+\)\s*/, '');
}
