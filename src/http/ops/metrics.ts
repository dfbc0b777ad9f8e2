/**
 * The operator's metrics (Prometheus text format, prom-client): one registry per app. Database figures are read
 * together at most once per `cacheMs` (concurrent scrapes share one read) and are all cheap on a large
 * database (store/metrics.ts): no count over the bulk rows of the messages table (single sends are counted
 * over a partial index that holds only them). HTTP latency is timed by an onResponse hook
 * labelled with the route pattern, never the raw URL. Labels carry channel ids only, never tenant data.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { REPORT_COUNTERS } from '../../domain/message-states.js';
import type { PoolStats } from '../../store/pglite-dialect.js';
import type { Database } from '../../store/schema.js';
import {
  countSingleSendsByChannel,
  findOldestQueuedPerChannel,
  findPendingWebhookBacklog,
  sumBulkCountersByChannel,
  type BulkCounterSums,
  type SingleSendCount,
} from '../../store/metrics.js';

/** Pending webhook events are counted up to this many (the age of the oldest is exact). */
export const WEBHOOK_PENDING_CAP = 100_000;
/** Pending client-webhook deliveries are counted up to this many (the age of the oldest is exact). */
export const OUTBOX_PENDING_CAP = 100_000;

/** The client-webhook outbox's backlog, once the outbox exists (hook: app.ts hands it in). */
export interface OutboxBacklog {
  pending: number;
  /** Age of the oldest undelivered delivery, or null when none waits. */
  oldestAgeSeconds: number | null;
  /** Per endpoint (enabled or not): its pending deliveries, the oldest's age, seconds to its next attempt (≤ 0: due). */
  endpoints?: Array<{ endpointId: string; pending: number; oldestAgeSeconds: number | null; nextAttemptInSeconds: number | null }>;
}

/** Where the metrics come from. */
export interface MetricsSources {
  db: Kysely<Database>;
  /** Connection use of the database (pg pool counts, or PGlite's mutex queue). */
  poolStats?: () => PoolStats;
  /** Webhook POSTs refused for their signature since start. */
  webhooksRejected: () => number;
  /** Webhook bodies taken since start, by path: applied in the transaction that stored them, or stored first. */
  webhookBodies?: () => { appliedOnReceipt: number; storedFirst: number };
  /** True while the process drains for a shutdown. */
  draining: () => boolean;
  /** The client-webhook outbox backlog; without it the outbox gauges are absent. */
  outboxBacklog?: () => Promise<OutboxBacklog>;
  /** How long one database read serves scrapes (default 5000 ms; 0 reads at every scrape). */
  cacheMs?: number;
}

/** Single-send statuses not yet handed to the network (the bulk counters' `waiting` + `queued`). */
const SINGLE_NOT_HANDED_OFF = new Set(['NONE', 'QUEUED', 'AGENDA', 'OPT_IN_SUCCESS']);

interface Snapshot {
  at: number;
  bulk: BulkCounterSums[];
  single: SingleSendCount[];
  oldestQueued: Array<{ channel_id: string; oldest_due_at: Date | null }>;
  webhooks: { pending: number; oldest_received_at: Date | null };
  outbox: OutboxBacklog | null;
  readSeconds: number;
}

/** A metrics registry with its collectors, and the hook that times HTTP requests. */
export interface Metrics {
  registry: Registry;
  /** Adds the onResponse timing hook to an app (call before routes are registered). */
  timeRequests(app: FastifyInstance): void;
}

