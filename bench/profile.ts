/**
 * Where the time goes: one `tms serve` on a fresh PostgreSQL database (caps off) sends one bulk send of
 * N rows while
 * - the service runs with `--cpu-prof` (V8's sampling profiler; the profile is written when it exits), summarised
 *   as self time by function and by package, and
 * - the database's active sessions are sampled from `pg_stat_activity` every 10 ms (the statement each busy
 *   backend is running, and what it waits on): the share of samples per statement is its share of the
 *   database's busy time (pg_stat_statements needs shared_preload_libraries, which the shared server lacks).
 *
 * `npx tsx bench/profile.ts [--rows 30000] [--top 25]`; prints markdown.
 *
 * `--start-only` profiles a start alone (N rows on the FLAGGED channel, to the start's answer).
 *
 * `--channels N` splits the rows over N numbers, caps off, one bulk send on each started together: with
 * `--channels 20 --rows 50000` it profiles the service side of the 20-number run of bench/versus-naive.ts.
 *
 * `--built` runs the service from the build, as production does (`npm run build` first; NODE_ENV=production makes
 * `tms serve` run dist/); without it the service runs from src/ through tsx, which adds its own work to every
 * function it names at run time.
 *
 * `--ingestion N` profiles the webhook path alone: after the send, N duplicate `read` status events for its
 * messages are posted in bodies of 100, 8 at a time (the ingestion bench of bench/run.ts); the database samples,
 * CPU, rows written and the service's profile then cover the ingestion only (the profiler is started and stopped
 * around it by SIGUSR2, bench/lib/profile-window.mjs). `--keep FILE` keeps the service's .cpuprofile (for DevTools).
 * The window also counts the service's garbage collections; with `--heap` it samples its allocations too (bytes by
 * allocating function; the allocation sampler slows the service, so the rate and CPU of such a run are not compared).
 *
 * `--singles N` profiles single sends alone, the same way: after the send, N single-messagev2 POSTs, 32 in flight
 * (the singles bench of bench/run.ts), timed to the last answer; CPU per request includes the bench process's own
 * (the client), and the database's commits per request (`pg_stat_database.xact_commit`, the sampler's left out).
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../src/network/simulator/constants.js';
import { CpuMeter, cpuPerMessage, settledTableWrites, tableWrites, writesPerMessage } from './lib/cost.js';
import { allRows, load, machine, percentile, singleSends, startBulk, waitForSettledSend, waitUntil, wizardItem } from './lib/measure.js';
import { signWebhookBody } from '../src/domain/webhook-signature.js';
import { startWorld } from './lib/world.js';
import { benchChannels } from './versus-naive.js';

const arg = (name: string, fallback: number) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const ROWS = arg('--rows', 30_000);
const TOP = arg('--top', 25);
const INGESTION = arg('--ingestion', 0);
const SINGLES = arg('--singles', 0);
/** The service's profile covers one phase (the ingestion, the single sends), not the process's life. */
const WINDOWED = INGESTION > 0 || SINGLES > 0;
/** `--start-only`: the start alone: N rows on the FLAGGED channel (stored and queued, never sent), to the start's answer. */
const START_ONLY = process.argv.includes('--start-only');
/** `--built`: the service runs from dist/ (NODE_ENV=production), not through tsx. */
const BUILT = process.argv.includes('--built');
/** `--heap`: the window also samples the service's allocations (ingestion and singles only). */
const HEAP = process.argv.includes('--heap');
/**
 * `--channels N`: the rows are split over N numbers, caps off, one bulk send on each, all started together (the
 * 20-number run of bench/versus-naive.ts with `--channels 20 --rows 50000`); the send's profile only.
 */
const CHANNELS = arg('--channels', 1);
const PER_CHANNEL = ROWS / CHANNELS;
if (!Number.isInteger(PER_CHANNEL)) throw new Error('--rows must be a multiple of --channels');
if (CHANNELS > 1 && (WINDOWED || START_ONLY)) throw new Error('--channels profiles a send: not with --ingestion, --singles or --start-only');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code lives: a package under node_modules, node's own code, or the project's file. */
function placeOf(url: string): string {
  if (!url) return '(native / V8)';
  if (url.startsWith('node:')) return 'node:' + url.slice(5).split('/')[0];
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const parts = url.slice(nm + 13).split('/');
    return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
  }
  const src = url.indexOf('/src/');
  return src >= 0 ? url.slice(src + 1) : url;
}

