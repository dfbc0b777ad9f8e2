/**
 * A bench world: the standalone simulator and N service instances as separate processes on loopback, on
 * PGlite (one instance) or a fresh PostgreSQL database, with the demo company, the simulator's channels and
 * an APPROVED template. Every process is stopped by its PID in close().
 */
import { readFileSync } from 'node:fs';
import { addChannel, DEMO_COMPANY_ID } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { migrate, openDatabase, type Store } from '../../src/store/db.js';
import { freePort, serviceApi, serviceDatabase, simulatorApi, startTms, tmsJson, waitForHttp, type Proc } from '../../test/support/processes.js';
import { sendableComponents } from '../../test/support/sending.js';

const SECRET = 'bench-secret';
/** The demo token of bench services. */
export const BENCH_TOKEN = 'bench-demo-token-0123456789abcdef';

/** Options of a bench world. */
export interface WorldOptions {
  database: 'pglite' | 'postgres';
  instances: number;
  /** Simulator throughput cap (null = off). */
  simMps: number | null;
  /** The main channel's throughput in the service (the network allows up to 1,000; benches lift it to measure the engine). */
  channelMps: number;
  /** Extra environment of the service processes (e.g. a short WEBHOOK_RETENTION_SECONDS for the soak). */
  serviceEnv?: Record<string, string>;
  /** Node options of the serve processes (e.g. `--cpu-prof`), after the flags `npm start` gives node. */
  serviceNodeArgs?: string[];
  /** Node options of the simulator process (e.g. a preloaded probe). */
  simulatorNodeArgs?: string[];
  /** Leave out the flags `npm start` gives node (to measure what they change); default false. */
  withoutStartFlags?: boolean;
  /** More CONNECTED/GREEN numbers in the WABA (ids `extraChannelId(i)`), each at `channelMps` in the service. */
  extraChannels?: number;
}

/**
 * The node flags of `npm start` (package.json), so a bench measures the service as users run it: V8 takes them from
 * the command line only, so `tms serve` would not have them otherwise.
 */
export function startNodeFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } };
  const flags = /^exec node ((?:--[\w-]+=\S+ )*)--import tsx /.exec(pkg.scripts.start)?.[1];
  if (flags === undefined) throw new Error(`package.json "start" is not "exec node [--flag=value ...] --import tsx ...": ${pkg.scripts.start}`);
  return flags.split(' ').filter(Boolean);
}

/** The phone number id of the i-th extra channel of a world. */
export const extraChannelId = (i: number) => `1200000000${String(i).padStart(5, '0')}`;

