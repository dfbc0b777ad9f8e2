/** Bearer-token authentication: resolves the caller's company or answers 401 in the envelope. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { bearerToken, hashToken } from '../domain/tokens.js';
import { findCompanyIdByTokenHash } from '../store/companies.js';
import type { Database } from '../store/schema.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The authenticated caller's company (set by the auth hook on family routes). */
    companyId: string;
  }
}

/** Adds an onRequest hook to this (encapsulated) scope that requires a live bearer token. */
export function requireAuth(app: FastifyInstance, db: Kysely<Database>): void {
  app.decorateRequest('companyId', '');
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw new AppError('UNAUTHORIZED', 'Missing or malformed Authorization: Bearer header.');
    const companyId = await findCompanyIdByTokenHash(db, hashToken(token));
    if (!companyId) throw new AppError('UNAUTHORIZED', 'The token is unknown or revoked.');
    request.companyId = companyId;
  });
}