/** Self time (ms) by function and by place, and the total sampled. */
function summarise(profile: CpuProfile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000));
  const byFunction = new Map<string, number>();
  const byPlace = new Map<string, number>();
  let total = 0;
  for (const [id, ms] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    total += ms;
    if (functionName === '(idle)') continue;
    const place = placeOf(url);
    const key = `${functionName || '(anonymous)'} — ${place}${url && !url.startsWith('node:') ? `:${lineNumber + 1}` : ''}`;
    byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    byPlace.set(place, (byPlace.get(place) ?? 0) + ms);
  }
  const idle = [...self].filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)').reduce((a, [, ms]) => a + ms, 0);
  const sort = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  return { byFunction: sort(byFunction), byPlace: sort(byPlace), total, idle };
}

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  id: number;
  children: HeapNode[];
}
interface HeapProfile {
  head: HeapNode;
}

/** Allocated bytes by allocating function (each node's selfSize: V8 scales its samples to an estimate of bytes). */
function summariseHeap(profile: HeapProfile) {
  const byFunction = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapNode) => {
    const { functionName, url, lineNumber } = n.callFrame;
    const key = `${functionName || '(anonymous)'} — ${placeOf(url)}${url && !url.startsWith('node:') ? `:${lineNumber + 1}` : ''}`;
    if (n.selfSize > 0) byFunction.set(key, (byFunction.get(key) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk(profile.head);
  return { byFunction: [...byFunction].sort((a, b) => b[1] - a[1]), total };
}

/** A statement's text made comparable: whitespace collapsed, literals lists kept short, cut at 110 characters. */
function shapeOf(query: string): string {
  return query.replace(/\s+/g, ' ').replace(/'[^']*'/g, "'…'").trim().slice(0, 110);
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'tms-prof-'));
  process.env.TMS_PROFILE_DIR = dir;
  const world = await startWorld({
    database: 'postgres', instances: 1, simMps: null, channelMps: 100_000, extraChannels: CHANNELS - 1,
    serviceNodeArgs: WINDOWED ? ['--import', new URL('./lib/profile-window.mjs', import.meta.url).pathname] : ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    serviceEnv: { ...(BUILT ? { NODE_ENV: 'production' } : {}), ...(HEAP ? { TMS_HEAP_PROFILE: '1' } : {}) },
  });
  let statements = new Map<string, number>();
  let waits = new Map<string, number>();
  let samples = 0;
  let activeSamples = 0;
  let ingestionSeconds = 0;
  let singles = { seconds: 0, p50: 0, p99: 0, clientCpu: 0, commits: 0 };
  let sampling = true;
  const servicePid = world.services[0].child.pid!;
  let seconds = 0;
  let use;
  let writes;
  try {
    const pgUrl = world.dbEnv.DATABASE_URL;
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    const sampler = (async () => {
      const own = (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
      while (sampling) {
        const { rows } = await client.query<{ query: string; wait: string | null }>(
          `select query, wait_event_type || ':' || wait_event as wait from pg_stat_activity
           where datname = current_database() and state = 'active' and pid <> $1`, [own]);
        samples += 1;
        for (const r of rows) {
          activeSamples += 1;
          const shape = shapeOf(r.query);
          statements.set(shape, (statements.get(shape) ?? 0) + 1);
          const w = r.wait ?? 'CPU (no wait event)';
          waits.set(w, (waits.get(w) ?? 0) + 1);
        }
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    let before = await tableWrites(pgUrl);
    let meter = await CpuMeter.start([servicePid], world.simulator.child.pid!, pgUrl);
    const channels = START_ONLY ? [SIM_CHANNEL_IDS.flagged] : benchChannels(CHANNELS);
    const sends = await Promise.all(channels.map((channel, i) => startBulk(world, channel, PER_CHANNEL, 90577 + i)));
    const started = sends[0];
    let seen = started.startedAt + started.acceptMs;
    if (!START_ONLY) {
      for (const [i, send] of sends.entries()) {
        seen = await waitUntil(async () => {
          const it = await wizardItem(world, send.id, channels[i]);
          return it && it.seen_count + it.failed_count >= PER_CHANNEL;
        }, 30 * 60_000);
      }
    }
    // The window measured after the send opens once the send has settled (its last status webhooks applied).
    if (WINDOWED) await waitForSettledSend(world, started.id, ROWS, 120_000);
    if (INGESTION > 0) {
      // The webhook path alone: what the send cost is dropped, the ingestion's is measured.
      await meter.stop();
      const rows = await allRows(world, started.id, ROWS);
      const wamids = rows.map((r) => r.webhook_response?.id).filter(Boolean) as string[];
      const bodies: string[] = [];
      for (let k = 0; k < INGESTION; k += 100) {
        const statuses = Array.from({ length: 100 }, (_, j) => ({ id: wamids[(k + j) % wamids.length], status: 'read', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '1' }));
        bodies.push(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value: { statuses } }] }] }));
      }
      before = await settledTableWrites(pgUrl);
      statements = new Map();
      waits = new Map();
      samples = 0;
      activeSamples = 0;
      meter = await CpuMeter.start([servicePid], world.simulator.child.pid!, pgUrl);
      process.kill(servicePid, 'SIGUSR2');
      const t0 = performance.now();
      await load(bodies.length, 8, async (i) => {
        const res = await fetch(`http://127.0.0.1:${world.ports[0]}/webhooks/whatsapp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(bodies[i], 'bench-secret') },
          body: bodies[i],
        });
        if (res.status !== 200) throw new Error(`webhook ${res.status}`);
      });
      const applied = await waitUntil(async () => {
        const health = (await (await fetch(`http://127.0.0.1:${world.ports[0]}/health`)).json()) as { webhook_events: Record<string, number> };
        return (health.webhook_events.RECEIVED ?? 0) === 0;
      }, 600_000, 50);
      ingestionSeconds = (applied - t0) / 1000;
      process.kill(servicePid, 'SIGUSR2');
      await waitUntil(async () => readdirSync(dir).some((f) => f.startsWith('window.')), 60_000, 100);
    }
    if (SINGLES > 0) {
      // The single sends alone: what the bulk send cost is dropped (its webhooks are over: every row is seen).
      await meter.stop();
      const commits = async () => Number((await client.query<{ n: string }>('select xact_commit as n from pg_stat_database where datname = current_database()')).rows[0].n);
      before = await settledTableWrites(pgUrl);
      statements = new Map();
      waits = new Map();
      samples = 0;
      activeSamples = 0;
      const commits0 = await commits();
      meter = await CpuMeter.start([servicePid], world.simulator.child.pid!, pgUrl);
      process.kill(servicePid, 'SIGUSR2');
      const { latencies, totalMs, clientCpu } = await singleSends(world, SINGLES, 32);
      process.kill(servicePid, 'SIGUSR2');
      singles = {
        seconds: totalMs / 1000, p50: percentile(latencies, 50), p99: percentile(latencies, 99), clientCpu, commits: (await commits()) - commits0 - samples,
      };
      await waitUntil(async () => readdirSync(dir).some((f) => f.startsWith('window.')), 60_000, 100);
    }
    use = await meter.stop();
    seconds = (seen - started.startedAt) / 1000;
    sampling = false;
    await sampler;
    await client.end();
    writes = writesPerMessage(before, await settledTableWrites(pgUrl), SINGLES > 0 ? SINGLES : INGESTION > 0 ? INGESTION : ROWS);
  } finally {
    sampling = false;
    await world.close();
  }
  const file = readdirSync(dir).find((f) => (WINDOWED ? f.startsWith('window.') : f.includes(`.${servicePid}.`)));
  if (!file) throw new Error(`no profile of ${servicePid} in ${dir}: ${readdirSync(dir).join(', ')}`);
  const prof = summarise(JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile);
  if (process.argv.includes('--keep')) copyFileSync(join(dir, file), process.argv[process.argv.indexOf('--keep') + 1]);
  const windowFile = (prefix: string) => (WINDOWED ? readdirSync(dir).find((f) => f.startsWith(prefix)) : undefined);
  const gcFile = windowFile('gc.');
  const gc = gcFile ? (JSON.parse(readFileSync(join(dir, gcFile), 'utf8')) as Record<string, { count: number; ms: number }>) : undefined;
  const heapFile = windowFile('heap.');
  const heap = heapFile ? summariseHeap(JSON.parse(readFileSync(join(dir, heapFile), 'utf8')) as HeapProfile) : undefined;
  if (heapFile && process.argv.includes('--keep')) copyFileSync(join(dir, heapFile), process.argv[process.argv.indexOf('--keep') + 1].replace(/\.cpuprofile$/, '') + '.heapprofile');
  rmSync(dir, { recursive: true, force: true });

  const pct = (n: number, of: number) => `${((100 * n) / of).toFixed(1)} %`;
  const busy = prof.total - prof.idle;
  const out = [
    `Profiled by \`npx tsx bench/profile.ts --rows ${ROWS}${CHANNELS > 1 ? ` --channels ${CHANNELS}` : ''}${BUILT ? ' --built' : ''}\` on ${new Date().toISOString().slice(0, 10)}, ${machine()}.`,
    SINGLES > 0
      ? `${ROWS} rows sent, then ${SINGLES} single sends, 32 in flight, in ${singles.seconds.toFixed(1)} s (${(SINGLES / singles.seconds).toFixed(0)} req/s, p50 ${singles.p50.toFixed(1)} ms, p99 ${singles.p99.toFixed(1)} ms); CPU per request: ${cpuPerMessage(use!, SINGLES)}, client (the bench process) ${((singles.clientCpu * 1000) / SINGLES).toFixed(3)} ms; commits per request ${(singles.commits / SINGLES).toFixed(2)}; rows written per request ${writes!.total.toFixed(2)} (${writes!.byTable.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')}). Database samples and the service's profile: while the single sends ran (their sends and webhooks included as far as they ran meanwhile).`
      : INGESTION > 0
      ? `${ROWS} rows sent, then ${INGESTION} duplicate read events posted in bodies of 100 (8 in flight) and applied in ${ingestionSeconds.toFixed(1)} s (${(INGESTION / ingestionSeconds).toFixed(0)} events/s); CPU per event: ${cpuPerMessage(use!, INGESTION)}; rows written per event ${writes!.total.toFixed(3)} (${writes!.byTable.map(([t, n]) => `${t} ${n.toFixed(3)}`).join(', ')}). Database samples: the ingestion only.`
      : START_ONLY
      ? `${ROWS} rows started on the FLAGGED channel (stored, not sent), answered in ${seconds.toFixed(1)} s (${(ROWS / seconds).toFixed(0)} rows/s); CPU per row: ${cpuPerMessage(use!, ROWS)}; rows written per row ${writes!.total.toFixed(2)}.`
      : `${CHANNELS > 1 ? `${CHANNELS} numbers, caps off, ${PER_CHANNEL} rows each, started together: ` : ''}${ROWS} rows to the last BACKEND_SEEN in ${seconds.toFixed(1)} s (${(ROWS / seconds).toFixed(0)} msg/s); CPU per message: ${cpuPerMessage(use!, ROWS)}; rows written per message ${writes!.total.toFixed(2)} (${writes!.byTable.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')}).`,
    '',
    `**Service CPU profile** (V8 sampling, ${SINGLES > 0 ? 'while the single sends ran' : INGESTION > 0 ? 'the ingestion only' : 'whole process life'}; ${(busy / 1000).toFixed(1)} s busy of ${(prof.total / 1000).toFixed(1)} s): self time by package or file`,
    '',
    '| place | self time | share of busy |',
    '|---|---|---|',
    ...prof.byPlace.slice(0, 15).map(([p, ms]) => `| ${p} | ${(ms / 1000).toFixed(2)} s | ${pct(ms, busy)} |`),
    '',
    'Top functions by self time:',
    '',
    '| function | self time | share of busy |',
    '|---|---|---|',
    ...prof.byFunction.slice(0, TOP).map(([f, ms]) => `| ${f.replace(/\|/g, '\\|')} | ${(ms / 1000).toFixed(2)} s | ${pct(ms, busy)} |`),
    '',
    ...(gc
      ? [
          `**Garbage collections** in the same window (${WINDOWED && INGESTION > 0 ? `per 1,000 events: ${Object.entries(gc).map(([k, v]) => `${k} ${((1000 * v.count) / INGESTION).toFixed(2)}, ${((1000 * v.ms) / INGESTION).toFixed(2)} ms`).join('; ')}` : ''}):`,
          '',
          '| kind | count | pause ms |',
          '|---|---|---|',
          ...Object.entries(gc).map(([k, v]) => `| ${k} | ${v.count} | ${v.ms.toFixed(1)} |`),
          '',
        ]
      : []),
    ...(heap
      ? [
          `**Allocations sampled** (TMS_HEAP_PROFILE=1, V8's sampling heap profiler, one sample per 32 KiB on average, collected objects included; about ${(heap.total / 1048576).toFixed(0)} MiB allocated${INGESTION > 0 ? `, ${((heap.total / INGESTION) | 0)} bytes per event` : ''}): bytes by allocating function (self)`,
          '',
          '| function | MiB | share |',
          '|---|---|---|',
          ...heap.byFunction.slice(0, TOP).map(([f, b]) => `| ${f.replace(/\|/g, '\\|')} | ${(b / 1048576).toFixed(1)} | ${pct(b, heap.total)} |`),
          '',
        ]
      : []),
    `**PostgreSQL active sessions** (${samples} samples of pg_stat_activity every ~10 ms; ${activeSamples} busy-backend samples, on average ${(activeSamples / samples).toFixed(2)} backends busy): statements by share of busy samples`,
    '',
    '| statement (start) | share |',
    '|---|---|',
    ...[...statements].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([q, n]) => `| \`${q.replace(/\|/g, '\\|')}\` | ${pct(n, activeSamples)} |`),
    '',
    'What the busy backends waited on:',
    '',
    '| wait | share |',
    '|---|---|',
    ...[...waits].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([w, n]) => `| ${w} | ${pct(n, activeSamples)} |`),
  ].join('\n');
  console.log(out);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
