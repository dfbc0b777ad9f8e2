/**
 * Where a start's time goes: one PostgreSQL service with TMS_TRACE_START=1 (it writes each step of a start with its
 * time and CPU to stderr, engine/start-trace.ts), `--starts` starts of `--rows` rows one after another on the
 * FLAGGED channel (stored and queued, never sent; `--channel main` sends them at 1,000 mps). Prints each start's
 * steps, then each step's median time from the client's request, the service's CPU between steps, and the CPU of
 * the service and of PostgreSQL's backends per start. `--cpu-prof DIR` writes the service's V8 profile to DIR.
 *
 * `npx tsx bench/start-trace.ts [--rows 50000] [--starts 5] [--channel main|flagged] [--cpu-prof DIR]`
 */
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { startBulk } from './lib/measure.js';
import { startWorld } from './lib/world.js';
import { CpuMeter } from './lib/cost.js';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const rows = Number(arg('rows', '50000'));
const starts = Number(arg('starts', '5'));
const channel = arg('channel', 'flagged') === 'main' ? SIM_CHANNEL_IDS.main : SIM_CHANNEL_IDS.flagged;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const profDir = arg('cpu-prof', '');
const world = await startWorld({
  database: 'postgres', instances: 1, simMps: null, channelMps: 1000, serviceEnv: { TMS_TRACE_START: '1' },
  ...(profDir ? { serviceNodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`] } : {}),
});
try {
  const service = world.services[0];
  const steps = new Map<string, number[]>();
  const accepts: number[] = [];
  const cpu: Array<{ service: number; postgres: number | null }> = [];
  const cpuAt = new Map<string, number[]>();
  for (let k = 0; k < starts; k += 1) {
    const wall0 = performance.timeOrigin + performance.now();
    const meter = await CpuMeter.start([service.child.pid!], world.simulator.child.pid!, world.dbEnv.DATABASE_URL);
    const started = await startBulk(world, channel, rows, 70000 + k);
    const use = await meter.stop();
    cpu.push(use);
    // The steps after the answer (the service writes `answer sent` once it is out).
    await new Promise((r) => setTimeout(r, 200));
    accepts.push(started.acceptMs);
    // This start's lines: those written after its request went out (the output keeps only its last 20k characters).
    const lines = service.output().split('\n').filter((l) => l.startsWith('trace ') && Number(l.split(' ').at(-1)) >= wall0);
    const seen = new Map<string, number>();
    for (const l of lines) {
      const m = /^trace (.+) (\d+\.\d) (\d+\.\d)$/.exec(l);
      if (!m) continue;
      let label = m[1].replace(/^copy \d+$/, 'copy');
      const cpuMs = Number(m[2]);
      // Repeated labels (one COPY per batch): the first and the last.
      const n = (seen.get(label) ?? 0) + 1;
      seen.set(label, n);
      if (n > 1) label = `${label} (last)`;
      const at = Number(m[3]) - wall0;
      if (!cpuAt.has(label)) cpuAt.set(label, []);
      if (n <= 2) cpuAt.get(label)!.push(cpuMs);
      else cpuAt.get(label)![cpuAt.get(label)!.length - 1] = cpuMs;
      if (!steps.has(label)) steps.set(label, []);
      const list = steps.get(label)!;
      if (n > 2) list[list.length - 1] = at;
      else list.push(at);
    }
    console.log(`start ${k + 1}: ${started.acceptMs.toFixed(0)} ms, CPU service ${(use.service * 1000).toFixed(0)} ms, PostgreSQL ${((use.postgres ?? 0) * 1000).toFixed(0)} ms: ${lines.map((l) => l.split(' ').slice(1, -2).join(' ') + '@' + (Number(l.split(' ').at(-1)) - wall0).toFixed(0)).join(', ')}`);
  }
  console.log(`\nmedian over ${starts} starts of ${rows} rows: ms from the request, the service's CPU ms since the previous step`);
  let prevCpu: number[] | null = null;
  for (const [label, at] of [...steps].sort((a, b) => median(a[1]) - median(b[1]))) {
    const c = cpuAt.get(label)!;
    const step = prevCpu ? median(c.map((v, i) => v - prevCpu![i])) : NaN;
    prevCpu = c;
    console.log(`  ${label.padEnd(24)} ${median(at).toFixed(1).padStart(8)} ${Number.isNaN(step) ? '' : step.toFixed(1).padStart(8)}`);
  }
  console.log(`  CPU per start: service ${median(cpu.map((u) => u.service * 1000)).toFixed(0)} ms, PostgreSQL backends ${median(cpu.map((u) => (u.postgres ?? 0) * 1000)).toFixed(0)} ms`);
  console.log(`  ${'answer (client)'.padEnd(24)} ${median(accepts).toFixed(1)}`);
} finally {
  await world.close();
}
