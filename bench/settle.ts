/**
 * Report reads while a large start settles: one service on PGlite or PostgreSQL; a small bulk send is stored first
 * (its report is what the reader reads while the large start runs), then a large start of N rows on the FLAGGED
 * channel (stored and queued, never sent) while a reader reads, one request at a time, back to back:
 * - during the start: the reports list and the small send's first detail page;
 * - after the start's answer, until its rows are all queued (`waiting` 0) and for `--tail` seconds more: the
 *   large send's first and last detail pages and the reports list.
 * Prints p50 / p99 / max of each phase, the time the rows took to be queued and the service's CPU seconds for the start.
 *
 * `npx tsx bench/settle.ts [--rows 1000000] [--db pglite|postgres] [--tail 10] [--built]`; part of `npm run bench` (scale).
 * `--built` runs the service as production does, from the build (`npm run build` first; NODE_ENV=production makes
 * `tms serve` run dist/, bin/tms.mjs); without it the service runs from src/ through tsx. `--cpu-prof DIR` writes
 * the service's V8 profile to DIR when it exits (PGlite's own work shows as WebAssembly frames).
 * The service gets the node flags of `npm start` (bench/lib/world.ts); `--without-start-flags` leaves them out.
 */
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { percentile, startBulk, wizardItem } from './lib/measure.js';
import { cpuSeconds, peakRssMb, startNodeFlags, startWorld, type World } from './lib/world.js';

const A = '/agent-app/message-template/send-wizard';

/** What one settle run measured. */
export interface SettleResult {
  database: 'pglite' | 'postgres';
  rows: number;
  acceptSeconds: number;
  /** CPU seconds the service used from the start's request to its answer (its reads' work included). */
  acceptCpuSeconds: number;
  /** The service's peak RSS before the large start (idle, after the small send), and over the whole run. */
  idleRssMb: number;
  /** From the start's answer until no row waits to be queued. */
  settleSeconds: number;
  peakRssMb: number;
  /** The service ran from the build (dist/), not through tsx. */
  built: boolean;
  /** The node flags the service ran with (those of `npm start` unless left out). */
  nodeFlags: string[];
  during: number[];
  after: number[];
  /** The slowest reads of each phase, slowest first: what they read and when they started. */
  slowest: { during: SlowRead[]; after: SlowRead[] };
}

/** One read among the slowest of a phase. */
export interface SlowRead {
  ms: number;
  read: string;
  /** When the read went out (ISO time, to match against the service's logs). */
  at: string;
}

/** Reads kept per phase in `slowest`. */
const SLOWEST = 10;

const stats = (sorted: number[]) =>
  sorted.length === 0 ? 'no reads' : `${sorted.length} reads, p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(0)} ms`;

/** The figures of a settle run as bench rows (scenario, setup, measured). */
export function settleRows(r: SettleResult): Array<[string, string, string]> {
  const setup = `${r.database}, ${r.rows} rows on the FLAGGED channel`;
  return [
    ['large start', setup, `accepted in ${r.acceptSeconds.toFixed(1)} s (${(r.rows / r.acceptSeconds).toFixed(0)} rows/s; service CPU ${r.acceptCpuSeconds.toFixed(1)} s); rows queued ${r.settleSeconds.toFixed(1)} s after the answer; service peak RSS ${r.peakRssMb} MB (${r.idleRssMb} MB before the start${r.built ? ', built' : ', through tsx'}, node flags: ${r.nodeFlags.join(' ') || 'none'})`],
    ['report reads while it settles', `${setup}, during the start`, stats(r.during)],
    ['report reads while it settles', `${setup}, after the answer until queued`, stats(r.after)],
  ];
}

/** A read of the loop, named for the slowest-reads list. */
interface NamedRead {
  name: string;
  read: () => Promise<unknown>;
}

/** Reads with one request in flight until `stop()` is true; latencies sorted, and the slowest reads. */
async function readLoop(world: World, reads: NamedRead[], stop: () => boolean): Promise<{ latencies: number[]; slowest: SlowRead[] }> {
  const latencies: number[] = [];
  let slowest: SlowRead[] = [];
  for (let i = 0; !stop(); i += 1) {
    const { name, read } = reads[i % reads.length];
    const at = new Date();
    const t = performance.now();
    // A connection the service closed as idle just as the request went out is tried again (counted in the latency).
    await read().catch((error: Error & { cause?: { code?: string } }) => {
      if (error.cause?.code !== 'ECONNRESET') throw error;
      return read();
    });
    const ms = performance.now() - t;
    latencies.push(ms);
    if (slowest.length < SLOWEST || ms > slowest[slowest.length - 1].ms) {
      slowest = [...slowest, { ms, read: name, at: at.toISOString() }].sort((a, b) => b.ms - a.ms).slice(0, SLOWEST);
    }
  }
  return { latencies: latencies.sort((a, b) => a - b), slowest };
}

