/**
 * The client webhook delivery worker: claims due outbox rows per enabled endpoint (at most
 * `concurrencyPerEndpoint` in flight per endpoint in this instance, `for update skip locked` across instances),
 * POSTs each signed event, and records the outcome: DELIVERED on 2xx, otherwise a retry with exponential
 * back-off and jitter until the row is `giveUpAfterMs` old, then FAILED. An endpoint whose attempts all failed
 * for `disableAfterMs` and at least `disableAfterFailures` times in a row is disabled. Separate from the
 * dispatcher and bounded: a slow or dead endpoint holds only its own slots, never a send.
 * Never holds a transaction across an HTTP call. At least once: a crash between the POST and its mark re-sends
 * the event after the lease (receivers deduplicate by `X-TMS-Event-Id`).
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { clientEventBody, retryDelayMs, signClientWebhook } from '../domain/client-webhooks.js';
import type { SecretBox } from '../domain/secret-box.js';
import type { WebhookPoster } from '../network/webhook-poster.js';
import type { Database } from '../store/schema.js';
import {
  claimDeliveries,
  deleteOldDeliveries,
  expireAllDeliveryLeases,
  giveUpUndeliverable,
  markAttemptFailed,
  markDelivered,
  releaseDeliveries,
  type DeliveryRow,
} from '../store/webhook-deliveries.js';
import { disableEndpointsOverBacklog, listEnabledWebhookEndpoints, noteEndpointFailure, noteEndpointSuccess } from '../store/webhook-endpoints.js';

/** Worker settings (defaults in DEFAULT_OUTBOX_OPTIONS). */
export interface OutboxOptions {
  /** Deliveries in flight per endpoint in this instance. */
  concurrencyPerEndpoint: number;
  /** One POST's deadline (connect, headers and body). */
  timeoutMs: number;
  /** First retry delay; doubles per attempt up to `retryMaxMs`, jittered to 50-100 %. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** A delivery this old whose attempt fails is given up (FAILED). */
  giveUpAfterMs: number;
  /** Auto-disable: this many consecutive failed attempts ... */
  disableAfterFailures: number;
  /** ... and no success for this long. */
  disableAfterMs: number;
  /** An endpoint with more PENDING deliveries than this is disabled (its backlog stops growing). */
  maxPendingPerEndpoint: number;
  /** DELIVERED and FAILED rows older than this are deleted. */
  retentionSeconds: number;
  /** The loop's pause when nothing is due; an endpoint with nothing due is asked again after `idleEndpointMs`. */
  pollMs: number;
  idleEndpointMs: number;
  maintenanceMs: number;
}

/** Production defaults. */
export const DEFAULT_OUTBOX_OPTIONS: OutboxOptions = {
  concurrencyPerEndpoint: 8,
  timeoutMs: 10_000,
  retryBaseMs: 10_000,
  retryMaxMs: 3_600_000,
  giveUpAfterMs: 24 * 3600 * 1000,
  disableAfterFailures: 20,
  disableAfterMs: 24 * 3600 * 1000,
  maxPendingPerEndpoint: 100_000,
  retentionSeconds: 7 * 24 * 3600,
  pollMs: 250,
  idleEndpointMs: 1000,
  maintenanceMs: 10_000,
};

/** What the worker needs. */
export interface OutboxDeps {
  db: Kysely<Database>;
  poster: WebhookPoster;
  secrets: SecretBox;
  log: Logger;
  options?: Partial<OutboxOptions>;
  owner?: string;
  /** True when no other process shares the database (PGlite): a dead run's claims are freed at start. */
  exclusive?: boolean;
}

interface Endpoint {
  id: string;
  company_id: string;
  url: string;
  secret: string;
}

/** The delivery worker. */
export class OutboxWorker {
  readonly owner: string;
  readonly options: OutboxOptions;
  private stopping = false;
  private running: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private readonly inFlight = new Map<string, { endpointId: string; abort: AbortController; done: Promise<void> }>();
  private readonly idleUntil = new Map<string, number>();
  private lastMaintenance = 0;

