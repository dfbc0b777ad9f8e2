/**
 * The `Idempotency-Key` header on single sends, bulk starts and template creates. The same key (per company)
 * with the same request (method, route and body) answers the first result again, with
 * `Idempotent-Replayed: true`, and runs nothing; another request under the key is 409
 * IDEMPOTENCY_KEY_REUSED; a request whose first attempt is still running waits briefly for its answer, then
 * is 409 IDEMPOTENCY_KEY_IN_PROGRESS. A reservation row (primary key company + key) is inserted before the
 * work, so two instances never both run it; single sends and bulk starts store the answer in the work's own
 * transaction (`idempotencyFence`), so a crash never leaves work done without its answer. 4xx answers are
 * stored like successes; a 5xx answer frees the key (the retry runs anew). Keys live 24 hours.
 */
import { createHash, randomBytes, type Hash } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest, onSendHookHandler, preHandlerHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import {
  completeIdempotencyKey,
  deleteIdempotencyReservation,
  findIdempotencyKey,
  insertIdempotencyKey,
  takeOverIdempotencyKey,
} from '../store/idempotency.js';
import type { Database } from '../store/schema.js';

/** The request header. */
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** The header set on a replayed answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** One attempt under a key. */
interface Attempt {
  companyId: string;
  key: string;
  /** This attempt's token in the reservation row. */
  owner: string;
  /** Method and route, then the body (canonical JSON, or the raw bytes of a streamed body). */
  hash: Hash;
  reserved: boolean;
  /** The answer was stored in the work's transaction. */
  completed: boolean;
  /** The answer hook ran. */
  recorded: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request carries an Idempotency-Key (see http/idempotency.ts). */
    idempotency?: Attempt;
  }
}

/** Settings of the idempotency hooks. */
export interface IdempotencyOptions {
  /** A reservation whose owner has not answered for this long may be taken over by a retry. */
  leaseSeconds: number;
  /** How long a retry waits for a first attempt still running before answering 409 IN_PROGRESS. */
  waitMs: number;
  /** This instance (dispatcher_instances owner) and whether it holds the database alone: a dead owner frees its keys. */
  instance?: { id: string; sole: boolean };
}

const DEFAULTS: IdempotencyOptions = { leaseSeconds: 120, waitMs: 3000 };
const POLL_MS = 50;

/** JSON with object keys sorted, so key order does not change the request's identity. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The header's key: 1–255 printable ASCII characters; undefined when absent; 400 naming the header otherwise. */
export function readIdempotencyKey(request: FastifyRequest): string | undefined {
  const raw = request.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(', ') : raw;
  if (value.length < 1 || value.length > 255 || !/^[\x20-\x7e]+$/.test(value)) {
    throw new AppError('VALIDATION_FAILED', 'Idempotency-Key must be 1 to 255 printable ASCII characters.', { field: 'Idempotency-Key' });
  }
  return value;
}

function begin(request: FastifyRequest): Attempt | undefined {
  const key = readIdempotencyKey(request);
  if (key === undefined) return undefined;
  const hash = createHash('sha256').update(`${request.method} ${request.routeOptions.url}\n`);
  request.idempotency = { companyId: request.companyId, key, owner: randomBytes(12).toString('hex'), hash, reserved: false, completed: false, recorded: false };
  return request.idempotency;
}

function replay(reply: FastifyReply, statusCode: number, response: string): FastifyReply {
  return reply.code(statusCode).header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(response);
}

/**
 * Reserves the key for this request, or answers for it: true when a replay was sent (the handler must stop and
 * return the reply). Throws IDEMPOTENCY_KEY_REUSED or IDEMPOTENCY_KEY_IN_PROGRESS. Bounded: polls for at most
 * `waitMs`.
 */
