/**
 * The service against the naive sender (bench/naive-sender.ts: graphile-worker, one job a message, every status
 * stored on its row), in one run, one after the other, each against its own simulator process started with the
 * same settings (caps off, the same status timings and batching): `channels` numbers, one bulk send of `perChannel`
 * rows on each, all started together, timed from the first start request to the last `read` status applied.
 * CPU per message of each side (the sender process and its PostgreSQL backends) and rows written per message.
 *
 * `npx tsx bench/versus-naive.ts [--channels 20] [--per-channel 2500] [--runs 1] [--only service|naive] [--waits] [--built]`;
 * part of `npm run bench` (`naive`). `--built` runs the service from the build, as production does (`npm run build`
 * first; NODE_ENV=production makes `tms serve` run dist/); without it the service runs from src/ through tsx. The
 * simulators run through tsx either way, so the two sides face the same network. `--waits` samples the service's run for what it waits on (bench/lib/waits.ts: the
 * database's wait events and statements every 100 ms, the service's event-loop utilisation, pool waiters and HTTP
 * queue, and a timeline per second) and prints it to stderr; the sampling costs a little CPU, so compare such runs
 * with each other.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { createCloudApiAdapter } from '../src/network/cloud-api/adapter.js';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../src/network/simulator/constants.js';
import { freePort, serviceDatabase, simulatorApi, startNode, startTms, waitForHttp, type Proc } from '../test/support/processes.js';
import { sendableComponents } from '../test/support/sending.js';
import { CpuMeter, cpuPerMessage, settledTableWrites, tableWrites, writesPerMessage, type CpuUse } from './lib/cost.js';
import { startBulk, waitUntil, wizardItem } from './lib/measure.js';
import { WaitSampler } from './lib/waits.js';
import { extraChannelId, startWorld, type World } from './lib/world.js';

const SECRET = 'bench-secret';
const NAIVE_SENDER = new URL('./naive-sender.ts', import.meta.url).pathname;
const PROBE = new URL('./lib/waits-probe.mjs', import.meta.url).pathname;

/** One side's figures. */
export interface SideResult {
  rate: number;
  seconds: number;
  cpu: CpuUse;
  /**
   * The CPU used from the start until the rows written are counted, 11 s after the last read: with the work a
   * side does after its last read (such as hand-off marks written late), which `cpu` leaves out.
   */
  settledCpu: CpuUse;
  writes: string;
}

/** The bench's channels: the main one and `n - 1` extra ones (bench/lib/world.ts ids). */
export const benchChannels = (n: number) => [SIM_CHANNEL_IDS.main, ...Array.from({ length: n - 1 }, (_, i) => extraChannelId(i))];

/**
 * One bulk send of `perChannel` rows on each of `channels`, all started together (start i through `ports[i % n]`),
 * timed from the first start to the last BACKEND_SEEN (or failure) of all of them; CPU and rows written meanwhile.
 */
export async function sendOnChannels(
  world: World, channels: string[], perChannel: number, prefix: number, ports = world.ports, atEnd?: () => Promise<void>,
): Promise<SideResult> {
  const pgUrl = world.dbEnv.DATABASE_URL;
  const before = pgUrl ? await tableWrites(pgUrl) : null;
  const meter = await CpuMeter.start(world.services.map((s) => s.child.pid!), world.simulator.child.pid!, pgUrl);
  const t0 = performance.now();
  const sends = await Promise.all(channels.map((ch, i) => startBulk(world, ch, perChannel, prefix + i, 0, ports[i % ports.length])));
  for (const [i, s] of sends.entries()) {
    await waitUntil(async () => {
      const it = await wizardItem(world, s.id, channels[i]);
      return it && it.seen_count + it.failed_count >= perChannel;
    }, 30 * 60_000, 100);
  }
  const seconds = (performance.now() - t0) / 1000;
  const cpu = await meter.read();
  await atEnd?.();
  const total = channels.length * perChannel;
  const w = before && pgUrl ? writesPerMessage(before, await settledTableWrites(pgUrl), total) : null;
  const settledCpu = await meter.stop();
  return { rate: total / seconds, seconds, cpu, settledCpu, writes: w ? `${w.total.toFixed(2)} (${w.byTable.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')})` : '—' };
}

