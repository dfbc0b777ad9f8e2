/**
 * Assembles the HTTP application from its dependencies. Never listens (server.ts does) and opens nothing
 * (the caller hands in the database and the network), so tests build it with `inject`.
 */
import { randomUUID } from 'node:crypto';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import pino, { type Logger } from 'pino';
import type { Config } from './config.js';
import { createSecretBox, type SecretBox } from './domain/secret-box.js';
import { phoneQualityHandler } from './engine/channel-events.js';
import type { ChannelHealthDeps } from './engine/channel-health.js';
import { Dispatcher, type DispatcherOptions } from './engine/dispatcher.js';
import { messageStatusHandler } from './engine/status-events.js';
import { templateCategoryHandler, templateComponentsHandler, templateQualityHandler, templateStatusHandler } from './engine/template-events.js';
import { startTemplateSyncSweep } from './engine/template-sync.js';
import { templateSyncDeps, type TemplateDeps } from './engine/templates.js';
import { WebhookInbox } from './engine/webhook-inbox.js';
import { requireAuth } from './http/auth.js';
import type { RouteDeps } from './http/deps.js';
import { ErrorEnvelopeSchema } from './http/envelope.js';
import { handleError, installErrorHandlers } from './http/error-handler.js';
import { applyInputRules } from './http/input-rules.js';
import { familyAChannelRoutes } from './http/family-a/channels.js';
import { familyASendWizardRoutes } from './http/family-a/send-wizard.js';
import { familyASingleSendRoutes } from './http/family-a/single-send.js';
import { familyATemplateRoutes } from './http/family-a/templates.js';
import { familyBChannelRoutes } from './http/family-b/channels.js';
import { familyBMediaRoutes } from './http/family-b/media.js';
import { familyBMessageRoutes } from './http/family-b/messages.js';
import { familyBTemplateRoutes } from './http/family-b/templates.js';
import { webhookRoutes } from './http/webhooks/routes.js';
import type { NetworkPort } from './network/port.js';
import type { Database } from './store/schema.js';
import { countWebhookEventsByState } from './store/webhook-events.js';

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
}

/** The assembled application and the background parts its owner starts and stops. */
export interface App {
  http: FastifyInstance;
  webhookInbox: WebhookInbox;
  dispatcher: Dispatcher;
  /** Starts background work (webhook sweep, dispatcher). */
  start(): void;
  /** Stops background work and closes the HTTP server (not the database or network). */
  close(): Promise<void>;
}

/** Builds the application. */
export async function buildApp(options: AppOptions): Promise<App> {
  const log = options.log ?? pino({ level: options.config.logLevel, redact: LOG_REDACT_PATHS });
  const secrets = options.secrets ?? createSecretBox(options.config.secretKey);
  const http = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Per-request log lines only at debug/trace: at info they would double the log volume of a bulk send.
    logController: new LogController({
      requestIdLogLabel: 'trace_id',
      disableRequestLogging: options.config.logLevel !== 'debug' && options.config.logLevel !== 'trace',
    }),
    bodyLimit: 1024 * 1024,
    // Router errors (a bad URL encoding, an over-long path parameter) get the envelope too.
    frameworkErrors: handleError,
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

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
  const webhookInbox = new WebhookInbox({
    db: options.db,
    log,
    handlers: {
      phone_number_quality_update: phoneQualityHandler(channelHealth, log),
      message_template_status_update: templateStatusHandler(log, templateSync),
      template_category_update: templateCategoryHandler(log, templateSync),
      message_template_components_update: templateComponentsHandler(templateSync),
      message_template_quality_update: templateQualityHandler(),
      messages: messageStatusHandler(),
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
  });
  const deps: RouteDeps = {
    config: options.config,
    db: options.db,
    network: options.network,
    secrets,
    channelHealth,
    webhookInbox,
    templates,
    singleSend: { db: options.db, health: channelHealth, queued: () => dispatcher.wake() },
    bulk: { db: options.db, health: channelHealth, started: () => dispatcher.wake(true) },
  };

  installErrorHandlers(http);
  http.addSchema(ErrorEnvelopeSchema);
  await http.register(swagger, {
    openapi: {
      info: {
        title: 'Template Messaging Service',
        version: '0.1.0',
        description: 'WhatsApp template messaging: family A (/agent-app/message-template) and family B (/api/v1).',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  await http.register(swaggerUi, { routePrefix: '/docs' });

  http.get(
    '/health',
    {
      schema: {
        tags: ['service'],
        summary: 'Liveness and readiness: database reachable, webhook inbox counts',
        security: [],
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            status: Type.Literal('ok'),
            database: Type.String(),
            network: Type.String(),
            webhook_events: Type.Record(Type.String(), Type.Integer()),
            webhooks_rejected: Type.Integer({ description: 'webhook POSTs refused for their signature since this process started' }),
          }),
        },
      },
    },
    async () => {
      await sql`select 1`.execute(options.db);
      return {
        success: true as const,
        status: 'ok' as const,
        database: options.dbKind,
        network: options.config.network,
        webhook_events: await countWebhookEventsByState(options.db),
        webhooks_rejected: webhookInbox.rejected,
      };
    },
  );

  await http.register(webhookRoutes, deps);
  await http.register(
    async (scope) => {
      requireAuth(scope, options.db);
      applyInputRules(scope);
      await scope.register(familyAChannelRoutes, deps);
      await scope.register(familyATemplateRoutes, deps);
      await scope.register(familyASingleSendRoutes, deps);
      await scope.register(familyASendWizardRoutes, deps);
    },
    { prefix: '/agent-app/message-template' },
  );
  await http.register(
    async (scope) => {
      requireAuth(scope, options.db);
      applyInputRules(scope);
      await scope.register(familyBChannelRoutes, deps);
      await scope.register(familyBTemplateRoutes, deps);
      await scope.register(familyBMediaRoutes, deps);
      await scope.register(familyBMessageRoutes, deps);
    },
    { prefix: '/api/v1' },
  );
  await http.ready();

  let stopTemplateSweep: (() => Promise<void>) | null = null;
  return {
    http,
    webhookInbox,
    dispatcher,
    start: () => {
      webhookInbox.start();
      dispatcher.start();
      // Channels never synced (added by the CLI while the service was stopped) get their WABA's templates.
      stopTemplateSweep = startTemplateSyncSweep(templateSync, 2000);
    },
    close: async () => {
      await http.close();
      await dispatcher.stop();
      await stopTemplateSweep?.();
      await webhookInbox.stop();
    },
  };
}
