import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Hub-Signature-256` value for a raw body: `sha256=<hex HMAC-SHA256(body, appSecret)>`. */
export function signWebhookBody(body: Buffer | string, appSecret: string): string {
  return 'sha256=' + createHmac('sha256', appSecret).update(body).digest('hex');
}

/** Checks a signature header against the raw body in constant time; false when missing or malformed. */
export function isValidWebhookSignature(body: Buffer, header: string | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = createHmac('sha256', appSecret).update(body).digest();
  const given = Buffer.from(header.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Compares the verification handshake's `hub.verify_token` with the configured one in constant time: both are
 * hashed (SHA-256) first, so the comparison is over equal-length digests and reveals neither content nor length.
 */
export function isValidVerifyToken(given: string | undefined, expected: string): boolean {
  if (typeof given !== 'string' || expected.length === 0) return false;
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}
