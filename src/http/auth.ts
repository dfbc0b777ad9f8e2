/** Bearer-token authentication: resolves the caller's company or answers 401 in the envelope. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { bearerToken, hashToken } from '../domain/tokens.js';
import { findCompanyIdByTokenHash } from '../store/companies.js';
import type { Database } from '../store/schema.js';
import { tokenPrefix, type FailureThrottle } from './auth-throttle.js';
import { handleError } from './error-handler.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';

/**
 * The caller's token when the route checks it live in its own first read (`TOKEN_CHECKED_BY_ROUTE`) instead of a
 * lookup before the route: the route passes `hash` to that read and calls `revoked()` when it finds the token
 * gone (401, counted by the throttle). Until `checked` is set, a request that fails earlier (bad input) has its
 * token looked up before the answer, so it still gets 401 for a revoked token, as every other route does.
 */
export interface PendingToken {
  hash: string;
  checked: boolean;
  revoked(): AppError;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's company (set by the auth hook on family routes). */
    companyId: string;
    /** Set when the token's live check is left to the route (see PendingToken). */
    pendingToken?: PendingToken;
  }
  interface FastifyContextConfig {
    /** The route checks the caller's token live in its own first read (PendingToken). */
    tokenCheckedByRoute?: boolean;
  }
}

/** Route config of a route that checks the caller's token live in its own first read. */
export const TOKEN_CHECKED_BY_ROUTE = { tokenCheckedByRoute: true } as const;

/** Token hashes known live, with their company: bounded; an entry found revoked is dropped. */
const KNOWN_MAX = 10_000;

/**
 * Adds an onRequest hook to this (encapsulated) scope that requires a live bearer token. Unknown or revoked tokens
 * are counted per client address and token prefix (`throttle`, shared by both families): over the limit, 429.
 *
 * A route marked `tokenCheckedByRoute` (the single send) takes a token this instance has seen live without a
 * lookup of its own: the route's first read checks that it is still live (not revoked) in the same statement that
 * reads what the route needs, before anything is written, so a revoked token is refused exactly as before with one
 * round trip less. A request with an Idempotency-Key is looked up first as always (its key is reserved before the
 * route runs).
 */
export function requireAuth(app: FastifyInstance, db: Kysely<Database>, throttle: FailureThrottle): void {
  const known = new Map<string, string>();
  const remember = (hash: string, companyId: string) => {
    if (known.has(hash)) return;
    if (known.size >= KNOWN_MAX) known.delete(known.keys().next().value!);
    known.set(hash, companyId);
  };
  const unauthorized = () => new AppError('UNAUTHORIZED', 'The token is unknown or revoked.');
  app.decorateRequest('companyId', '');
  app.decorateRequest('pendingToken', undefined);
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AppError('UNAUTHORIZED', 'Missing or malformed Authorization: Bearer header.');
    const keys = [`ip:${request.ip}`, `prefix:${tokenPrefix(token)}`];
    const wait = throttle.retryAfter(keys);
    if (wait > 0) throw new AppError('RATE_LIMITED', `Too many invalid tokens from this address or with this token prefix; retry in ${wait} s.`, { retryAfter: wait });
    const hash = hashToken(token);
    const seen = known.get(hash);
    if (seen !== undefined && request.routeOptions.config.tokenCheckedByRoute && request.headers[IDEMPOTENCY_HEADER] === undefined) {
      request.companyId = seen;
      request.pendingToken = {
        hash,
        checked: false,
        revoked: () => {
          known.delete(hash);
          throttle.fail(keys);
          return unauthorized();
        },
      };
      return;
    }
    const companyId = await findCompanyIdByTokenHash(db, hash);
    if (!companyId) {
      known.delete(hash);
      throttle.fail(keys);
      throw unauthorized();
    }
    remember(hash, companyId);
    request.companyId = companyId;
  });
  // A request whose route did not get to check its token (it failed before: bad input) is looked up now, so a
  // revoked token is 401 before anything else, as on every route.
  app.setErrorHandler(async (error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) => {
    const pending = request.pendingToken;
    if (pending && !pending.checked) {
      pending.checked = true;
      const live = await findCompanyIdByTokenHash(db, pending.hash).then(Boolean, () => true); // a failed lookup: the first error is the answer
      if (!live) return handleError(pending.revoked(), request, reply);
    }
    return handleError(error, request, reply);
  });
}
