import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets at rest (channel access tokens): AES-256-GCM with a key from `TMS_SECRET_KEY`.
 * Sealed form: `enc:v1:<iv>:<tag>:<ciphertext>`, each part base64url. A value without the `enc:v1:` prefix is a
 * legacy plaintext row and `open` returns it unchanged (rows are sealed by the migrate step once the key is known).
 */

/** Seals and opens secrets stored in the database. */
export interface SecretBox {
  seal(plain: string): string;
  open(stored: string): string;
}

/** The prefix of a sealed value. */
export const SEALED_PREFIX = 'enc:v1:';

/** True when a stored value is sealed (has the `enc:v1:` prefix). */
export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/** The 32 key bytes from base64 (44 chars, or base64url) or 64 hex characters; null when it is neither. */
export function parseSecretKey(key: string): Buffer | null {
  const trimmed = key.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) {
    const bytes = Buffer.from(trimmed.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === 32) return bytes;
  }
  return null;
}

const AAD = Buffer.from('tms-secret-v1');

/** A SecretBox for a key (32 bytes as base64 or 64 hex chars); throws when the key is not 32 bytes. */
export function createSecretBox(key: string): SecretBox {
  const bytes = parseSecretKey(key);
  if (bytes === null) throw new Error('The secret key must be 32 bytes, as base64 or 64 hex characters.');
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', bytes, iv);
      cipher.setAAD(AAD);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return `${SEALED_PREFIX}${iv.toString('base64url')}:${tag.toString('base64url')}:${body.toString('base64url')}`;
    },
    open(stored: string): string {
      if (!isSealed(stored)) return stored;
      const parts = stored.slice(SEALED_PREFIX.length).split(':');
      if (parts.length !== 3) throw new Error('The sealed secret is malformed.');
      const [iv, tag, body] = parts.map((part) => Buffer.from(part, 'base64url'));
      if (iv.length !== 12 || tag.length !== 16) throw new Error('The sealed secret is malformed.');
      const decipher = createDecipheriv('aes-256-gcm', bytes, iv, { authTagLength: 16 });
      decipher.setAAD(AAD);
      decipher.setAuthTag(tag);
      try {
        return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
      } catch {
        throw new Error('The sealed secret cannot be opened with this key (wrong TMS_SECRET_KEY or damaged value).');
      }
    },
  };
}
