/**
 * Request bodies that arrive too slowly, or too many at once. Node's server cuts a request whose headers or whole
 * body take too long (headersTimeout, requestTimeout: see app.ts); this guard adds what it lacks: a body that stops
 * arriving (no byte for `bodyIdleMs`) is answered 408 and its connection closed, and at most `maxUploads` slow bodies
 * (`maxUploadsPerClient` per client address) are received at once — slow: still arriving after a second — so a
 * request over the cap is answered at once (503 SERVICE_BUSY, 429 RATE_LIMITED) instead of being held, while a burst
 * of quick requests is never refused. Without it, senders that open connections, send part
 * of a body and stall hold memory and sockets for ever — the webhook route takes bodies before any authentication.
 * Progress is read from the socket's byte counter once a second, so reading the body is left to its route.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { errorBody } from './envelope.js';

/** The limits on bodies being received. */
export interface BodyLimits {
  /** A body with no new byte for this long is cut off (408). */
  bodyIdleMs: number;
  /** Slow bodies received at once by this instance; one more is answered 503 SERVICE_BUSY. */
  maxUploads: number;
  /** Slow bodies received at once from one client address; one more is answered 429 RATE_LIMITED. */
  maxUploadsPerClient: number;
}

/** A body still arriving after this long counts as a slow upload. */
const SLOW_AFTER_MS = 1000;

interface Upload {
  request: FastifyRequest;
  reply: FastifyReply;
  raw: IncomingMessage;
  client: string;
  bytesRead: number;
  startedAt: number;
  progressAt: number;
  slow: boolean;
}

/** True while a request may still be sending its body. */
function sendsBody(raw: IncomingMessage): boolean {
  if (raw.complete) return false;
  return Number(raw.headers['content-length'] ?? 0) > 0 || raw.headers['transfer-encoding'] !== undefined;
}

/** Counts and watches the bodies being received; returns a stop function for the sweep. */
export function guardRequestBodies(app: FastifyInstance, limits: BodyLimits): () => void {
  const uploads = new Set<Upload>();
  let slow = 0;
  const perClient = new Map<string, number>();
  const release = (upload: Upload) => {
    if (!uploads.delete(upload) || !upload.slow) return;
    slow -= 1;
    const left = (perClient.get(upload.client) ?? 1) - 1;
    if (left > 0) perClient.set(upload.client, left);
    else perClient.delete(upload.client);
  };

  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    if (!sendsBody(raw)) return;
    const client = request.ip;
    // The rest of a refused body is not read: the connection closes after the answer.
    if (slow >= limits.maxUploads) {
      reply.header('connection', 'close');
      throw new AppError('SERVICE_BUSY', `The service is receiving ${limits.maxUploads} request bodies already; retry shortly.`, { retryAfter: 1 });
    }
    if ((perClient.get(client) ?? 0) >= limits.maxUploadsPerClient) {
      reply.header('connection', 'close');
      throw new AppError('RATE_LIMITED', `This client is sending ${limits.maxUploadsPerClient} request bodies already; retry shortly.`, { retryAfter: 1 });
    }
    const now = Date.now();
    const upload: Upload = { request, reply, raw, client, bytesRead: raw.socket?.bytesRead ?? 0, startedAt: now, progressAt: now, slow: false };
    uploads.add(upload);
    const done = () => release(upload);
    raw.once('end', done);
    raw.once('close', done);
    reply.raw.once('finish', done);
  });

  const sweep = setInterval(() => {
    const now = Date.now();
    for (const upload of uploads) {
      const { raw } = upload;
      const socket = raw.socket;
      if (!socket || socket.destroyed || raw.complete) {
        release(upload);
        continue;
      }
      if (!upload.slow && now - upload.startedAt >= SLOW_AFTER_MS) {
        upload.slow = true;
        slow += 1;
        perClient.set(upload.client, (perClient.get(upload.client) ?? 0) + 1);
      }
      if (socket.bytesRead !== upload.bytesRead) {
        upload.bytesRead = socket.bytesRead;
        upload.progressAt = now;
        continue;
      }
      if (now - upload.progressAt < limits.bodyIdleMs) continue;
      release(upload);
      cutOff(upload, limits.bodyIdleMs);
    }
  }, Math.min(250, Math.max(50, Math.floor(limits.bodyIdleMs / 4))));
  sweep.unref();
  return () => clearInterval(sweep);
}

/** Answers a stalled body 408 on its socket (as Node does for its own request timeout) and closes the connection. */
function cutOff({ request, reply }: Upload, idleMs: number): void {
  const socket = request.raw.socket;
  const message = `No byte of the request body arrived for ${idleMs} ms; the request is cut off.`;
  if (!reply.raw.headersSent) {
    const body = JSON.stringify(errorBody(request, 408, message, [{ code: 'REQUEST_TIMEOUT', message, field: 'body' }]));
    socket.end(
      `HTTP/1.1 408 Request Timeout\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  setTimeout(() => socket.destroy(), 1000).unref();
}
