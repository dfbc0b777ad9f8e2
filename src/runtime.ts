/**
 * Runs the service: opens and migrates the database, starts the in-process simulator when NETWORK is
 * `simulator`, creates the Cloud API adapter, ensures the demo company, builds the app and listens.
 * Used by server.ts (`npm start`) and `tms serve`.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import v8 from 'node:v8';
import pino from 'pino';
import { ensureDemo } from './admin.js';
import { buildApp, LOG_REDACT_PATHS, type App } from './app.js';
import { DEFAULT_DISPATCHER_OPTIONS } from './engine/dispatcher.js';
import { gateDelayHook } from './engine/fault-gate-delay.js';
import { isLoopbackHost, type Config } from './config.js';
import { createSecretBox } from './domain/secret-box.js';
import { sealStoredTokens } from './engine/credentials.js';
import { removeLeftoverScratch } from './engine/scratch.js';
import type { DuringStart } from './engine/bulk-start.js';
import { traceStarts } from './engine/start-trace.js';
import { DEFAULT_CONSOLE_DIR } from './http/console.js';
import { createCloudApiAdapter } from './network/cloud-api/adapter.js';
import type { NetworkPort } from './network/port.js';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNELS, SIM_WABA_ID } from './network/simulator/constants.js';
import { createSimulator } from './network/simulator/index.js';
import { migrate, openDatabase, type Store } from './store/db.js';
import { whenStopRequested } from './stop-request.js';

/** A running service. */
export interface RunningService {
  url: string;
  demo?: { companyId: string; token: string; channelIds: string[] };
  simulatorUrl?: string;
  app: App;
  /**
   * Stops in order: the app (readiness 503, the dispatcher drains the sends in flight, HTTP closes, the webhook
   * inbox finishes), then the network client, the in-process simulator, and the database last.
   */
  stop(): Promise<void>;
}

/** How a shutdown ended: everything stopped in order, or the deadline passed first. */
export type ShutdownResult = 'drained' | 'deadline';

/**
 * Drains and stops a service within `timeoutMs`. Past the deadline it gives up waiting (the caller exits): rows
 * still claimed go back when their lease expires (another instance, or this one's next start, takes them), and a
 * send whose answer never came is settled by its status webhook or the reconciliation window — never resent.
 */
