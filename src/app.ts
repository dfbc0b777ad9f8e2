/**
 * Assembles the HTTP application from its dependencies. Never listens (server.ts does) and opens nothing
 * (the caller hands in the database and the network), so tests build it with `inject`.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Kysely } from 'kysely';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { createSecretBox, type SecretBox } from './domain/secret-box.js';
import { phoneQualityHandler } from './engine/channel-events.js';
import type { ChannelHealthDeps } from './engine/channel-health.js';
import type { DuringStart } from './engine/bulk-start.js';
import { Dispatcher, type DispatcherOptions } from './engine/dispatcher.js';
import { OutboxWorker, type OutboxOptions } from './engine/client-webhooks.js';
import type { WebhookEndpointDeps } from './engine/webhook-endpoints.js';
import { messageStatusHandler } from './engine/status-events.js';
import { templateCategoryHandler, templateComponentsHandler, templateQualityHandler, templateStatusHandler } from './engine/template-events.js';
import { startTemplateSyncSweep } from './engine/template-sync.js';
import { templateSyncDeps, type TemplateDeps } from './engine/templates.js';
import { inSequence, WebhookInbox } from './engine/webhook-inbox.js';
import { SendActivity } from './engine/send-activity.js';
import { inboundMessageHandler } from './engine/inbound-messages.js';
import { userIdUpdateHandler, userPreferencesHandler } from './engine/recipient-events.js';
import { requireAuth } from './http/auth.js';
import { FailureThrottle } from './http/auth-throttle.js';
import { consoleRoutes, DEFAULT_CONSOLE_DIR } from './http/console.js';
import type { RouteDeps } from './http/deps.js';
import { ErrorEnvelopeSchema } from './http/envelope.js';
import { handleError, installErrorHandlers } from './http/error-handler.js';
import { applyInputRules } from './http/input-rules.js';
import { guardRequestBodies } from './http/slow-senders.js';
import { openapiOptions } from './http/openapi/document.js';
import { START_SHAPES } from './http/schemas/bulk-start-check.js';
import { agentAppChannelRoutes } from './http/agent-app/channels.js';
import { agentAppBulkSendRoutes } from './http/agent-app/bulk-sends.js';
import { agentAppBulkSendFileRoutes } from './http/agent-app/bulk-send-files.js';
import { agentAppBulkSendLifecycleRoutes } from './http/agent-app/bulk-send-lifecycle.js';
import { agentAppSingleSendRoutes } from './http/agent-app/single-send.js';
import { agentAppTemplateRoutes } from './http/agent-app/templates.js';
import { apiV1ChannelRoutes } from './http/api-v1/channels.js';
import { apiV1MediaRoutes } from './http/api-v1/media.js';
import { apiV1MeRoutes } from './http/api-v1/me.js';
import { apiV1MessageRoutes } from './http/api-v1/messages.js';
import { apiV1OptOutRoutes } from './http/api-v1/opt-outs.js';
import { apiV1RateCardRoutes } from './http/api-v1/rate-card.js';
import { apiV1BulkSendRoutes } from './http/api-v1/bulk-sends.js';
import { apiV1SendStatsRoutes } from './http/api-v1/send-stats.js';
import { apiV1TemplateRoutes } from './http/api-v1/templates.js';
import { apiV1WebhookEndpointRoutes } from './http/api-v1/webhook-endpoints.js';
import { webhookRoutes } from './http/webhooks/routes.js';
import { createMetrics, OUTBOX_PENDING_CAP, type Metrics, type OutboxBacklog } from './http/ops/metrics.js';
import { findPendingDeliveryBacklog } from './store/metrics.js';
import { findEndpointBacklogs } from './store/webhook-deliveries.js';
import { analyzeMessages } from './store/statistics.js';
import { createStatisticsRefresh } from './engine/statistics-refresh.js';
import { opsRoutes } from './http/ops/routes.js';
import type { NetworkPort } from './network/port.js';
import type { PoolStats } from './store/pglite-dialect.js';
import { createWebhookPoster, type WebhookPoster } from './network/webhook-poster.js';
import type { Database } from './store/schema.js';

/** Log paths pino censors: channel access tokens and authorization headers are never logged. */
export const LOG_REDACT_PATHS = [
  'access_token', 'accessToken', '*.access_token', '*.accessToken', '*.*.access_token', '*.*.accessToken',
  'authorization', '*.authorization', 'headers.authorization', '*.headers.authorization', 'req.headers.authorization',
];