  constructor(private readonly deps: OutboxDeps) {
    this.owner = deps.owner ?? `tms-outbox-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.options = { ...DEFAULT_OUTBOX_OPTIONS, ...deps.options };
  }

  /** Seconds a claim is this instance's: two deadlines and a margin, so a live attempt never loses it. */
  get leaseSeconds(): number {
    return Math.ceil((this.options.timeoutMs * 2) / 1000) + 10;
  }

  /** Deliveries in flight now. */
  get inFlightCount(): number {
    return this.inFlight.size;
  }

  /** Starts the loop. */
  start(): void {
    if (this.running) return;
    this.stopping = false;
    this.running = this.loop();
  }

  /** Wakes the loop (a replay was queued). */
  wake(): void {
    this.idleUntil.clear();
    this.woken = true;
    this.wakeUp?.();
  }

  /**
   * Stops claiming and drains: deliveries in flight finish (each within `timeoutMs`); with `graceMs` shorter,
   * the ones still running then are aborted and their claims given back uncounted (delivered again later).
   */
  async stop(graceMs: number = this.options.timeoutMs + 1000): Promise<void> {
    this.stopping = true;
    this.wake();
    await this.running;
    this.running = null;
    const all = Promise.all([...this.inFlight.values()].map((f) => f.done));
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      all.then(() => false),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(true), graceMs))),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      for (const f of this.inFlight.values()) f.abort.abort();
      await all;
    }
  }

  /** Closes the poster's connections (after stop). */
  async closePoster(): Promise<void> {
    await this.deps.poster.close();
  }

  /**
   * Runs maintenance once: disables endpoints whose backlog passed its limit, gives up undeliverable rows, deletes
   * finished rows past retention (bounded).
   */
  async maintain(): Promise<void> {
    const { db } = this.deps;
    for (const endpoint of await disableEndpointsOverBacklog(db, this.options.maxPendingPerEndpoint)) {
      this.deps.log.warn({ endpointId: endpoint.id, companyId: endpoint.company_id, maxPending: this.options.maxPendingPerEndpoint }, 'client webhook endpoint disabled: its backlog passed the limit');
    }
    const maxAge = Math.ceil(this.options.giveUpAfterMs / 1000);
    for (let round = 0; round < 20; round += 1) if ((await giveUpUndeliverable(db, maxAge, 5000)) < 5000) break;
    for (let round = 0; round < 20; round += 1) if ((await deleteOldDeliveries(db, this.options.retentionSeconds, 5000)) < 5000) break;
  }

  private async loop(): Promise<void> {
    if (this.deps.exclusive) {
      await expireAllDeliveryLeases(this.deps.db).catch((error) => this.deps.log.error({ err: error }, 'freeing delivery claims failed'));
    }
    while (!this.stopping) {
      try {
        if (Date.now() - this.lastMaintenance >= this.options.maintenanceMs) {
          this.lastMaintenance = Date.now();
          await this.maintain();
        }
        await this.claimRound();
      } catch (error) {
        this.deps.log.error({ err: error }, 'client webhook round failed');
      }
      await this.sleep(this.options.pollMs);
    }
  }

  private async claimRound(): Promise<void> {
    const endpoints = await listEnabledWebhookEndpoints(this.deps.db);
    const now = Date.now();
    for (const endpoint of endpoints) {
      if (this.stopping) return;
      if ((this.idleUntil.get(endpoint.id) ?? 0) > now) continue;
      const busy = [...this.inFlight.values()].filter((f) => f.endpointId === endpoint.id).length;
      const free = this.options.concurrencyPerEndpoint - busy;
      if (free <= 0) continue;
      const rows = await claimDeliveries(this.deps.db, endpoint.id, this.owner, free, this.leaseSeconds);
      if (rows.length === 0 && busy === 0) this.idleUntil.set(endpoint.id, now + this.options.idleEndpointMs);
      for (const row of rows) this.launch(endpoint, row);
    }
  }

  private launch(endpoint: Endpoint, row: DeliveryRow): void {
    const key = String(row.id);
    const abort = new AbortController();
    const done = this.deliver(endpoint, row, abort.signal)
      .catch((error) => this.deps.log.error({ err: error, deliveryId: key }, 'client webhook delivery failed to record'))
      .finally(() => {
        this.inFlight.delete(key);
        this.idleUntil.delete(endpoint.id);
        this.woken = true;
        this.wakeUp?.();
      });
    this.inFlight.set(key, { endpointId: endpoint.id, abort, done });
  }

  private async deliver(endpoint: Endpoint, row: DeliveryRow, signal: AbortSignal): Promise<void> {
    const { db, log } = this.deps;
    const id = String(row.id);
    let secret: string;
    try {
      secret = this.deps.secrets.open(endpoint.secret);
    } catch (error) {
      await this.failed(endpoint, row, null, `the endpoint secret cannot be opened: ${(error as Error).message}`);
      return;
    }
    const body = clientEventBody({
      id: row.event_id,
      type: row.event_type,
      occurred_at: new Date(row.occurred_at).toISOString(),
      company_id: row.company_id,
      data: row.data,
    });
    const timestamp = Math.floor(Date.now() / 1000);
    const outcome = await this.deps.poster.post(endpoint.url, body, {
      'x-tms-signature': signClientWebhook(secret, body, timestamp),
      'x-tms-event-id': row.event_id,
      'x-tms-event-type': row.event_type,
      'x-tms-delivery-id': id,
      'x-tms-delivery-attempt': String(row.attempts),
    }, signal);
    if (signal.aborted) {
      await releaseDeliveries(db, this.owner, [id]);
      return;
    }
    if (outcome.error === null && outcome.statusCode !== null) {
      await markDelivered(db, id, outcome.statusCode);
      await noteEndpointSuccess(db, endpoint.id);
      return;
    }
    log.debug({ deliveryId: id, endpointId: endpoint.id, error: outcome.error }, 'client webhook attempt failed');
    await this.failed(endpoint, row, outcome.statusCode, outcome.error ?? 'failed');
  }

  private async failed(endpoint: Endpoint, row: DeliveryRow, statusCode: number | null, error: string): Promise<void> {
    const { db, log } = this.deps;
    const age = Date.now() - new Date(row.created_at).getTime();
    const delay = retryDelayMs(row.attempts, { baseMs: this.options.retryBaseMs, maxMs: this.options.retryMaxMs });
    // The last retry falls at the end of the window; an attempt failing after it gives the delivery up.
    const left = this.options.giveUpAfterMs - age;
    const retryAt = left <= 0 ? null : new Date(Date.now() + Math.min(delay, left));
    await markAttemptFailed(db, this.owner, String(row.id), { statusCode, error, retryAt });
    if (retryAt === null) log.warn({ deliveryId: String(row.id), endpointId: endpoint.id, error }, 'client webhook delivery given up');
    const disabled = await noteEndpointFailure(
      db,
      endpoint.id,
      this.options.disableAfterFailures,
      Math.floor(this.options.disableAfterMs / 1000),
    );
    if (disabled) log.warn({ endpointId: endpoint.id, companyId: endpoint.company_id }, 'client webhook endpoint disabled after persistent failure');
  }

  private sleep(ms: number): Promise<void> {
    if (this.woken || this.stopping) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wakeUp = null;
        resolve();
      }, ms);
      this.wakeUp = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.woken = false;
        resolve();
      };
    });
  }
}