/** One settle run in a world of its own. */
export async function settle(
  database: 'pglite' | 'postgres',
  rows: number,
  tailSeconds = 10,
  log: (line: string) => void = () => undefined,
  built = false,
  profileDir?: string,
  withoutStartFlags = false,
): Promise<SettleResult> {
  const world = await startWorld({
    database, instances: 1, simMps: null, channelMps: 1000, serviceEnv: built ? { NODE_ENV: 'production' } : undefined,
    serviceNodeArgs: profileDir ? ['--cpu-prof', '--cpu-prof-dir', profileDir] : [], withoutStartFlags,
  });
  try {
    const flagged = SIM_CHANNEL_IDS.flagged;
    const small = await startBulk(world, flagged, 2_000, 90581);
    const detail = (id: string, page: number) => async () => {
      const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 50 }, id });
      if (res.status !== 200 || res.body.data.report_details.length === 0) throw new Error(`detail ${res.status}`);
    };
    const list = async () => {
      const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 50, channel_id: flagged });
      if (res.status !== 200) throw new Error(`reports ${res.status}`);
    };
    const idleRssMb = await peakRssMb(world.services[0].child.pid!);
    let answered = false;
    const duringReads = readLoop(world, [{ name: 'list', read: list }, { name: 'small send, page 1', read: detail(small.id, 1) }], () => answered);
    duringReads.catch(() => undefined); // awaited below; a failure must not end the process before the world closes
    const servicePid = world.services[0].child.pid!;
    const cpuBefore = await cpuSeconds(servicePid);
    const big = await startBulk(world, flagged, rows, 90582).finally(() => (answered = true));
    const acceptCpuSeconds = (await cpuSeconds(servicePid)) - cpuBefore;
    const during = await duringReads;
    log(`${database}: ${rows} rows accepted in ${(big.acceptMs / 1000).toFixed(1)} s`);
    const lastPage = Math.ceil(rows / 50);
    let settledAt: number | null = null;
    let done = false;
    const afterReads = readLoop(
      world,
      [{ name: 'large send, page 1', read: detail(big.id, 1) }, { name: `large send, page ${lastPage}`, read: detail(big.id, lastPage) }, { name: 'list', read: list }],
      () => done,
    );
    afterReads.catch(() => undefined);
    const answeredAt = performance.now();
    for (;;) {
      const it = await wizardItem(world, big.id, flagged).catch(() => null);
      if (settledAt === null && it && it.waiting === 0) settledAt = performance.now();
      if (settledAt !== null && performance.now() - settledAt >= tailSeconds * 1000) break;
      if (performance.now() - answeredAt > 30 * 60_000) throw new Error('the large start did not settle in 30 minutes');
      await new Promise((r) => setTimeout(r, 250));
    }
    done = true;
    const after = await afterReads;
    return {
      database, rows, acceptSeconds: big.acceptMs / 1000, acceptCpuSeconds, settleSeconds: (settledAt - answeredAt) / 1000,
      idleRssMb, peakRssMb: await peakRssMb(world.services[0].child.pid!), built,
      nodeFlags: withoutStartFlags ? [] : startNodeFlags(), during: during.latencies, after: after.latencies,
      slowest: { during: during.slowest, after: after.slowest },
    };
  } catch (error) {
    log(`service output:\n${world.services[0]?.output().slice(-4000)}`);
    throw error;
  } finally {
    await world.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
  const databases = (arg('--db') ?? 'pglite,postgres').split(',') as Array<'pglite' | 'postgres'>;
  const rows = Number(arg('--rows') ?? 1_000_000);
  const tail = Number(arg('--tail') ?? 10);
  const built = process.argv.includes('--built');
  const profileDir = arg('--cpu-prof');
  const withoutStartFlags = process.argv.includes('--without-start-flags');
  (async () => {
    for (const database of databases) {
      const r = await settle(database, rows, tail, (line) => console.error(`[settle] ${line}`), built, profileDir, withoutStartFlags);
      for (const row of settleRows(r)) console.log(`| ${row.join(' | ')} |`);
      for (const phase of ['during', 'after'] as const) {
        console.error(`[settle] slowest reads ${phase}:`);
        for (const s of r.slowest[phase]) console.error(`[settle]   ${s.ms.toFixed(0)} ms  ${s.at}  ${s.read}`);
      }
    }
  })().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