/** What buildApp needs. */
export interface AppOptions {
  config: Config;
  db: Kysely<Database>;
  dbKind: 'pglite' | 'postgres';
  network: NetworkPort;
  log?: Logger;
  /** Seals and opens channel access tokens (default: a SecretBox over config.secretKey). */
  secrets?: SecretBox;
  /** How long a channel's network read stays fresh (default 30 s). */
  channelMaxAgeMs?: number;
  /** How long a template's review status is trusted before list/get ask the network (default 10 s). */
  templateStatusMaxAgeMs?: number;
  /** Most variables in a template BODY (the interface's limit, default 4). */
  maxBodyParams?: number;
  /** Dispatcher tunables (tests shorten windows). */
  dispatcher?: Partial<DispatcherOptions>;
  /** This instance's name in send leases. */
  instanceId?: string;
  /** The built web console served at / (default web/dist; null serves none). */
  consoleDir?: string | null;
  /** Connection use of the database for the metrics (Store.poolStats). */
  poolStats?: () => PoolStats;
  /** How long one database read serves /metrics scrapes (default 5000 ms; tests use 0). */
  metricsCacheMs?: number;
  /** Rows per COPY statement when a bulk start stores its rows (default 5000; tests use a few to cross batch boundaries). */
  bulkBatchSize?: number;
  /** Runs each bulk start's work under the process's memory policy for starts (runtime.ts's HeapGrowth). */
  duringStart?: DuringStart;
  /** Client webhook delivery worker tunables (tests shorten back-offs and thresholds). */
  outbox?: Partial<OutboxOptions>;
  /** Posts client webhooks (default: an undici poster with the outbox's timeout). */
  webhookPoster?: WebhookPoster;
}

/** The assembled application and the background parts its owner starts and stops. */
export interface App {
  http: FastifyInstance;
  webhookInbox: WebhookInbox;
  dispatcher: Dispatcher;
  /** The client webhook delivery worker (`stop()` drains its deliveries in flight). */
  outbox: OutboxWorker;
  /** Starts background work (webhook sweep, dispatcher). */
  start(): void;
  /** True once a shutdown has begun: /readyz answers 503. */
  draining(): boolean;
  /**
   * Stops in the shutdown order: readiness 503 at once, the dispatcher claims nothing more and waits for the sends in
   * flight to be answered and stored, background sweeps stop, then the HTTP server closes (status webhooks of the
   * last sends still land until then) and the webhook inbox finishes its batch. Not the database or network.
   */
  close(): Promise<void>;
}

/** The background parts an application runs beside its routes, and the dependencies its routes share. */
interface Parts {
  log: Logger;
  secrets: SecretBox;
  channelHealth: ChannelHealthDeps;
  templateSync: ReturnType<typeof templateSyncDeps>;
  webhookInbox: WebhookInbox;
  dispatcher: Dispatcher;
  outbox: OutboxWorker;
  statistics: ReturnType<typeof createStatisticsRefresh>;
  routes: RouteDeps;
  webhookEndpoints: WebhookEndpointDeps;
}

/** The Fastify instance: request ids, log level of request lines, body limit, envelope for router errors. */
function createHttp(options: AppOptions, log: Logger) {
  const { config } = options;
  return Fastify({
    // Node cuts a request whose headers, or whole body, take too long (408); checked every second, not every 30 s.
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: config.httpHeadersTimeoutMs,
          requestTimeout: config.httpRequestTimeoutMs,
          keepAliveTimeout: config.httpKeepAliveTimeoutMs,
          connectionsCheckingInterval: 1000,
        },
        handler,
      ),
    loggerInstance: log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Per-request log lines only at debug/trace: at info they would double the log volume of a bulk send.
    logController: new LogController({
      requestIdLogLabel: 'trace_id',
      disableRequestLogging: options.config.logLevel !== 'debug' && options.config.logLevel !== 'trace',
    }),
    bodyLimit: 1024 * 1024,
    // Behind listed proxies request.ip is the client from X-Forwarded-For; every per-address limit counts by it.
    trustProxy: config.trustProxy.length > 0 ? config.trustProxy : false,
    // Router errors (a bad URL encoding, an over-long path parameter) get the envelope too.
    frameworkErrors: handleError,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();
}

