/**
 * Access tokens of the simulated network: the world's token is valid, `POST /_sim/tokens {add}` makes another
 * valid, `{expire}` makes a token answer Graph's "Session has expired" 190/463 (HTTP 401) on every call, as
 * a token past its expiry does at graph.facebook.com. Unknown tokens keep the 190 "Cannot parse access token"
 * answer. `POST /_sim/reset` restores the starting set.
 */
import type { FastifyInstance } from 'fastify';
import { SIM_ACCESS_TOKEN } from '../constants.js';
import { fbtraceId, GraphFailure, invalidParameter, oauthError } from '../graph-errors.js';

/** Graph's answer to a call with an expired token (message shape as Meta writes it). */
export function expiredTokenError(expiredAt: Date): GraphFailure {
  const when = (d: Date) => d.toUTCString().replace(/^(\w+), (\d+) (\w+) \d{2}(\d{2}) ([\d:]+) GMT$/, '$1, $2-$3-$4 $5 UTC');
  return new GraphFailure(401, {
    message: `Error validating access token: Session has expired on ${when(expiredAt)}. The current time is ${when(new Date())}.`,
    type: 'OAuthException',
    code: 190,
    error_subcode: 463,
    fbtrace_id: fbtraceId(),
  });
}

/** Which tokens the simulator accepts, and how often each refused token was tried. */
export class SimTokens {
  private readonly added = new Set<string>();
  private readonly expired = new Map<string, Date>();
  private readonly refused = new Map<string, number>();

  /** The refusal for a call made with this token, or null when the token is valid. */
  refusal(token: string | undefined): GraphFailure | null {
    const expiredAt = token === undefined ? undefined : this.expired.get(token);
    if (token !== undefined && (expiredAt || (token !== SIM_ACCESS_TOKEN && !this.added.has(token)))) {
      this.refused.set(token, (this.refused.get(token) ?? 0) + 1);
    }
    if (expiredAt) return expiredTokenError(expiredAt);
    if (token === SIM_ACCESS_TOKEN || (token !== undefined && this.added.has(token))) return null;
    return oauthError();
  }

  /** Makes a token valid (again). */
  add(token: string): void {
    this.expired.delete(token);
    this.added.add(token);
  }

  /** Makes a token answer 190/463 from now on. */
  expire(token: string): void {
    this.expired.set(token, new Date());
  }

  /** Back to the starting set (only the world's token). */
  reset(): void {
    this.added.clear();
    this.expired.clear();
    this.refused.clear();
  }

  /** Counts for inspection: tokens added and expired, and calls refused per token. */
  view(): { added: string[]; expired: string[]; refused: Record<string, number> } {
    return { added: [...this.added], expired: [...this.expired.keys()], refused: Object.fromEntries(this.refused) };
  }
}

function tokenIn(body: Record<string, unknown>, key: string): string | undefined {
  const v = body[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\S{1,512}$/.test(v)) throw invalidParameter(`${key} must be a token (1-512 characters, no spaces)`);
  return v;
}

/** Registers `GET|POST /_sim/tokens` and the reset of the token set on `POST /_sim/reset`. */
export function registerTokenRoutes(app: FastifyInstance, tokens: SimTokens): void {
  app.get('/_sim/tokens', async () => tokens.view());
  app.post('/_sim/tokens', async (req) => {
    const body = (typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) ? req.body : null) as Record<string, unknown> | null;
    if (!body) throw invalidParameter('The body must be a JSON object {add?, expire?}.');
    const add = tokenIn(body, 'add');
    const expire = tokenIn(body, 'expire');
    if (add === undefined && expire === undefined) throw invalidParameter('Give add and/or expire.');
    if (add !== undefined) tokens.add(add);
    if (expire !== undefined) tokens.expire(expire);
    return tokens.view();
  });
  app.addHook('onRequest', async (req) => {
    if (req.method === 'POST' && req.url.split('?')[0] === '/_sim/reset') tokens.reset();
  });
}