/** The naive sender on `channels` numbers: its own database and simulator, the same lists. */
export async function naiveOnChannels(channels: number, perChannel: number): Promise<SideResult> {
  const database = await serviceDatabase('postgres');
  const port = await freePort();
  const simPort = await freePort();
  const simulator = startTms(['simulator', '--port', String(simPort), '--webhook-url', `http://127.0.0.1:${port}/webhooks`, '--app-secret', SECRET, '--approval-delay-ms', '50', '--mps', 'off'], {});
  const simRoot = `http://127.0.0.1:${simPort}`;
  let naive: Proc | null = null;
  let meter: CpuMeter | null = null;
  try {
    await waitForHttp(`${simRoot}/_sim/stats`, simulator, 300_000);
    const ids = benchChannels(channels);
    for (const id of ids.slice(1)) await simulatorApi(simRoot)('/_sim/channels', { id });
    const net = createCloudApiAdapter({ baseUrl: `${simRoot}/v23.0`, appId: SIM_APP_ID });
    const creds = { phoneNumberId: SIM_CHANNEL_IDS.main, wabaId: SIM_WABA_ID, accessToken: SIM_ACCESS_TOKEN };
    const created = await net.createTemplate(creds, { name: 'naive_bench', language: 'en_US', category: 'MARKETING', components: sendableComponents() as never });
    await waitUntil(async () => (await net.getTemplate(creds, created.id)).status === 'APPROVED', 10_000, 20);
    await net.close();
    naive = startNode(['--import', 'tsx', NAIVE_SENDER, '--port', String(port), '--database-url', database.env.DATABASE_URL,
      '--graph-url', `${simRoot}/v23.0`, '--app-secret', SECRET, '--token', SIM_ACCESS_TOKEN]);
    await waitForHttp(`http://127.0.0.1:${port}/health`, naive, 300_000);
    const url = `http://127.0.0.1:${port}`;
    const before = await tableWrites(database.env.DATABASE_URL);
    meter = await CpuMeter.start([naive.child.pid!], simulator.child.pid!, database.env.DATABASE_URL);
    const t0 = performance.now();
    await Promise.all(ids.map(async (channel, c) => {
      const rows = Array.from({ length: perChannel }, (_, i) => ({ phone: `+${81200 + c}${String(i * 10 + 13).padStart(8, '0')}`, params: [`N${i}`, `C${i}`], button: `p${i}` }));
      const res = await request(`${url}/bulk`, { method: 'POST', body: JSON.stringify({ channel_id: channel, template: { name: 'naive_bench', language: 'en_US' }, rows }), headersTimeout: 600_000, bodyTimeout: 600_000 });
      if (res.statusCode !== 200) throw new Error(`naive bulk ${res.statusCode}: ${await res.body.text()}`);
      await res.body.dump();
    }));
    const total = channels * perChannel;
    await waitUntil(async () => {
      const p = (await (await fetch(`${url}/progress`)).json()) as Record<string, number>;
      return (p.read ?? 0) + (p.failed ?? 0) >= total;
    }, 30 * 60_000, 100);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = await meter.read();
    const w = writesPerMessage(before, await settledTableWrites(database.env.DATABASE_URL), total);
    const settledCpu = await meter.stop();
    meter = null;
    return { rate: total / seconds, seconds, cpu, settledCpu, writes: `${w.total.toFixed(2)} (${w.byTable.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')})` };
  } catch (error) {
    console.error(`naive sender output:\n${naive?.output().slice(-4000)}`);
    throw error;
  } finally {
    await meter?.stop().catch(() => undefined);
    await naive?.kill('SIGTERM');
    await simulator.kill('SIGTERM');
    await database.cleanup();
  }
}