async function claim(db: Kysely<Database>, options: IdempotencyOptions, attempt: Attempt, reply: FastifyReply): Promise<boolean> {
  const requestHash = attempt.hash.digest('hex');
  const reservation = {
    companyId: attempt.companyId, key: attempt.key, requestHash, owner: attempt.owner, leaseSeconds: options.leaseSeconds,
    instance: options.instance?.id, soleInstance: options.instance?.sole,
  };
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    if ((await insertIdempotencyKey(db, reservation)) || (await takeOverIdempotencyKey(db, reservation))) {
      attempt.reserved = true;
      return false;
    }
    const row = await findIdempotencyKey(db, attempt.companyId, attempt.key);
    if (row && !row.expired) {
      if (row.request_hash !== requestHash) {
        throw new AppError('IDEMPOTENCY_KEY_REUSED', undefined, { field: 'Idempotency-Key' });
      }
      if (row.state === 'DONE' && row.status_code !== null && row.response !== null) {
        replay(reply, row.status_code, row.response);
        return true;
      }
      if (Date.now() >= deadline) {
        throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', undefined, { field: 'Idempotency-Key', retryAfter: 1 });
      }
    }
    // Gone (its first attempt failed with 5xx) or expired: the next round reserves it; still running: wait.
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Stores the answer (or frees the key after a 5xx) unless the work's transaction already stored it. */
function recordAnswer(db: Kysely<Database>): onSendHookHandler {
  return async (request, reply, payload) => {
    const attempt = request.idempotency;
    if (!attempt?.reserved || attempt.recorded) return payload;
    attempt.recorded = true;
    if (reply.statusCode >= 500) {
      // Frees only a reservation still IN_PROGRESS: an answer the work's transaction committed stays.
      await deleteIdempotencyReservation(db, attempt.companyId, attempt.key, attempt.owner);
    } else if (!attempt.completed) {
      const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : String(payload ?? '');
      await completeIdempotencyKey(db, attempt.companyId, attempt.key, attempt.owner, reply.statusCode, body);
    }
    return payload;
  };
}

/** Route hooks for a JSON route: the key is reserved (or answered for) after validation, the answer stored after. */
export function idempotentRoute(db: Kysely<Database>, options: Partial<IdempotencyOptions> = {}): { preHandler: preHandlerHookHandler; onSend: onSendHookHandler } {
  const settings = { ...DEFAULTS, ...options };
  return {
    preHandler: async (request, reply) => {
      const attempt = begin(request);
      if (!attempt) return;
      attempt.hash.update(canonicalJson(request.body));
      if (await claim(db, settings, attempt, reply)) return reply;
    },
    onSend: recordAnswer(db),
  };
}

/**
 * Route hooks for a streamed body (bulk starts): the header is checked before the handler; the handler passes
 * the body through `hashedBody` and calls `claimIdempotency` once the body has been read.
 */
export function idempotentStreamRoute(db: Kysely<Database>): { preHandler: preHandlerHookHandler; onSend: onSendHookHandler } {
  return {
    preHandler: async (request) => {
      begin(request);
    },
    onSend: recordAnswer(db),
  };
}

/** The body stream with every raw byte also fed to the request's hash (the body itself unchanged). */
export function hashedBody(request: FastifyRequest, body: Readable): Readable {
  const attempt = request.idempotency;
  if (!attempt) return body;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      attempt.hash.update(chunk);
      done(null, chunk);
    },
  });
  body.on('error', (error) => tap.destroy(error));
  return body.pipe(tap);
}

/** For streamed routes, after the body was read: true when a replay was sent (return the reply). */
export async function claimIdempotency(
  db: Kysely<Database>,
  request: FastifyRequest,
  reply: FastifyReply,
  options: Partial<IdempotencyOptions> = {},
): Promise<boolean> {
  const attempt = request.idempotency;
  if (!attempt) return false;
  return claim(db, { ...DEFAULTS, ...options }, attempt, reply);
}

/**
 * For the work's own transaction: stores `answer` (serialized as the route answers it) as the key's first
 * result, or throws IDEMPOTENCY_KEY_IN_PROGRESS (rolling the work back) when a retry took the key over after
 * the lease ran out. Undefined without a key.
 */
export function idempotencyFence(request: FastifyRequest, reply: FastifyReply): ((tx: Kysely<Database>, answer: unknown) => Promise<void>) | undefined {
  const attempt = request.idempotency;
  if (!attempt?.reserved) return undefined;
  return async (tx, answer) => {
    if (!(await completeIdempotencyKey(tx, attempt.companyId, attempt.key, attempt.owner, 200, String(reply.serialize(answer))))) {
      throw new AppError('IDEMPOTENCY_KEY_IN_PROGRESS', 'A retry took this Idempotency-Key over; this attempt was rolled back.', { field: 'Idempotency-Key' });
    }
    attempt.completed = true;
  };
}
