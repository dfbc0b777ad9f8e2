import { createHash, randomBytes } from 'node:crypto';

/** A new API token: `tms_` + 32 random bytes, URL-safe base64. Shown once; only its hash is stored. */
export function generateToken(): string {
  return 'tms_' + randomBytes(32).toString('base64url');
}

/** The stored form of a token: SHA-256, hex. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The token from an `Authorization: Bearer <token>` header, or undefined. */
export function bearerToken(header: string | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer[ ]+([A-Za-z0-9._~+/=-]{1,512})\s*$/i.exec(header);
  return match?.[1];
}
