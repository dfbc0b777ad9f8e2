/**
 * Client webhooks (status webhooks the service sends to a company's endpoints): event types, the signature
 * (Stripe style: `X-TMS-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`), its
 * check with a replay tolerance, and the retry schedule. Pure rules, no I/O.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Event types a company can subscribe to (`*` = all, including types added later). */
export const CLIENT_EVENT_TYPES = ['message.status_changed', 'bulk_send.status_changed'] as const;
/** An event type. */
export type ClientEventType = (typeof CLIENT_EVENT_TYPES)[number];
/** What an endpoint's `events` may hold. */
export const EVENT_SUBSCRIPTIONS = [...CLIENT_EVENT_TYPES, '*'] as const;

/** Delivery states of the outbox: to send (or retrying), delivered, given up. */
export const DELIVERY_STATES = ['PENDING', 'DELIVERED', 'FAILED'] as const;
/** A delivery state. */
export type DeliveryState = (typeof DELIVERY_STATES)[number];
/** The outbox's delivery states by name. */
export const DELIVERY: { readonly [S in DeliveryState]: S } = { PENDING: 'PENDING', DELIVERED: 'DELIVERED', FAILED: 'FAILED' };

/** The signature header's name. */
export const SIGNATURE_HEADER = 'x-tms-signature';
/** How old a signature's timestamp may be before a receiver refuses it (the default of `verifyClientSignature`). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** A new endpoint secret: `whsec_` and 32 random bytes as base64url. */
export function newEndpointSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The hex HMAC-SHA256 of `"<t>.<body>"` under the secret. */
export function signaturePayload(secret: string, timestamp: number, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
}

/** The `X-TMS-Signature` value for a body sent at `timestamp` (unix seconds). */
export function signClientWebhook(secret: string, body: string, timestamp: number): string {
  return `t=${timestamp},v1=${signaturePayload(secret, timestamp, body)}`;
}

/**
 * Checks a received `X-TMS-Signature` against the raw body as a receiver should: the timestamp within
 * `toleranceSeconds` of `nowSeconds` (replay protection), and one of the `v1` values equal in constant time.
 */
export function verifyClientSignature(
  secret: string,
  body: string,
  header: string | undefined,
  nowSeconds: number = Math.floor(Date.now() / 1000),
  toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): boolean {
  if (typeof header !== 'string') return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(signaturePayload(secret, t, body), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && typeof v === 'string' && /^[0-9a-f]{64}$/.test(v))
    .some(([, v]) => timingSafeEqual(Buffer.from(v!, 'hex'), expected));
}

/** The retry schedule: exponential from `baseMs`, capped at `maxMs`, with full jitter in [50 %, 100 %]. */
export interface RetrySchedule {
  baseMs: number;
  maxMs: number;
}

/** The wait before attempt `attempts + 1` after `attempts` failed attempts (`random` in [0, 1)). */
export function retryDelayMs(attempts: number, schedule: RetrySchedule, random: number = Math.random()): number {
  const exponential = Math.min(schedule.maxMs, schedule.baseMs * 2 ** Math.max(0, Math.min(attempts - 1, 30)));
  return Math.round(exponential * (0.5 + random / 2));
}

/** The body of one event as it is POSTed (and signed). */
export interface ClientEventBody {
  id: string;
  type: string;
  occurred_at: string;
  company_id: string;
  data: unknown;
}

/** The exact body bytes of an event (the signature is over these). */
export function clientEventBody(event: ClientEventBody): string {
  return JSON.stringify({ id: event.id, type: event.type, occurred_at: event.occurred_at, company_id: event.company_id, data: event.data });
}
