/**
 * A world for crash tests: the standalone simulator and the service as separate processes (the service
 * started through `tms serve` as a user would), its database (PGlite directory or a fresh PostgreSQL
 * database), the demo company with the simulator's main channel, and an APPROVED template.
 */
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { DEMO_COMPANY_ID } from '../../src/admin.js';
import { freePort, serviceApi, serviceDatabase, simulatorApi, startTms, TEST_NODE_ARGS, tmsJson, waitForHttp, type Proc } from './processes.js';
import { sendableComponents } from './sending.js';

const SECRET = 'crash-test-secret';
/** The demo token every crash-test service uses. */
export const CRASH_TOKEN = 'crash-test-demo-token-0123456789';

/** A running crash world. */
export interface CrashWorld {
  simRoot: string;
  servicePort: number;
  templateId: string;
  env: Record<string, string>;
  startService(extra?: Record<string, string>, port?: number): Promise<Proc>;
  api(method: string, path: string, body?: unknown, port?: number): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  sim(path: string, body?: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  close(): Promise<void>;
}

/** Polls until `check` is truthy. */
export async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs: number, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Builds the world; `simArgs` go to `tms simulator`. */
export async function startCrashWorld(simArgs: string[] = [], serviceEnv: Record<string, string> = {}): Promise<CrashWorld> {
  const database = await serviceDatabase(undefined, { migrated: true });
  const servicePort = await freePort();
  const simPort = await freePort();
  const running: Proc[] = [];
  const simulator = startTms(
    ['simulator', '--port', String(simPort), '--webhook-url', `http://127.0.0.1:${servicePort}/webhooks/whatsapp`, '--app-secret', SECRET, '--approval-delay-ms', '50', ...simArgs],
    {},
  );
  const simRoot = `http://127.0.0.1:${simPort}`;
  await waitForHttp(`${simRoot}/_sim/stats`, simulator);
  const env = {
    ...database.env,
    NETWORK: 'cloud',
    GRAPH_API_URL: `${simRoot}/v23.0`,
    APP_SECRET: SECRET,
    WEBHOOK_VERIFY_TOKEN: 'crash-verify',
    META_APP_ID: SIM_APP_ID,
    TMS_SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
    PORT: String(servicePort),
    TMS_DEMO_TOKEN: CRASH_TOKEN,
    LOG_LEVEL: 'warn',
    RECONCILE_WINDOW_SECONDS: '20',
    ...serviceEnv,
  };
  const startService = async (extra: Record<string, string> = {}, port = servicePort) => {
    const proc = startTms(['serve'], { ...env, PORT: String(port), ...extra }, [...TEST_NODE_ARGS]);
    running.push(proc);
    await waitForHttp(`http://127.0.0.1:${port}/health`, proc);
    return proc;
  };
  const api = serviceApi(CRASH_TOKEN, () => servicePort);
  const sim = simulatorApi(simRoot);
  const close = async () => {
    for (const proc of running) await proc.kill();
    await simulator.kill('SIGTERM');
    await database.cleanup();
  };
  try {
    let service = await startService();
    await service.kill('SIGTERM');
    await tmsJson(['channel', 'add', '--company', DEMO_COMPANY_ID, '--phone-number-id', SIM_CHANNEL_IDS.main, '--waba-id', SIM_WABA_ID, '--access-token', SIM_ACCESS_TOKEN], env);
    service = await startService();
    const created = await api('POST', '/agent-app/message-template/template', {
      name: `crash_${Date.now()}`, category: 'MARKETING', language: 'en_US', components: sendableComponents(), channel_id: SIM_CHANNEL_IDS.main,
    });
    if (created.status !== 200) throw new Error(`template: ${JSON.stringify(created.body)}`);
    const templateId = created.body.data.id as string;
    await until(async () => {
      const got = await api('GET', `/agent-app/message-template/template/get-by-id?template_id=${templateId}&channel_id=${SIM_CHANNEL_IDS.main}`);
      return got.body.data?.message_template.status === 'APPROVED';
    }, 20_000, 'template approval');
    await service.kill('SIGTERM');
    return { simRoot, servicePort, templateId, env, startService, api, sim, close };
  } catch (error) {
    await close();
    throw error;
  }
}
