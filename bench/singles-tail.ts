/**
 * Where the slow single sends come from. Runs the single-send load of `bench/run.ts --only singles` (a fresh
 * one-instance PostgreSQL world, caps off, N single-messagev2 POSTs, 32 in flight, cold: the service's first requests)
 * with bench/lib/stall-probe.mjs in the service, the simulator and this process (the client), and prints
 * - the figure (req/s, p50, p99) as `run.ts` prints the cold one,
 * - the first waves: the requests 1–32, 33–64 and 65–96 (median and slowest of each), and how many of the slowest 1 %
 *   are among the first 64, which a fresh process pays for once,
 * - the slowest 1 % grouped into clusters (requests ending within 20 ms of each other), each with the event-loop
 *   stalls and GC pauses of each process while its slowest request ran.
 *
 * `--prime N` sends N single sends one at a time (other numbers) and waits 2 s before the load, so the load's first
 * waves no longer pay for the process's first executions of the path.
 *
 * `npx tsx bench/singles-tail.ts [--requests 5000] [--runs 1] [--prime 0]`
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { machine, percentile, singleSends } from './lib/measure.js';
import { startWorld } from './lib/world.js';

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const REQUESTS = arg('--requests', 5000);
const RUNS = arg('--runs', 1);
/** `--prime N`: N single sends one at a time, then 2 s, before the load: the fresh process's first executions paid. */
const PRIME = arg('--prime', 0);
const IN_FLIGHT = 32;
const PROBE_URL = new URL('./lib/stall-probe.mjs', import.meta.url);
const PROBE = PROBE_URL.pathname;
/** Requests ending within this of the previous slow one belong to its cluster. */
const CLUSTER_GAP_MS = 20;

interface Pause {
  role: string;
  kind: string;
  endedAt: number;
  ms: number;
}

/** Every stall and GC pause the probes wrote, by process role. */
function readPauses(dir: string): Pause[] {
  return readdirSync(dir).flatMap((f) => {
    const [role, ...lines] = readFileSync(join(dir, f), 'utf8').trim().split('\n');
    return lines.map((l) => {
      const [what, at, ms, gcKind] = l.split(' ');
      return { role, kind: what === 'gc' ? `gc ${gcKind}` : 'stall', endedAt: Number(at), ms: Number(ms) };
    });
  });
}

const describe = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${percentile(s, 50).toFixed(0)} ms, slowest ${s[s.length - 1].toFixed(0)} ms`;
};

/** One directory for every run: a run reads the pauses that ended while its requests ran. */
async function run(dir: string): Promise<void> {
  const world = await startWorld({
    database: 'postgres', instances: 1, simMps: null, channelMps: 100_000,
    serviceNodeArgs: ['--import', PROBE], simulatorNodeArgs: ['--import', PROBE],
  });
  try {
    if (PRIME) {
      await singleSends(world, PRIME, 1, '9057301');
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
    const { spans, startedAt, latencies, totalMs } = await singleSends(world, REQUESTS, IN_FLIGHT);
    const p99 = percentile(latencies, 99);
    console.log(`${REQUESTS} requests, ${IN_FLIGHT} in flight, cold: ${(REQUESTS / (totalMs / 1000)).toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms (load ${loadavg()[0].toFixed(1)})`);
    const took = spans.map((s) => s.end - s.start);
    for (let w = 0; w < 3; w += 1) console.log(`  wave ${w + 1} (requests ${w * IN_FLIGHT + 1}–${(w + 1) * IN_FLIGHT}): ${describe(took.slice(w * IN_FLIGHT, (w + 1) * IN_FLIGHT))}`);
    const slowCount = Math.ceil(REQUESTS / 100);
    const slowest = spans.map((s, i) => ({ ...s, i, ms: took[i] })).sort((a, b) => b.ms - a.ms).slice(0, slowCount);
    const early = slowest.filter((s) => s.i < 2 * IN_FLIGHT).length;
    const later = took.slice(2 * IN_FLIGHT).sort((a, b) => a - b);
    console.log(`  of the slowest 1 % (${slowCount}), ${early} are among the first ${2 * IN_FLIGHT}; p99 of the requests after them ${percentile(later, 99).toFixed(1)} ms`);
    const clusters: { end: number; n: number; ms: number }[] = [];
    for (const s of [...slowest].sort((a, b) => a.end - b.end)) {
      const c = clusters.at(-1);
      if (c && s.end - c.end < CLUSTER_GAP_MS) Object.assign(c, { end: s.end, n: c.n + 1, ms: Math.max(c.ms, s.ms) });
      else clusters.push({ end: s.end, n: 1, ms: s.ms });
    }
    const pauses = readPauses(dir);
    for (const c of clusters) {
      const [from, to] = [startedAt + c.end - c.ms, startedAt + c.end];
      const during = pauses.filter((p) => p.endedAt >= from && p.endedAt <= to + 5);
      const byRole = ['service', 'simulator', 'client'].map((role) => {
        const mine = during.filter((p) => p.role === role).map((p) => `${p.kind} ${p.ms.toFixed(0)}`);
        return `${role}: ${mine.length ? mine.join(', ') : '–'}`;
      });
      console.log(`  cluster ending at ${c.end.toFixed(0)} ms: ${c.n} requests, slowest ${c.ms.toFixed(0)} ms; pauses over 8 ms (stall) or 4 ms (gc) meanwhile: ${byRole.join('; ')}`);
    }
  } finally {
    await world.close();
  }
}

console.log(`bench/singles-tail.ts on ${new Date().toISOString().slice(0, 10)}, ${machine()}`);
const dir = mkdtempSync(join(tmpdir(), 'tms-stalls-'));
process.env.TMS_STALLS_DIR = dir;
await import(PROBE_URL.href); // this process: the client
try {
  for (let r = 0; r < RUNS; r += 1) await run(dir);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
process.exit(0);
