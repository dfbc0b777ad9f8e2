/**
 * Operations routes: `GET /health` (database reachable, webhook inbox counts), and the additions beyond the
 * interface: `GET /metrics` (Prometheus text, its own bearer token METRICS_TOKEN, compared in constant time; never
 * a tenant's token), `GET /livez` (the process answers; no database) and `GET /readyz` (database reachable, every
 * migration applied, not draining for a shutdown).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql, type Kysely } from 'kysely';
import { Type, type Static } from 'typebox';
import { bearerToken } from '../../domain/tokens.js';
import { AppError } from '../../errors.js';
import { MIGRATIONS } from '../../store/migrations/index.js';
import { listAppliedMigrations } from '../../store/metrics.js';
import type { Database } from '../../store/schema.js';
import { countWebhookEventsByState } from '../../store/webhook-events.js';
import { countRejectedItems } from '../../store/webhook-rejected-items.js';
import { ERROR_RESPONSES } from '../envelope.js';
import type { Metrics } from './metrics.js';

/** What the operations routes need. */
export interface OpsDeps {
  db: Kysely<Database>;
  metrics: Metrics;
  /** METRICS_TOKEN; unset, /metrics answers 404. */
  metricsToken?: string;
  /** True from the moment a shutdown begins. */
  draining(): boolean;
  /** How long the readiness check waits for the database (default 2000 ms). */
  readyTimeoutMs?: number;
  /** What /health reports beside the database's answer. */
  health: {
    /** The database kind (pglite, postgres). */
    database: string;
    /** The network mode (simulator, cloud). */
    network: string;
    /** Webhook POSTs refused for their signature since this process started. */
    webhooksRejected(): number;
  };
}

/** Constant-time comparison of two secrets (their SHA-256 digests, so lengths never leak). */
export function sameSecret(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

const ReadySchema = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('draining'), Type.Literal('database_unavailable'), Type.Literal('migrations_pending')], {
    description: 'ready, or why not: draining for a shutdown, the database did not answer, or migrations are missing',
  }),
  database: Type.Boolean({ description: 'the database answered `select 1` within the timeout' }),
  migrations: Type.Boolean({ description: "every migration this build knows is applied" }),
  draining: Type.Boolean({ description: 'a shutdown has begun (SIGTERM/SIGINT)' }),
});
type Ready = Static<typeof ReadySchema>;

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** Registers /health, /metrics, /livez and /readyz. */
export async function opsRoutes(app: FastifyInstance, deps: OpsDeps): Promise<void> {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  let migrationsComplete = false;

  r.get(
    '/health',
    {
      schema: {
        tags: ['service'],
        summary: 'Liveness and readiness: database reachable, webhook inbox counts',
        description: 'No bearer token. 200 when the database answers; counts of webhook events by state and signature refusals since start.',
        security: [],
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            status: Type.Literal('ok'),
            database: Type.String(),
            network: Type.String(),
            webhook_events: Type.Record(Type.String(), Type.Integer()),
            webhooks_rejected: Type.Integer({ description: 'webhook POSTs refused for their signature since this process started' }),
            webhook_items_rejected: Type.Integer({
              description: 'status items of signed webhook bodies set apart because they cannot be applied (kept with their reason in webhook_rejected_items for the webhook retention)',
            }),
          }, { examples: [{ success: true, status: 'ok', database: 'postgres', network: 'simulator', webhook_events: { APPLIED: 1204, RECEIVED: 0 }, webhooks_rejected: 0, webhook_items_rejected: 0 }] }),
        },
      },
    },
    async () => {
      await sql`select 1`.execute(deps.db);
      return {
        success: true as const,
        status: 'ok' as const,
        database: deps.health.database,
        network: deps.health.network,
        webhook_events: await countWebhookEventsByState(deps.db),
        webhooks_rejected: deps.health.webhooksRejected(),
        webhook_items_rejected: await countRejectedItems(deps.db),
      };
    },
  );

  r.get(
    '/metrics',
    {
      schema: {
        tags: ['operations'],
        summary: 'Prometheus metrics (addition)',
        description:
          'Prometheus text exposition format 0.0.4 (`text/plain`): bulk-send counters and queue depth per channel, oldest due ' +
          'age, webhook inbox lag, HTTP latency histograms by route pattern, database pool use, process metrics. Requires ' +
          '`Authorization: Bearer <METRICS_TOKEN>` (not a company token); 404 while METRICS_TOKEN is unset.',
        security: [{ metricsBearer: [] }],
        produces: ['text/plain'],
        response: {
          200: Type.String({
            description: 'Prometheus text format',
            examples: ['# HELP tms_queue_depth Bulk-send rows per channel not yet handed to the network\n# TYPE tms_queue_depth gauge\ntms_queue_depth{channel_id="110000000000001"} 120\n'],
          }),
          ...ERROR_RESPONSES,
        },
      },
    },
    async (request, reply) => {
      if (!deps.metricsToken) throw new AppError('NOT_FOUND', 'Metrics are off: set METRICS_TOKEN to enable GET /metrics.');
      const token = bearerToken(request.headers.authorization);
      if (!token || !sameSecret(token, deps.metricsToken)) {
        throw new AppError('UNAUTHORIZED', 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.');
      }
      const body = await deps.metrics.registry.metrics();
      return reply.type(deps.metrics.registry.contentType).send(body);
    },
  );

  r.get(
    '/livez',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness probe (addition)',
        description: 'The process is up and its event loop answers. Never touches the database; 200 even while draining.',
        security: [],
        response: {
          200: Type.Object({ status: Type.Literal('alive') }, { examples: [{ status: 'alive' }] }),
        },
      },
    },
    async () => ({ status: 'alive' as const }),
  );

  r.get(
    '/readyz',
    {
      schema: {
        tags: ['operations'],
        summary: 'Readiness probe (addition)',
        description:
          '200 when the database answers, every migration is applied and no shutdown has begun; 503 otherwise, with the ' +
          'reason. A load balancer stops sending traffic on 503; the process keeps serving what reaches it while it drains.',
        security: [],
        response: {
          200: { ...ReadySchema, examples: [{ status: 'ready', database: true, migrations: true, draining: false }] },
          503: { ...ReadySchema, examples: [{ status: 'draining', database: true, migrations: true, draining: true }] },
        },
      },
    },
    async (_request, reply) => {
      const draining = deps.draining();
      let database = false;
      try {
        await withTimeout(sql`select 1`.execute(deps.db), deps.readyTimeoutMs ?? 2000);
        database = true;
        if (!migrationsComplete) {
          const applied = new Set(await withTimeout(listAppliedMigrations(deps.db), deps.readyTimeoutMs ?? 2000));
          migrationsComplete = Object.keys(MIGRATIONS).every((name) => applied.has(name));
        }
      } catch {
        /* reported below */
      }
      const body: Ready = {
        status: draining ? 'draining' : !database ? 'database_unavailable' : !migrationsComplete ? 'migrations_pending' : 'ready',
        database,
        migrations: migrationsComplete,
        draining,
      };
      return reply.status(body.status === 'ready' ? 200 : 503).send(body);
    },
  );
}
