/**
 * A client webhook receiver for tests: a real HTTP server on 127.0.0.1 that records every POST (headers, raw
 * body, whether its signature verifies with the secret) and answers as `answer` decides (a status, or `hang`:
 * accept and never answer).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { verifyClientSignature } from '../../src/domain/client-webhooks.js';

/** One received POST. */
export interface Received {
  eventId: string;
  deliveryId: string;
  attempt: number;
  signature: string;
  raw: string;
  body: { id: string; type: string; occurred_at: string; company_id: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Whether X-TMS-Signature verified with the secret set by `setSecret` (null when none was set). */
  verified: boolean | null;
}

/** A running receiver. */
export interface Receiver {
  url: string;
  received: Received[];
  /** The first receipt of each event id, in arrival order. */
  firstReceipts(): Received[];
  setSecret(secret: string): void;
  close(): Promise<void>;
}

/** What to answer for the n-th POST (0-based) of an event id, or for any POST: a status, or 'hang'. */
export type Answer = (post: { eventId: string; nth: number; index: number }) => number | 'hang';

/** Starts a receiver; `delayMs` holds every answer that long (deliveries stay in flight). */
export async function startReceiver(answer: Answer = () => 200, delayMs = 0): Promise<Receiver> {
  const received: Received[] = [];
  const perEvent = new Map<string, number>();
  const sockets = new Set<Socket>();
  let secret: string | null = null;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const eventId = String(req.headers['x-tms-event-id'] ?? '');
      const signature = String(req.headers['x-tms-signature'] ?? '');
      const nth = perEvent.get(eventId) ?? 0;
      perEvent.set(eventId, nth + 1);
      let body: Received['body'];
      try {
        body = JSON.parse(raw);
      } catch {
        body = { id: '', type: '', occurred_at: '', company_id: '', data: {} };
      }
      received.push({
        eventId,
        deliveryId: String(req.headers['x-tms-delivery-id'] ?? ''),
        attempt: Number(req.headers['x-tms-delivery-attempt'] ?? 0),
        signature,
        raw,
        body,
        verified: secret === null ? null : verifyClientSignature(secret, raw, signature),
      });
      const reply = answer({ eventId, nth, index: received.length - 1 });
      if (reply === 'hang') return; // accepted, never answered
      const send = () => res.writeHead(reply, { 'content-type': 'text/plain' }).end(reply < 300 ? 'ok' : 'no');
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    firstReceipts() {
      const seen = new Set<string>();
      return received.filter((r) => (seen.has(r.eventId) ? false : (seen.add(r.eventId), true)));
    },
    setSecret(value) {
      secret = value;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
