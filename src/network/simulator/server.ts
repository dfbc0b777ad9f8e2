/**
 * The simulator's HTTP server: a Graph API look-alike on 127.0.0.1 (fastify), with the fault knobs and the
 * token check in front of every Graph route, Graph-shaped errors everywhere, and `/_sim/...` admin routes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { SIM_ACCESS_TOKEN, SIM_GRAPH_VERSION } from './constants.js';
import type { SimContext } from './context.js';
import { NetworkEvents } from './events.js';
import { GraphFailure, invalidParameter, oauthError, somethingWentWrong, unknownPath } from './graph-errors.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerAdminTemplateRoutes } from './routes/admin-templates.js';
import { registerContactRoutes } from './routes/contacts.js';
import { registerMessageRoutes } from './routes/messages.js';
import { registerNodeRoutes } from './routes/nodes.js';
import { registerPhoneNumberRoutes } from './routes/phone-numbers.js';
import { registerTemplateRoutes } from './routes/templates.js';
import { registerUploadRoutes } from './routes/uploads.js';
import { Scheduler } from './scheduler.js';
import { WebhookSender } from './webhook-sender.js';
import { SimWorld, type SimulatorOptions } from './world.js';

/** A running (or ready) simulator. */
export interface Simulator {
  /** Listens on 127.0.0.1 (port 0 = any free port). `url` includes the version path, e.g. `…/v23.0`. */
  start(port?: number): Promise<{ url: string; rootUrl: string }>;
  /** Stops listening, drops held requests and clears every timer. */
  stop(): Promise<void>;
  /** The state, for in-process inspection and knobs. */
  world: SimWorld;
  /** Where webhooks go and the app secret that signs them (null stops sending). */
  setWebhookTarget(url: string | null, appSecret?: string): void;
}

function tokenOf(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  const m = typeof header === 'string' ? /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(header) : null;
  if (m) return m[1];
  return (req.query as { access_token?: string } | undefined)?.access_token;
}

/** Creates a simulator; nothing listens until `start`. */
export function createSimulator(options: SimulatorOptions = {}): Simulator {
  const world = new SimWorld(options);
  const sender = new WebhookSender(world, options.log, {
    batchSize: options.webhookBatchSize ?? 100,
    retryWindowMs: options.webhookRetryWindowMs ?? 5 * 60_000,
    concurrency: options.webhookConcurrency ?? 8,
  });
  const scheduler = new Scheduler(() => sender.flush());
  const events = new NetworkEvents(world, scheduler, sender);
  const ctx: SimContext = { world, scheduler, sender, events };
  const stopping = new AbortController();
  const held = new Set<() => void>();
  let pruneTimer: NodeJS.Timeout | null = null;
  let stopped = false;

  const setWebhookTarget = (url: string | null, appSecret?: string) => sender.setTarget(url, appSecret ?? options.appSecret ?? '');
  if (options.webhookUrl) setWebhookTarget(options.webhookUrl);

  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 8 * 1024 * 1024, routerOptions: { maxParamLength: 2000 } });

  /** Keeps a request unanswered until its client goes away or the simulator stops, then drops the socket. */
  async function hold(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.hijack();
    const socket = req.raw.socket;
    await new Promise<void>((resolve) => {
      const release = () => {
        held.delete(release);
        resolve();
      };
      held.add(release);
      socket.once('close', release);
    });
    socket.destroy();
  }

  app.addHook('onRequest', async (req, reply) => {
    if (req.url.startsWith('/_sim/')) return;
    const ver = (req.params as { ver?: string } | undefined)?.ver;
    if (ver !== undefined && !/^v\d+\.\d+$/.test(ver)) throw unknownPath(req.url.split('?')[0]);
    const f = world.faults;
    if (f.latencyMs > 0) await sleep(f.latencyMs, undefined, { signal: stopping.signal }).catch(() => undefined);
    if (world.prng.chance(f.timeoutRate)) {
      world.stats.injected_timeouts++;
      return hold(req, reply);
    }
    if (world.prng.chance(f.serverErrorRate)) {
      world.stats.injected_server_errors++;
      const code = world.prng.chance(0.5) ? 502 : 503;
      return reply.code(code).type('text/html').send(`<html><body><h1>${code} Service Unavailable</h1></body></html>`);
    }
    if (tokenOf(req) !== SIM_ACCESS_TOKEN) throw oauthError();
    if (world.prng.chance(f.errorRate)) {
      world.stats.injected_errors++;
      throw somethingWentWrong();
    }
  });

  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof GraphFailure) return reply.code(err.httpStatus).send(err.body());
    const { statusCode, message } = err as { statusCode?: number; message?: string };
    if (statusCode !== undefined && statusCode < 500) return reply.code(400).send(invalidParameter(String(message)).body());
    options.log?.error({ err }, 'simulator: unexpected error');
    return reply.code(500).send(somethingWentWrong().body());
  });
  app.setNotFoundHandler((req, reply) => reply.code(400).send(unknownPath(req.url.split('?')[0]).body()));

  registerNodeRoutes(app, ctx);
  registerPhoneNumberRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerContactRoutes(app, ctx);
  registerAdminRoutes(app, ctx, setWebhookTarget);
  registerAdminTemplateRoutes(app, ctx);

  return {
    world,
    setWebhookTarget,
    async start(port = 0) {
      await app.listen({ host: '127.0.0.1', port });
      const address = app.server.address();
      if (address === null || typeof address === 'string') throw new Error('simulator: no TCP address');
      pruneTimer = setInterval(() => world.prunePairLog(), 30_000);
      pruneTimer.unref();
      const rootUrl = `http://127.0.0.1:${address.port}`;
      return { url: `${rootUrl}/${SIM_GRAPH_VERSION}`, rootUrl };
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      stopping.abort();
      for (const release of [...held]) release();
      if (pruneTimer) clearInterval(pruneTimer);
      scheduler.stop();
      await sender.close();
      await app.close();
    },
  };
}
