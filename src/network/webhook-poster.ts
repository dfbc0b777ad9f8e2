/**
 * POSTs client webhooks (the service's status events) to company endpoints over one undici Agent: keep-alive,
 * a bounded number of connections per origin, a connect timeout and one deadline for headers and body. Never
 * follows redirects (a 3xx is a failed attempt). Only the status and the first bytes of the answer are read.
 */
import { Agent } from 'undici';

/** The outcome of one POST: a status (any), or a transport error (no status). */
export interface PostOutcome {
  statusCode: number | null;
  error: string | null;
}

/** What the delivery worker calls. */
export interface WebhookPoster {
  post(url: string, body: string, headers: Record<string, string>, signal?: AbortSignal): Promise<PostOutcome>;
  close(): Promise<void>;
}

/** Options: the whole request's deadline and connections per origin. */
export interface WebhookPosterOptions {
  timeoutMs: number;
  connectionsPerOrigin: number;
}

/** Creates the poster. */
export function createWebhookPoster(options: WebhookPosterOptions): WebhookPoster {
  const agent = new Agent({
    connections: options.connectionsPerOrigin,
    pipelining: 1,
    keepAliveTimeout: 10_000,
    connect: { timeout: options.timeoutMs },
    headersTimeout: options.timeoutMs,
    bodyTimeout: options.timeoutMs,
  });
  return {
    async post(url, body, headers, signal) {
      const deadline = AbortSignal.timeout(options.timeoutMs);
      const combined = signal ? AbortSignal.any([signal, deadline]) : deadline;
      try {
        const target = new URL(url);
        const res = await agent.request({
          origin: target.origin,
          path: target.pathname + target.search,
          method: 'POST',
          headers: { 'content-type': 'application/json', 'user-agent': 'tms-webhooks/1', ...headers },
          body,
          signal: combined,
        });
        // The answer's body is not used: read a little and drop the rest (a huge body must not cost memory).
        let read = 0;
        for await (const chunk of res.body) {
          read += (chunk as Buffer).length;
          if (read > 16_384) break;
        }
        res.body.destroy();
        return { statusCode: res.statusCode, error: res.statusCode >= 200 && res.statusCode < 300 ? null : `HTTP ${res.statusCode}` };
      } catch (error) {
        if (deadline.aborted) return { statusCode: null, error: `timeout: no complete answer within ${options.timeoutMs} ms` };
        if (signal?.aborted) return { statusCode: null, error: 'aborted: the service was stopping' };
        const e = error as { code?: string; message?: string };
        return { statusCode: null, error: `${e.code ?? 'error'}: ${e.message ?? String(error)}`.slice(0, 300) };
      }
    },
    close: () => agent.close(),
  };
}