/**
 * The service on the same lists: one instance on PostgreSQL, `channels` numbers uncapped. `waits`: the run is
 * sampled for what it waits on (bench/lib/waits.ts; the service preloads bench/lib/waits-probe.mjs) and the summary
 * is printed to stderr. `built`: the service runs from dist/.
 */
export async function serviceOnChannels(channels: number, perChannel: number, waits = false, built = false): Promise<SideResult> {
  const probeFile = waits ? join(mkdtempSync(join(tmpdir(), 'tms-waits-')), 'probe.jsonl') : undefined;
  const serviceEnv = { ...(probeFile ? { TMS_WAITS_FILE: probeFile } : {}), ...(built ? { NODE_ENV: 'production' } : {}) };
  const world = await startWorld({
    database: 'postgres', instances: 1, simMps: null, channelMps: 100_000, extraChannels: channels - 1, serviceEnv,
    ...(probeFile ? { serviceNodeArgs: ['--import', PROBE] } : {}),
  });
  try {
    const sampler = probeFile ? await WaitSampler.start(world.dbEnv.DATABASE_URL, world.simRoot, world.simulator.child.pid!, probeFile) : null;
    const result = await sendOnChannels(world, benchChannels(channels), perChannel, 81200, world.ports, async () => {
      if (sampler) console.error(`\n${await sampler.stop()}\n`);
    });
    return result;
  } finally {
    await world.close();
    if (probeFile) rmSync(dirname(probeFile), { recursive: true, force: true });
  }
}

/** CPU a message with the work after the last read: "with the 11 s after: PostgreSQL 0.21 ms, service 0.20 ms". */
export function settledLine(side: SideResult, messages: number): string {
  const ms = (s: number | null) => (s === null ? '—' : `${((s * 1000) / messages).toFixed(3)} ms`);
  return `with the 11 s after the last read: PostgreSQL ${ms(side.settledCpu.postgres)}, service ${ms(side.settledCpu.service)}, simulator ${ms(side.settledCpu.simulator)}`;
}

/** Bench rows of one service-vs-naive pair. */
export function versusRows(channels: number, perChannel: number, service: SideResult, naive: SideResult): Array<[string, string, string]> {
  const setup = `postgres, 1 instance, ${channels} channels caps off, ${channels * perChannel} rows (${perChannel} a channel), to the last read`;
  const total = channels * perChannel;
  return [
    ['service vs naive', setup, `service ${service.rate.toFixed(0)} msg/s ÷ naive ${naive.rate.toFixed(0)} msg/s = ${(service.rate / naive.rate).toFixed(2)} ×`],
    ['CPU per message', `${setup}, service`, `${cpuPerMessage(service.cpu, total)}; ${settledLine(service, total)}; rows written per message ${service.writes}`],
    ['CPU per message', `${setup}, naive sender`, `${cpuPerMessage(naive.cpu, total)}; ${settledLine(naive, total)}; rows written per message ${naive.writes}`],
  ];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
  const channels = arg('--channels', 20);
  const perChannel = arg('--per-channel', 2500);
  const runs = arg('--runs', 1);
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : 'both';
  (async () => {
    for (let r = 0; r < runs; r += 1) {
      const service = only === 'naive' ? null : await serviceOnChannels(channels, perChannel, process.argv.includes('--waits'), process.argv.includes('--built'));
      if (service) console.error(`[versus] service ${service.rate.toFixed(0)} msg/s, ${cpuPerMessage(service.cpu, channels * perChannel)}, rows ${service.writes}; ${settledLine(service, channels * perChannel)}`);
      const naive = only === 'service' ? null : await naiveOnChannels(channels, perChannel);
      if (naive) console.error(`[versus] naive ${naive.rate.toFixed(0)} msg/s, ${cpuPerMessage(naive.cpu, channels * perChannel)}, rows ${naive.writes}; ${settledLine(naive, channels * perChannel)}`);
      if (service && naive) for (const row of versusRows(channels, perChannel, service, naive)) console.log(`| ${row.join(' | ')} |`);
    }
  })().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
