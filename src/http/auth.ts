/** Bearer-token authentication: resolves the caller's company or answers 401 in the envelope. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { bearerToken, hashToken } from '../domain/tokens.js';
import { findCompanyIdByTokenHash } from '../store/companies.js';
import type { Database } from '../store/schema.js';
import { tokenPrefix, type FailureThrottle } from './auth-throttle.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's company (set by the auth hook on family routes). */
    companyId: string;
  }
}

/**
 * Adds an onRequest hook to this (encapsulated) scope that requires a live bearer token. Unknown or revoked tokens
 * are counted per client address and token prefix (`throttle`, shared by both families): over the limit, 429.
 */
export function requireAuth(app: FastifyInstance, db: Kysely<Database>, throttle: FailureThrottle): void {
  app.decorateRequest('companyId', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AppError('UNAUTHORIZED', 'Missing or malformed Authorization: Bearer header.');
    const keys = [`ip:${request.ip}`, `prefix:${tokenPrefix(token)}`];
    const wait = throttle.retryAfter(keys);
    if (wait > 0) throw new AppError('RATE_LIMITED', `Too many invalid tokens from this address or with this token prefix; retry in ${wait} s.`, { retryAfter: wait });
    const companyId = await findCompanyIdByTokenHash(db, hashToken(token));
    if (!companyId) {
      throttle.fail(keys);
      throw new AppError('UNAUTHORIZED', 'The token is unknown or revoked.');
    }
    request.companyId = companyId;
  });
}