/** A running bench world. */
export interface World {
  ports: number[];
  simRoot: string;
  templateId: string;
  services: Proc[];
  simulator: Proc;
  dbEnv: Record<string, string>;
  api(method: string, path: string, body?: unknown, port?: number): Promise<{ status: number; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
  sim(path: string, body?: unknown): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  /** Runs `fn` on the world's database (PGlite: the services are stopped meanwhile and started again). */
  withDatabase(fn: (db: Store['db']) => Promise<void>): Promise<void>;
  close(): Promise<void>;
}

/** Starts a world. */
export async function startWorld(o: WorldOptions): Promise<World> {
  const database = await serviceDatabase(o.database);
  const ports = [await freePort()];
  for (let i = 1; i < o.instances; i += 1) ports.push(await freePort());
  const simPort = await freePort();
  const simulator = startTms(
    ['simulator', '--port', String(simPort), '--webhook-url', `http://127.0.0.1:${ports[0]}/webhooks/whatsapp`, '--app-secret', SECRET, '--approval-delay-ms', '50', '--mps', o.simMps === null ? 'off' : String(o.simMps)],
    {},
    o.simulatorNodeArgs,
  );
  const simRoot = `http://127.0.0.1:${simPort}`;
  const services: Proc[] = [];
  const env = {
    ...database.env,
    NETWORK: 'cloud',
    GRAPH_API_URL: `${simRoot}/v23.0`,
    APP_SECRET: SECRET,
    WEBHOOK_VERIFY_TOKEN: 'bench-verify',
    META_APP_ID: SIM_APP_ID,
    TMS_SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
    TMS_DEMO_TOKEN: BENCH_TOKEN,
    LOG_LEVEL: 'warn',
    ...o.serviceEnv,
  };
  const start = async (port: number) => {
    const nodeArgs = [...(o.withoutStartFlags ? [] : startNodeFlags()), ...(o.serviceNodeArgs ?? [])];
    const proc = startTms(['serve'], { ...env, PORT: String(port) }, nodeArgs);
    services.push(proc);
    await waitForHttp(`http://127.0.0.1:${port}/health`, proc, 300_000); // a loaded machine can take minutes
    return proc;
  };
  const api = serviceApi(BENCH_TOKEN, () => ports[0]);
  const sim = simulatorApi(simRoot);
  const close = async () => {
    for (const s of services) await s.kill('SIGTERM');
    await simulator.kill('SIGTERM');
    await database.cleanup();
  };
  try {
    await waitForHttp(`${simRoot}/_sim/stats`, simulator, 300_000);
    // First start creates the demo company; then the channels are added and the bench cap set while stopped.
    const first = await start(ports[0]);
    await first.kill('SIGTERM');
    services.length = 0;
    for (const id of [SIM_CHANNEL_IDS.main, SIM_CHANNEL_IDS.flagged]) {
      await tmsJson(['channel', 'add', '--company', DEMO_COMPANY_ID, '--phone-number-id', id, '--waba-id', SIM_WABA_ID, '--access-token', SIM_ACCESS_TOKEN], env);
    }
    const store = await openDatabase(database.env.DATABASE_URL ? { databaseUrl: database.env.DATABASE_URL } : { dataDir: database.env.DATA_DIR });
    await migrate(store.db);
    const extras = Array.from({ length: o.extraChannels ?? 0 }, (_, i) => extraChannelId(i));
    for (const id of extras) {
      const added = await simulatorApi(simRoot)('/_sim/channels', { id });
      if (!added.channel) throw new Error(`simulator channel ${id}: ${JSON.stringify(added)}`);
      await addChannel(store.db, { companyId: DEMO_COMPANY_ID, phoneNumberId: id, wabaId: SIM_WABA_ID, accessToken: SIM_ACCESS_TOKEN }, createSecretBox(env.TMS_SECRET_KEY));
    }
    // The override, not throughput_mps: a health read from the network would set throughput_mps back to the level's 80.
    await store.db.updateTable('channels').set({ throughput_mps: o.channelMps, throughput_override_mps: o.channelMps })
      .where('id', 'in', [SIM_CHANNEL_IDS.main, ...extras]).execute();
    await store.close();
    for (const port of ports) await start(port);
    const created = await api('POST', '/agent-app/message-template/template', {
      name: `bench_${Date.now()}`, category: 'MARKETING', language: 'en_US', components: sendableComponents(), channel_id: SIM_CHANNEL_IDS.main,
    });
    if (created.status !== 200) throw new Error(JSON.stringify(created.body));
    const templateId = created.body.data.id;
    for (let i = 0; ; i += 1) {
      const got = await api('GET', `/agent-app/message-template/template/get-by-id?template_id=${templateId}&channel_id=${SIM_CHANNEL_IDS.main}`);
      if (got.body.data?.message_template.status === 'APPROVED') break;
      if (i > 200) throw new Error('template not approved');
      await new Promise((r) => setTimeout(r, 50));
    }
    const withDatabase = async (fn: (db: Store['db']) => Promise<void>) => {
      const pglite = !database.env.DATABASE_URL;
      if (pglite) {
        for (const s of services.splice(0)) await s.kill('SIGTERM');
      }
      const handle = await openDatabase(pglite ? { dataDir: database.env.DATA_DIR } : { databaseUrl: database.env.DATABASE_URL });
      try {
        await fn(handle.db);
      } finally {
        await handle.close();
      }
      if (pglite) for (const port of ports) await start(port);
    };
    return { ports, simRoot, templateId, services, simulator, dbEnv: database.env, api, sim, withDatabase, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Peak resident memory of a process in MB (VmHWM). */
/** CPU seconds (user + system, all threads) a process has used so far (Linux /proc). */
export async function cpuSeconds(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces), from the state: utime and stime are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export async function peakRssMb(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises');
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}
