/**
 * The PGlite service rate at any size: one `tms serve` on a PGlite data directory, caps off, one bulk send of N rows,
 * timed from the start request to the last hand-off and to the last BACKEND_SEEN, with the CPU per message of the
 * service (PGlite runs inside it) and of the simulator. `bench/run.ts --only rates --db pglite` gives the target's
 * figure (100,000 rows, after the raw network rate); this one takes any size and can profile the service.
 *
 * `npx tsx bench/pglite-rate.ts [--rows 20000] [--cpu-prof DIR] [--env NAME=VALUE,...]`: `--cpu-prof` writes the
 * service's V8 profiles to DIR (one per `tms serve` the world starts: the last is the send's; PGlite's own work shows
 * as `wasm-function` frames and `@electric-sql/pglite`); `--env` adds variables to the service's environment.
 */
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { CpuMeter, cpuPerMessage } from './lib/cost.js';
import { startBulk, waitUntil, wizardItem } from './lib/measure.js';
import { startWorld } from './lib/world.js';

const argOf = (name: string) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined);
const ROWS = Number(argOf('--rows') ?? 20_000);
const PROFILE_DIR = argOf('--cpu-prof');
const serviceEnv = Object.fromEntries(
  (argOf('--env') ?? '').split(',').filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
);

const world = await startWorld({
  database: 'pglite',
  instances: 1,
  simMps: null,
  channelMps: 100_000,
  serviceEnv,
  serviceNodeArgs: PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [],
});
try {
  const meter = await CpuMeter.start([world.services[0].child.pid!], world.simulator.child.pid!);
  const started = await startBulk(world, SIM_CHANNEL_IDS.main, ROWS, 90571 + (ROWS % 97), 0);
  const handedOff = await waitUntil(async () => {
    const it = await wizardItem(world, started.id);
    return it && it.waiting === 0 && it.queued === 0;
  }, 60 * 60_000, 250);
  const seen = await waitUntil(async () => {
    const it = await wizardItem(world, started.id);
    return it && it.seen_count + it.failed_count >= ROWS;
  }, 60 * 60_000, 250);
  const use = await meter.stop();
  const seconds = (at: number) => (at - started.startedAt) / 1000;
  console.log(
    `pglite, ${ROWS} rows, caps off: start ${(started.acceptMs / 1000).toFixed(1)} s; ${(ROWS / seconds(handedOff)).toFixed(0)} msg/s to the last ` +
      `hand-off; ${(ROWS / seconds(seen)).toFixed(0)} msg/s to the last BACKEND_SEEN; CPU per message ${cpuPerMessage(use, ROWS)} over ${use.wall.toFixed(0)} s`,
  );
} finally {
  await world.close();
}
