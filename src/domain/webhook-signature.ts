import { createHmac, timingSafeEqual } from 'node:crypto';

/** The `X-Hub-Signature-256` value for a raw body: `sha256=<hex HMAC-SHA256(body, appSecret)>`. */
export function signWebhookBody(body: Buffer | string, appSecret: string): string {
  return 'sha256=' + createHmac('sha256', appSecret).update(body).digest('hex');
}

/** Checks a signature header against the raw body in constant time; false when missing or malformed. */
export function isValidWebhookSignature(body: Buffer, header: string | undefined, appSecret: string): boolean {
  if (typeof header !== 'string' || !/^sha256=[0-9a-fA-F]{64}$/.test(header)) return false;
  const expected = Buffer.from(signWebhookBody(body, appSecret).slice(7), 'hex');
  const given = Buffer.from(header.slice(7), 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