/** Builds the registry. */
export function createMetrics(sources: MetricsSources): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const cacheMs = sources.cacheMs ?? 5000;
  let cached: Snapshot | null = null;
  let reading: Promise<Snapshot> | null = null;

  const read = async (): Promise<Snapshot> => {
    const started = process.hrtime.bigint();
    const bulk = await sumBulkCountersByChannel(sources.db);
    const single = await countSingleSendsByChannel(sources.db);
    const oldestQueued = await findOldestQueuedPerChannel(sources.db);
    const webhooks = await findPendingWebhookBacklog(sources.db, WEBHOOK_PENDING_CAP);
    const outbox = sources.outboxBacklog ? await sources.outboxBacklog() : null;
    const readSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { at: Date.now(), bulk, single, oldestQueued, webhooks, outbox, readSeconds };
  };
  const snapshot = (): Promise<Snapshot> => {
    if (cached && Date.now() - cached.at < cacheMs) return Promise.resolve(cached);
    reading ??= read()
      .then((s) => (cached = s))
      .finally(() => (reading = null));
    return reading;
  };
  const ageSeconds = (at: Date | null) => (at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : 0);

  new Gauge({
    name: 'tms_bulk_messages',
    help: 'Bulk-send rows per channel by counter, summed over every bulk send (the counters of reports; delivered/sent/seen overlap by design)',
    labelNames: ['channel_id', 'counter'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const row of s.bulk) {
        for (const counter of REPORT_COUNTERS) this.inc({ channel_id: row.channel_id, counter }, row[counter]);
      }
    },
  });
  new Gauge({
    name: 'tms_bulk_sends',
    help: 'Bulk sends per channel and status',
    labelNames: ['channel_id', 'status'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const row of s.bulk) this.set({ channel_id: row.channel_id, status: row.status }, row.bulk_sends);
    },
  });
  new Gauge({
    name: 'tms_single_messages',
    help: 'Single sends (messages without a bulk send) per channel and message status',
    labelNames: ['channel_id', 'status'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const row of s.single) this.set({ channel_id: row.channel_id, status: row.status }, row.messages);
    },
  });
  new Gauge({
    name: 'tms_queue_depth',
    help: 'Messages per channel not yet handed to the network: bulk rows (waiting + queued counters) and single sends in NONE, QUEUED, AGENDA or OPT_IN_SUCCESS',
    labelNames: ['channel_id'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const c of s.oldestQueued) this.set({ channel_id: c.channel_id }, 0);
      for (const row of s.bulk) this.inc({ channel_id: row.channel_id }, row.waiting + row.queued);
      for (const row of s.single) if (SINGLE_NOT_HANDED_OFF.has(row.status)) this.inc({ channel_id: row.channel_id }, row.messages);
    },
  });
  new Gauge({
    name: 'tms_queue_oldest_due_age_seconds',
    help: 'Seconds since the earliest QUEUED message of the channel (single or bulk) became due; 0 when none is due',
    labelNames: ['channel_id'],
    registers: [registry],
    async collect() {
      const s = await snapshot();
      this.reset();
      for (const c of s.oldestQueued) this.set({ channel_id: c.channel_id }, ageSeconds(c.oldest_due_at));
    },
  });
  new Gauge({
    name: 'tms_webhook_inbox_pending',
    help: `Verified webhook events stored and not applied yet (counted up to ${WEBHOOK_PENDING_CAP})`,
    registers: [registry],
    async collect() {
      this.set((await snapshot()).webhooks.pending);
    },
  });
  new Gauge({
    name: 'tms_webhook_inbox_lag_seconds',
    help: 'Age of the oldest webhook event not applied yet; 0 when none waits',
    registers: [registry],
    async collect() {
      this.set(ageSeconds((await snapshot()).webhooks.oldest_received_at));
    },
  });
  new Counter({
    name: 'tms_webhooks_rejected_total',
    help: 'Webhook POSTs refused for a missing or wrong signature since this process started',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sources.webhooksRejected());
    },
  });
  if (sources.webhookBodies) {
    const bodies = sources.webhookBodies;
    new Counter({
      name: 'tms_webhook_bodies_total',
      help: 'Verified webhook bodies taken since this process started, by path: applied_on_receipt (stored and applied in one transaction) or stored_first (applied after by the inbox drain)',
      labelNames: ['path'],
      registers: [registry],
      collect() {
        const taken = bodies();
        this.reset();
        this.inc({ path: 'applied_on_receipt' }, taken.appliedOnReceipt);
        this.inc({ path: 'stored_first' }, taken.storedFirst);
      },
    });
  }
  if (sources.outboxBacklog) {
    new Gauge({
      name: 'tms_outbox_pending',
      help: `Client-webhook deliveries waiting to be delivered (PENDING, counted up to ${OUTBOX_PENDING_CAP})`,
      registers: [registry],
      async collect() {
        this.set((await snapshot()).outbox?.pending ?? 0);
      },
    });
    const perEndpoint = (name: string, help: string, pick: (e: NonNullable<OutboxBacklog['endpoints']>[number]) => number | null) =>
      new Gauge({
        name,
        help,
        labelNames: ['endpoint_id'],
        registers: [registry],
        async collect() {
          this.reset();
          for (const e of (await snapshot()).outbox?.endpoints ?? []) {
            const value = pick(e);
            if (value !== null) this.set({ endpoint_id: e.endpointId }, value);
          }
        },
      });
    perEndpoint('tms_outbox_endpoint_pending', `Client-webhook deliveries waiting per endpoint (counted up to ${OUTBOX_PENDING_CAP}); over CLIENT_WEBHOOK_MAX_PENDING the endpoint is disabled`, (e) => e.pending);
    perEndpoint('tms_outbox_endpoint_oldest_age_seconds', 'Age of the oldest delivery waiting per endpoint (absent when none waits)', (e) => e.oldestAgeSeconds);
    perEndpoint('tms_outbox_endpoint_next_attempt_seconds', "Seconds until the endpoint's next delivery attempt is due (0 or less: due now; absent when none waits)", (e) => e.nextAttemptInSeconds);
    new Gauge({
      name: 'tms_outbox_oldest_age_seconds',
      help: 'Age of the oldest client-webhook delivery still waiting; 0 when none waits',
      registers: [registry],
      async collect() {
        this.set((await snapshot()).outbox?.oldestAgeSeconds ?? 0);
      },
    });
  }
  new Gauge({
    name: 'tms_metrics_db_read_seconds',
    help: 'How long the last database read for these metrics took',
    registers: [registry],
    async collect() {
      this.set((await snapshot()).readSeconds);
    },
  });
  const pool = (name: string, help: string, pick: (p: PoolStats) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        if (sources.poolStats) this.set(pick(sources.poolStats()));
      },
    });
  if (sources.poolStats) {
    pool('tms_db_pool_connections', 'Database connections open (PGlite: 1)', (p) => p.total);
    pool('tms_db_pool_idle', 'Database connections idle (PGlite: 1 when nobody holds its mutex)', (p) => p.idle);
    pool('tms_db_pool_waiting', 'Callers waiting for a database connection (PGlite: queued behind its mutex)', (p) => p.waiting);
  }
  new Gauge({
    name: 'tms_shutting_down',
    help: '1 while the process drains for a shutdown (readiness answers 503)',
    registers: [registry],
    collect() {
      this.set(sources.draining() ? 1 : 0);
    },
  });

  const latency = new Histogram({
    name: 'tms_http_request_duration_seconds',
    help: 'HTTP request latency by method, route pattern and status code',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  return {
    registry,
    timeRequests(app) {
      app.addHook('onResponse', async (request, reply) => {
        // The route pattern (e.g. /api/v1/message-templates/:id), never the raw URL; unmatched URLs share one label.
        const route = request.routeOptions.url ?? 'unmatched';
        latency.observe({ method: request.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
      });
    },
  };
}