/** Wires the engine: channel health, templates, the webhook inbox and its handlers, the dispatcher, the outbox. */
function createParts(options: AppOptions, log: Logger, secrets: SecretBox): Parts {
  const channelHealth: ChannelHealthDeps = {
    db: options.db,
    network: options.network,
    maxAgeMs: options.channelMaxAgeMs ?? 30_000,
    log,
    secrets,
  };
  const templates: TemplateDeps = {
    db: options.db,
    network: options.network,
    log,
    maxBodyParams: options.maxBodyParams ?? 4,
    nameCheckWindowSeconds: 3600,
    statusMaxAgeMs: options.templateStatusMaxAgeMs ?? 10_000,
    secrets,
  };
  const templateSync = templateSyncDeps(templates);
  // Whether this process is sending: the inbox holds status bodies meanwhile, so a message's statuses merge.
  const sendActivity = new SendActivity();
  const webhookInbox = new WebhookInbox({
    db: options.db,
    log,
    applyOnReceiptBudgetMs: options.config.webhookApplyBudgetMs,
    holdMs: options.config.webhookHoldMs,
    sendingUntil: () => sendActivity.until(),
    // PGlite runs every statement in the service's thread: a shorter transaction keeps reads waiting less. On
    // PostgreSQL the inbox's default (16 MB): a transaction spans more of the sending than a message's statuses do
    // (sent → read), so most merge.
    heldBatchBytes: options.dbKind === 'pglite' ? 250_000 : undefined,
    // PGlite's one connection runs one transaction at a time: lanes would only wait for each other.
    lanes: options.dbKind === 'pglite' ? 1 : options.config.webhookApplyLanes,
    handlers: {
      phone_number_quality_update: phoneQualityHandler(channelHealth, log),
      message_template_status_update: templateStatusHandler(log, templateSync),
      template_category_update: templateCategoryHandler(log, templateSync),
      message_template_components_update: templateComponentsHandler(templateSync),
      message_template_quality_update: templateQualityHandler(),
      // Statuses first (they lock message rows, then bulk sends: the lock order), then opt-out replies.
      messages: inSequence(messageStatusHandler(log), inboundMessageHandler(log, options.db)),
      user_id_update: userIdUpdateHandler(options.db, log),
      user_preferences: userPreferencesHandler(log),
    },
  });
  const dispatcher = new Dispatcher({
    db: options.db,
    network: options.network,
    log,
    health: channelHealth,
    options: options.dispatcher,
    owner: options.instanceId,
    exclusive: options.dbKind === 'pglite',
    handedOff: () => sendActivity.handedOff(),
  });
  const outbox = new OutboxWorker({
    db: options.db,
    poster: options.webhookPoster ?? createWebhookPoster({
      timeoutMs: options.outbox?.timeoutMs ?? 10_000,
      connectionsPerOrigin: options.outbox?.concurrencyPerEndpoint ?? 8,
    }),
    secrets,
    log: log.child({ component: 'client-webhooks' }),
    options: options.outbox,
    owner: options.instanceId ? `${options.instanceId}-outbox` : undefined,
    exclusive: options.dbKind === 'pglite',
  });
  const statistics = createStatisticsRefresh(() => analyzeMessages(options.db), log.child({ component: 'statistics' }));
  const routes: RouteDeps = {
    instance: { id: dispatcher.owner, sole: options.dbKind === 'pglite' },
    config: options.config,
    db: options.db,
    network: options.network,
    secrets,
    channelHealth,
    webhookInbox,
    templates,
    singleSend: { db: options.db, health: channelHealth, queued: (channelId) => dispatcher.wakeFor(channelId) },
    bulk: {
      db: options.db,
      health: channelHealth,
      batchSize: options.bulkBatchSize,
      duringStart: options.duringStart,
      started: () => dispatcher.wake(true),
      loaded: (rows) => statistics.loaded(rows),
      shapes: START_SHAPES,
    },
  };
  const webhookEndpoints: WebhookEndpointDeps = { db: options.db, secrets, queued: () => outbox.wake() };
  return { log, secrets, channelHealth, templateSync, webhookInbox, dispatcher, outbox, statistics, routes, webhookEndpoints };
}

/** The Prometheus metrics, including the client-webhook outbox's backlog (tms_outbox_* gauges). */
function createAppMetrics(options: AppOptions, parts: Parts, draining: () => boolean): Metrics {
  // PENDING deliveries, capped count and oldest age.
  const outboxBacklog = async (): Promise<OutboxBacklog> => {
    const backlog = await findPendingDeliveryBacklog(options.db, OUTBOX_PENDING_CAP);
    const age = (at: Date | null) => (at ? Math.max(0, (Date.now() - at.getTime()) / 1000) : null);
    const endpoints = (await findEndpointBacklogs(options.db, OUTBOX_PENDING_CAP)).map((e) => ({
      endpointId: e.endpoint_id,
      pending: e.pending,
      oldestAgeSeconds: age(e.oldest_pending_at),
      nextAttemptInSeconds: e.next_attempt_at ? (e.next_attempt_at.getTime() - Date.now()) / 1000 : null,
    }));
    return { pending: backlog.pending, oldestAgeSeconds: age(backlog.oldest_created_at), endpoints };
  };
  return createMetrics({
    db: options.db,
    poolStats: options.poolStats,
    webhooksRejected: () => parts.webhookInbox.rejected,
    webhookBodies: () => ({ appliedOnReceipt: parts.webhookInbox.appliedOnReceipt, storedFirst: parts.webhookInbox.storedFirst }),
    draining,
    outboxBacklog,
    cacheMs: options.metricsCacheMs,
  });
}

