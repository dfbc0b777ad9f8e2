/**
 * The simulator's HTTP server: a Graph API look-alike on 127.0.0.1 (fastify), with the fault knobs and the
 * token check in front of every Graph route, Graph-shaped errors everywhere, and `/_sim/...` admin routes.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { SIM_GRAPH_VERSION } from './constants.js';
import type { SimContext } from './context.js';
import { NetworkEvents } from './events.js';
import type { GraphErrorBody } from '../port.js';
import { GraphFailure, invalidParameter, objectNotFound, somethingWentWrong, unknownPath } from './graph-errors.js';
import { registerAdminRoutes } from './routes/admin.js';
import { registerTokenRoutes, SimTokens } from './routes/admin-tokens.js';
import { registerAdminTemplateRoutes } from './routes/admin-templates.js';
import { registerContactRoutes } from './routes/contacts.js';
import { registerInboundRoutes } from './routes/inbound.js';
import { registerMessageRoutes } from './routes/messages.js';
import { registerNodeRoutes } from './routes/nodes.js';
import { registerPhoneNumberRoutes } from './routes/phone-numbers.js';
import { registerRequestLogRoutes } from './routes/request-log.js';
import { registerTemplateRoutes } from './routes/templates.js';
import { registerUploadRoutes } from './routes/uploads.js';
import { registerUserRoutes } from './routes/users.js';
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

/** The path of a URL without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/** Whether a Graph error says the path or object does not exist (2500, or 100 with subcode 33). */
function isUnknownPath(error: GraphErrorBody | undefined): boolean {
  return error !== undefined && (error.code === 2500 || (error.code === 100 && error.error_subcode === 33));
}

/**
 * Graph serves every path with or without a version (`/v23.0/{id}` and `/{id}` alike): an unversioned path is
 * served as the default version. A first segment that is not `vN.M` (such as `v1` of `/v1/contacts`) is an
 * object id, as Graph reads it; only the rehearsal-only contacts check, when enabled, keeps `/v1/contacts`.
 */
function rewriteGraphUrl(url: string, contactsCheck: boolean): string {
  if (url.startsWith('/_sim/') || url === '/_sim') return url;
  if (/^\/v\d+\.\d+(?:[/?]|$)/.test(url)) return url;
  if (contactsCheck && pathOf(url) === '/v1/contacts') return url;
  return `/${SIM_GRAPH_VERSION}${url.startsWith('/') ? '' : '/'}${url}`;
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

  /** The Graph error each answered request carried (for the request log). */
  const answeredErrors = new WeakMap<FastifyRequest, GraphErrorBody>();
  /** Requests held by the timeout fault (logged when held, never answered). */
  const heldRequests = new WeakSet<FastifyRequest>();

  const tokens = new SimTokens();
  const app = Fastify({
    logger: false,
    forceCloseConnections: true,
    bodyLimit: 8 * 1024 * 1024,
    routerOptions: { maxParamLength: 2000 },
    rewriteUrl: (req) => rewriteGraphUrl(req.url ?? '/', world.limits.contactsCheck),
  });

  const logRequest = (req: FastifyRequest, status: number) => {
    const error = answeredErrors.get(req);
    world.logRequest({
      method: req.method,
      path: pathOf(req.originalUrl),
      status,
      ...(error ? { error_code: error.code } : {}),
      unknown_path: isUnknownPath(error),
    });
  };

  /** Answers a Graph failure and remembers its error for the request log. */
  const sendFailure = (req: FastifyRequest, reply: FastifyReply, failure: GraphFailure) => {
    answeredErrors.set(req, failure.error);
    return reply.code(failure.httpStatus).send(failure.body());
  };

  /** What Graph answers for a path no route serves: 100/33 for an object it does not have, else 2500. */
  const routeMiss = (req: FastifyRequest): GraphFailure => {
    const segments = pathOf(req.url).split('/').slice(2);
    const id = segments[0] ? decodeURIComponent(segments[0]) : '';
    if (id === '') return unknownPath(pathOf(req.originalUrl));
    if (segments.length === 1 || !world.hasObject(id)) return objectNotFound(req.method, id);
    return unknownPath('/' + segments.slice(1).join('/'));
  };

  /** Keeps a request unanswered until its client goes away or the simulator stops, then drops the socket. */
  async function hold(req: FastifyRequest, reply: FastifyReply): Promise<void> {
    heldRequests.add(req);
    logRequest(req, 0);
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
    if (req.method === 'POST' && /\/(marketing_)?messages(\?|$)/.test(req.url)) {
      // Counted from arrival (the injected latency included) until the answer is written or the connection closes.
      world.stats.sends_in_flight += 1;
      world.stats.sends_in_flight_peak = Math.max(world.stats.sends_in_flight_peak, world.stats.sends_in_flight);
      reply.raw.once('close', () => {
        world.stats.sends_in_flight -= 1;
      });
    }
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
    const refusal = tokens.refusal(tokenOf(req));
    if (refusal) throw refusal;
    if (world.prng.chance(f.errorRate)) {
      world.stats.injected_errors++;
      throw somethingWentWrong();
    }
  });

  app.addHook('onResponse', async (req, reply) => {
    if (req.originalUrl.startsWith('/_sim/') || heldRequests.has(req)) return;
    logRequest(req, reply.statusCode);
  });

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof GraphFailure) return sendFailure(req, reply, err);
    const { statusCode, message } = err as { statusCode?: number; message?: string };
    if (statusCode !== undefined && statusCode < 500) return sendFailure(req, reply, invalidParameter(String(message)));
    options.log?.error({ err }, 'simulator: unexpected error');
    return sendFailure(req, reply, somethingWentWrong());
  });
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/_sim/')) return reply.code(404).send(invalidParameter(`No simulator admin route ${pathOf(req.url)}`).body());
    // A route miss is answered after the token check, as Graph checks the token first.
    const refusal = tokens.refusal(tokenOf(req));
    if (refusal) return sendFailure(req, reply, refusal);
    return sendFailure(req, reply, routeMiss(req));
  });

  registerNodeRoutes(app, ctx);
  registerPhoneNumberRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerUploadRoutes(app, ctx);
  registerMessageRoutes(app, ctx);
  registerContactRoutes(app, ctx);
  registerAdminRoutes(app, ctx, setWebhookTarget);
  registerTokenRoutes(app, tokens);
  registerRequestLogRoutes(app, ctx);
  registerAdminTemplateRoutes(app, ctx);
  registerInboundRoutes(app, ctx);
  registerUserRoutes(app, ctx);

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
