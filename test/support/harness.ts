/**
 * An end-to-end harness: a fresh database, the simulator on a loopback port, the Cloud API adapter
 * pointed at it, and the app listening on loopback (so the simulator's signed webhooks reach it).
 * Two companies: A owns the simulator's four channels, B owns one channel of its own.
 */
import pino from 'pino';
import { addChannel, createCompany } from '../../src/admin.js';
import { buildApp, type App, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { createCloudApiAdapter } from '../../src/network/cloud-api/adapter.js';
import type { NetworkPort } from '../../src/network/port.js';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { createSimulator } from '../../src/network/simulator/index.js';
import { createTestStore } from './db.js';

/** The test app secret (webhooks are signed with it). */
export const TEST_APP_SECRET = 'test-app-secret';
/** Company B's channel id (not known to the simulator). */
export const OTHER_CHANNEL_ID = '990000000000001';

type Simulator = ReturnType<typeof createSimulator>;

/** A running harness. */
export interface Harness {
  store: Awaited<ReturnType<typeof createTestStore>>;
  simulator: Simulator;
  simulatorUrl: string;
  network: NetworkPort;
  app: App;
  config: Config;
  appUrl: string;
  a: { companyId: string; token: string; tokenId: string };
  b: { companyId: string; token: string; tokenId: string };
  /** Calls the app in-process with an optional bearer token and JSON body. */
  call(method: string, url: string, options?: { token?: string | null; body?: unknown; headers?: Record<string, string> }): Promise<{
    status: number;
    body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
    headers: Record<string, unknown>;
  }>;
  close(): Promise<void>;
}

/** Starts a harness; pass simulator options through. */
export async function startHarness(
  simulatorOptions: Parameters<typeof createSimulator>[0] = {},
  appOptions: Partial<Pick<AppOptions, 'channelMaxAgeMs' | 'templateStatusMaxAgeMs' | 'maxBodyParams' | 'dispatcher' | 'instanceId' | 'consoleDir' | 'metricsCacheMs' | 'outbox' | 'bulkBatchSize' | 'duringStart'>> = {},
  /** Extra environment for loadConfig (e.g. METRICS_TOKEN). */
  env: Record<string, string> = {},
): Promise<Harness> {
  const store = await createTestStore();
  const log = pino({ level: 'silent' });
  const simulator = createSimulator({ log, ...simulatorOptions });
  const { url: simulatorUrl } = await simulator.start(0);
  const network = createCloudApiAdapter({ baseUrl: simulatorUrl, appId: SIM_APP_ID, timeoutMs: 3000, connections: 128 });
  const config = loadConfig({ APP_SECRET: TEST_APP_SECRET, WEBHOOK_VERIFY_TOKEN: 'test-verify', LOG_LEVEL: 'silent', ...env });
  const app = await buildApp({ config, db: store.db, dbKind: store.kind, network, log, poolStats: () => store.poolStats(), ...appOptions });
  await app.http.listen({ port: 0, host: '127.0.0.1' });
  const address = app.http.server.address();
  const appUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  simulator.setWebhookTarget(`${appUrl}/webhooks/whatsapp`, TEST_APP_SECRET);
  app.start();

  const secrets = createSecretBox(config.secretKey);
  const a = await createCompany(store.db, 'Company A');
  for (const channel of SIM_CHANNELS) {
    await addChannel(store.db, {
      companyId: a.companyId,
      phoneNumberId: channel.id,
      wabaId: SIM_WABA_ID,
      accessToken: SIM_ACCESS_TOKEN,
    }, secrets);
  }
  const b = await createCompany(store.db, 'Company B');
  await addChannel(store.db, { companyId: b.companyId, phoneNumberId: OTHER_CHANNEL_ID, wabaId: '990000000000000', accessToken: 'b-token' }, secrets);

  return {
    store,
    simulator,
    simulatorUrl,
    network,
    app,
    config,
    appUrl,
    a,
    b,
    async call(method, url, options = {}) {
      const token = options.token === undefined ? a.token : options.token;
      const headers: Record<string, string> = { ...(options.headers ?? {}) };
      if (token !== null) headers.authorization = `Bearer ${token}`;
      const response = await app.http.inject({
        method: method as 'GET',
        url,
        headers,
        ...(options.body === undefined ? {} : { payload: options.body as object }),
      });
      let body: unknown = response.body;
      try {
        body = response.json();
      } catch {
        /* not JSON */
      }
      return { status: response.statusCode, body, headers: response.headers };
    },
    async close() {
      await app.close();
      await simulator.stop();
      await network.close();
      await store.cleanup();
    },
  };
}

/** Calls a simulator admin endpoint (`/_sim/...`). */
export async function simAdmin(h: Harness, path: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const res = await fetch(`${new URL(h.simulatorUrl).origin}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`simulator ${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

/** Polls `check` until it returns a truthy value or the time runs out. */
export async function eventually<T>(check: () => Promise<T | undefined | null | false>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