/** Registers the documentation, the probes, the webhook receiver, the console and both authenticated route families. */
async function registerRoutes(http: ReturnType<typeof createHttp>, options: AppOptions, parts: Parts, metrics: Metrics, draining: () => boolean): Promise<void> {
  const deps = parts.routes;
  const throttle = new FailureThrottle(options.config.authFailuresPerMinute);
  installErrorHandlers(http);
  http.addSchema(ErrorEnvelopeSchema);
  await http.register(swagger, openapiOptions('0.1.0'));
  await http.register(swaggerUi, { routePrefix: '/docs' });
  await http.register(opsRoutes, {
    db: options.db,
    metrics,
    metricsToken: options.config.metricsToken,
    draining,
    health: { database: options.dbKind, network: options.config.network, webhooksRejected: () => parts.webhookInbox.rejected },
  });
  await http.register(webhookRoutes, deps);
  if (options.consoleDir !== null) await http.register(consoleRoutes, { dir: options.consoleDir ?? DEFAULT_CONSOLE_DIR });
  await http.register(
    async (scope) => {
      requireAuth(scope, options.db, throttle);
      applyInputRules(scope);
      await scope.register(agentAppChannelRoutes, deps);
      await scope.register(agentAppTemplateRoutes, deps);
      await scope.register(agentAppSingleSendRoutes, deps);
      await scope.register(agentAppBulkSendRoutes, deps);
      await scope.register(agentAppBulkSendFileRoutes, deps);
      await scope.register(agentAppBulkSendLifecycleRoutes, deps);
    },
    { prefix: '/agent-app/message-template' },
  );
  await http.register(
    async (scope) => {
      requireAuth(scope, options.db, throttle);
      applyInputRules(scope);
      await scope.register(apiV1ChannelRoutes, deps);
      await scope.register(apiV1TemplateRoutes, deps);
      await scope.register(apiV1MediaRoutes, deps);
      await scope.register(apiV1MessageRoutes, deps);
      await scope.register(apiV1MeRoutes, deps);
      await scope.register(apiV1OptOutRoutes, deps);
      await scope.register(apiV1RateCardRoutes, deps);
      await scope.register(apiV1BulkSendRoutes, deps);
      await scope.register(apiV1SendStatsRoutes, deps);
      await scope.register(apiV1WebhookEndpointRoutes, { ...deps, webhookEndpoints: parts.webhookEndpoints });
    },
    { prefix: '/api/v1' },
  );
}

/** Builds the application. */
export async function buildApp(options: AppOptions): Promise<App> {
  const log = options.log ?? pino({ level: options.config.logLevel, redact: LOG_REDACT_PATHS });
  const secrets = options.secrets ?? createSecretBox(options.config.secretKey);
  const http = createHttp(options, log);
  const parts = createParts(options, log, secrets);
  const { webhookInbox, dispatcher, outbox, statistics, templateSync } = parts;
  let draining = false;
  const metrics = createAppMetrics(options, parts, () => draining);
  metrics.timeRequests(http);
  const stopBodyGuard = guardRequestBodies(http, {
    bodyIdleMs: options.config.httpBodyIdleTimeoutMs,
    maxUploads: options.config.httpMaxUploads,
    maxUploadsPerClient: options.config.httpMaxUploadsPerClient,
  });
  await registerRoutes(http, options, parts, metrics, () => draining);
  await http.ready();

  let stopTemplateSweep: (() => Promise<void>) | null = null;
  let closing: Promise<void> | null = null;
  return {
    http,
    webhookInbox,
    dispatcher,
    outbox,
    start: () => {
      webhookInbox.start();
      dispatcher.start();
      outbox.start();
      // Channels never synced (added by the CLI while the service was stopped) get their WABA's templates.
      stopTemplateSweep = startTemplateSyncSweep(templateSync, 2000);
    },
    draining: () => draining,
    close: () => {
      draining = true;
      closing ??= (async () => {
        await dispatcher.stop();
        await stopTemplateSweep?.();
        await http.close();
        stopBodyGuard();
        await webhookInbox.stop();
        // After the dispatcher: its last moves may still add outbox rows (the next run delivers them).
        await outbox.stop();
        if (!options.webhookPoster) await outbox.closePoster();
        await statistics.idle();
      })();
      return closing;
    },
  };
}