export async function shutdownService(service: RunningService, timeoutMs: number, log: Pick<Console, 'error'> = console): Promise<ShutdownResult> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<ShutdownResult>((resolve) => {
    timer = setTimeout(() => resolve('deadline'), timeoutMs);
  });
  const stopped = service.stop().then(
    () => 'drained' as const,
    (error: unknown) => {
      log.error(`tms: stopping failed: ${String(error)}`);
      return 'drained' as const;
    },
  );
  try {
    return await Promise.race([stopped, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Starts everything; the caller owns stop(). `heap`: the process's heap growth, changed while bulk starts run. */
export async function startService(config: Config, heap?: HeapGrowth): Promise<RunningService> {
  const log = pino({ level: config.logLevel, redact: LOG_REDACT_PATHS });
  if (config.network === 'simulator' && !isLoopbackHost(config.host)) {
    log.warn(
      { host: config.host },
      'TMS_ALLOW_PUBLIC_SIMULATOR=1: the service listens beyond this machine with a SIMULATED network and a printed demo token',
    );
  }
  const secrets = createSecretBox(config.secretKey);
  const store: Store = await openDatabase(
    config.databaseUrl ? { databaseUrl: config.databaseUrl } : { dataDir: config.dataDir },
    { statementTimeoutMs: config.dbStatementTimeoutSeconds * 1000 },
  );
  const stops: Array<() => Promise<void>> = [() => store.close()];
  try {
    const applied = await migrate(store.db);
    if (applied.length) log.info({ applied }, 'migrations applied');
    // A migration cannot see TMS_SECRET_KEY: channel tokens still stored in plaintext are sealed here.
    const sealed = await sealStoredTokens(store.db, secrets);
    if (sealed) log.info({ sealed }, 'channel access tokens sealed');
    // Uploads of a process killed mid-request left their scratch folders behind.
    const leftovers = await removeLeftoverScratch();
    if (leftovers.length) log.info({ removed: leftovers }, 'scratch folders of stopped processes removed');

    let graphUrl = config.graphApiUrl;
    let simulator: ReturnType<typeof createSimulator> | undefined;
    if (config.network === 'simulator') {
      // NUMBER_CHECK=contacts is a rehearsal: the in-process simulator then has the On-Premises contacts check.
      simulator = createSimulator({ log: log.child({ component: 'simulator' }), limits: { contactsCheck: config.numberCheck === 'contacts' } });
      const started = await simulator.start(0);
      graphUrl = started.url;
      stops.unshift(() => simulator!.stop());
      // Like a real new WABA, the demo's has Meta's hello_world sample template (imported by the first list).
      const seeded = await fetch(`${started.rootUrl}/_sim/waba-templates/hello_world`, { method: 'POST' });
      if (!seeded.ok) log.warn({ status: seeded.status }, 'the demo WABA could not get its hello_world template');
    }
    const network: NetworkPort = createCloudApiAdapter({
      baseUrl: graphUrl!,
      // A connection for each of one channel's sends in flight (DEFAULT_DISPATCHER_OPTIONS.concurrency: HTTP/1.1
      // carries one request at a time); the process's sends in flight, every channel together, are bounded too
      // (sendsInFlight), so a marked send waits for a connection behind a few hundred others at most.
      connections: DEFAULT_DISPATCHER_OPTIONS.concurrency,
      appId: config.metaAppId ?? (config.network === 'simulator' ? SIM_APP_ID : undefined),
    });
    stops.unshift(() => network.close());

    let demo: RunningService['demo'];
    if (config.network === 'simulator' || config.demoToken) {
      const channels =
        config.network === 'simulator'
          ? SIM_CHANNELS.map((c) => ({
              phoneNumberId: c.id,
              wabaId: SIM_WABA_ID,
              accessToken: SIM_ACCESS_TOKEN,
            }))
          : [];
      const ensured = await ensureDemo(store.db, { token: config.demoToken, channels, secrets });
      demo = { ...ensured, channelIds: channels.map((c) => c.phoneNumberId) };
    }

    const app = await buildApp({
      config,
      duringStart: heap?.duringStart,
      db: store.db,
      dbKind: store.kind,
      poolStats: () => store.poolStats(),
      network,
      log,
      secrets,
      dispatcher: {
        reconcileWindowSeconds: config.reconcileWindowSeconds,
        statusWaitSeconds: config.statusWaitSeconds,
        queueWaitSeconds: config.queueWaitSeconds,
        statusAlertSeconds: config.statusAlertSeconds,
        webhookRetentionSeconds: config.webhookRetentionSeconds,
        numberCheck: config.numberCheck,
        leaseSeconds: config.messageLeaseSeconds,
        handOffMarkDelayMs: config.handOffMarkDelayMs,
        ...(config.faultCrashAfterSend ? { afterNetworkAccept: () => process.kill(process.pid, 'SIGKILL') } : {}),
        ...(config.faultGateDelayMs > 0
          ? { beforeGate: gateDelayHook({ delayMs: config.faultGateDelayMs, every: config.faultGateDelayEvery, releaseFile: config.faultGateReleaseFile }, log.child({ component: 'fault' })) }
          : {}),
      },
      outbox: {
        timeoutMs: config.clientWebhookTimeoutMs,
        concurrencyPerEndpoint: config.clientWebhookConcurrency,
        retentionSeconds: config.clientWebhookRetentionSeconds,
        maxPendingPerEndpoint: config.clientWebhookMaxPending,
      },
    });
    stops.unshift(() => app.close());
    await app.http.listen({ port: config.port, host: config.host });
    const address = app.http.server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
    simulator?.setWebhookTarget(`${url}/webhooks/whatsapp`, config.appSecret);
    app.start();
    return {
      url,
      demo,
      simulatorUrl: graphUrl,
      app,
      stop: async () => {
        for (const stop of stops) await stop().catch((error) => log.error({ err: error }, 'stop failed'));
      },
    };
  } catch (error) {
    for (const stop of stops) await stop().catch(() => undefined);
    throw error;
  }
}

/** The V8 flag for a heap growth of `percent` (0 gives V8 back its own heuristics). */
export function heapGrowthFlag(percent: number): string {
  return `--heap-growing-percent=${percent}`;
}

/**
 * How far V8 lets the old generation grow past its live size before the next full collection (the figures are in
 * the README's "Memory"). V8 reads the factor at every full collection, so the process sets it at run time, in
 * `npm start`, `tms serve` and `node dist/server.js` alike, and changes it while bulk starts run:
 * - while one checks and stores its rows, the small `starting` growth: a large start's garbage outlives young
 *   collections and would otherwise wait in the heap, raising its peak memory by a few hundred MB;
 * - otherwise the larger `steady` growth: the garbage of sending (requests, answers and statuses that wait their
 *   turn on a busy machine) outlives young collections too, and at the small growth full collections came about
 *   once a second and took a fifth of the service's CPU.
 * Unlike a heap limit, neither can make the process run out of memory: a small factor only makes full collections
 * more frequent (more GC CPU), a large one lets more garbage wait.
 */
export class HeapGrowth {
  private starts = 0;

  constructor(
    private readonly percent: { steady: number; starting: number },
    private readonly setFlags: (flags: string) => void = (flags) => v8.setFlagsFromString(flags),
  ) {}

  /** Sets the steady growth (at start). */
  apply(): void {
    this.setFlags(heapGrowthFlag(this.percent.steady));
  }

  /** Runs a bulk start's work at the starting growth (the steady one comes back when no start is left). */
  readonly duringStart: DuringStart = async (work) => {
    if (this.starts++ === 0) this.setFlags(heapGrowthFlag(this.percent.starting));
    try {
      return await work();
    } finally {
      if (--this.starts === 0) this.setFlags(heapGrowthFlag(this.percent.steady));
    }
  };
}

/** Runs until SIGINT/SIGTERM (or the end of the npm/npx command that started it), printing where the service is and how to call it. */
export async function runService(config: Config): Promise<void> {
  const heap = new HeapGrowth({ steady: config.heapGrowthPercent, starting: config.startHeapGrowthPercent });
  heap.apply();
  traceStarts(config.traceStart);
  const service = await startService(config, heap);
  const lines = [
    '',
    `Template Messaging Service listening on ${service.url}`,
    `  web console:   ${service.url}/  (sign in with an API token${existsSync(join(DEFAULT_CONSOLE_DIR, 'index.html')) ? '' : '; NOT BUILT: run npm run build:console'})`,
    `  API docs:      ${service.url}/docs`,
    `  network:       ${config.network}${service.simulatorUrl ? ` (${service.simulatorUrl})` : ''}`,
    `  database:      ${config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`}`,
  ];
  if (config.network === 'simulator' && !isLoopbackHost(config.host)) {
    lines.push(
      '',
      `WARNING: NETWORK=simulator on the non-loopback HOST ${config.host} (TMS_ALLOW_PUBLIC_SIMULATOR=1): anyone who can`,
      '  reach this address can use a fake network and the demo token printed below. Never do this on a shared network.',
    );
  }
  if (service.demo) {
    lines.push(
      `  demo company:  ${service.demo.companyId}`,
      `  demo token:    ${service.demo.token}`,
      `  demo channels: ${service.demo.channelIds.join(', ') || '(none)'}`,
      '',
      'Try:',
      `  curl -H 'Authorization: Bearer ${service.demo.token}' ${service.url}/api/v1/channels`,
    );
    if (service.demo.channelIds[0]) {
      lines.push(
        `  curl -H 'Authorization: Bearer ${service.demo.token}' '${service.url}/api/v1/message-templates/waba-status?channel_id=${service.demo.channelIds[0]}'`,
      );
    }
  }
  console.log(lines.join('\n') + '\n');
  const signal = await whenStopRequested();
  // A second signal while draining stops waiting at once (the same guarantees as the deadline).
  const again = () => {
    console.error('tms: second signal: exiting without waiting for the drain');
    process.exit(1);
  };
  process.once('SIGINT', again);
  process.once('SIGTERM', again);
  const started = Date.now();
  console.error(`tms: ${signal}: draining (readiness 503, sends in flight finish; at most ${config.shutdownTimeoutMs} ms)`);
  const result = await shutdownService(service, config.shutdownTimeoutMs);
  if (result === 'deadline') {
    console.error(`tms: the drain passed SHUTDOWN_TIMEOUT_MS (${config.shutdownTimeoutMs} ms): exiting; claimed rows return when their lease expires`);
    process.exit(1);
  }
  console.error(`tms: stopped in ${Date.now() - started} ms`);
  process.exit(0);
}
