/**
 * `npm run bench [-- --quick]`: the raw network rate, the service rate (PGlite, PostgreSQL with 1 instance), the
 * service against the naive sender on 20 channels, 3 instances vs 1, pacing, report reads while a large start
 * settles, and scale figures, all measured in this one run; prints the table and writes it as a dated log to
 * docs/history/ (--quick, smaller counts: benchmarks-quick-<date>.md). docs/benchmarks.md's targets table is kept by
 * hand from such runs. `--only naive,singles` runs only the named scenarios (names in SCENARIOS) and prints their
 * figures without writing a doc. `--singles-warmup N`: single sends run before the warm figure's requests (default 500).
 * `--graph-latency-ms N`: the top tier's sends are answered N ms late (the simulator's `latencyMs`), as Graph's are
 * over the internet, where the loopback simulator answers at once (default 0).
 */
import { writeFileSync } from 'node:fs';
import { sql } from 'kysely';
import pg from 'pg';
import { signWebhookBody } from '../src/domain/webhook-signature.js';
import { createCloudApiAdapter } from '../src/network/cloud-api/adapter.js';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../src/network/simulator/constants.js';
import { freePort, startTms, waitForHttp } from '../test/support/processes.js';
import { sendableComponents } from '../test/support/sending.js';
import { allRows, load, machine, percentile, singleSends, startBulk, waitForSettledSend, waitUntil, wizardItem } from './lib/measure.js';
import { extraChannelId, peakRssMb, startWorld, type World } from './lib/world.js';
import { CpuMeter, cpuPerMessage, settledTableWrites, tableWrites, writesPerMessage } from './lib/cost.js';
import { fileBench, fileBenchRows } from './file-start.js';
import { settle, settleRows } from './settle.js';
import { benchChannels, naiveOnChannels, sendOnChannels, serviceOnChannels, versusRows } from './versus-naive.js';
import { soak, writeSoakDoc } from './soak.js';

const QUICK = process.argv.includes('--quick');
/** `--skip soak,scale`: leave parts of the full form out (the doc says which). */
const SKIP = new Set(process.argv.includes('--skip') ? process.argv[process.argv.indexOf('--skip') + 1].split(',') : []);
/** Scenario names for `--only` / `--skip`. */
const SCENARIOS = ['raw', 'rates', 'top-tier', 'naive', 'ingestion', 'singles', 'many-channels', 'instances', 'pacing', 'settle', 'scale', 'soak'] as const;
const ONLY = process.argv.includes('--only') ? new Set(process.argv[process.argv.indexOf('--only') + 1].split(',')) : null;
for (const name of [...(ONLY ?? []), ...SKIP]) {
  if (!(SCENARIOS as readonly string[]).includes(name)) throw new Error(`unknown scenario ${name}; one of ${SCENARIOS.join(', ')}`);
}
/** `--db postgres` (or pglite): `--only ingestion` / `singles` take that database (default: both for ingestion, postgres for singles). */
const DB_ONLY = process.argv.includes('--db') ? process.argv[process.argv.indexOf('--db') + 1] : null;
/** Whether a scenario runs in this invocation (and, for one that takes a database, on this database). */
const runs = (name: (typeof SCENARIOS)[number], database?: 'pglite' | 'postgres') =>
  (ONLY ? ONLY.has(name) : !SKIP.has(name)) && (database === undefined || DB_ONLY === null || DB_ONLY === database);
const numberArg = (name: string) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : undefined);
const N = {
  raw: QUICK ? 10_000 : 100_000,
  service: QUICK ? 10_000 : 100_000,
  /** The smaller send of the size ratio (rate at `service` rows ÷ rate at `small` rows, one world). */
  small: QUICK ? 2_000 : 10_000,
  /** The main channel at the network's top tier (1,000 mps in the service and the simulator). */
  topTier: QUICK ? 5_000 : 50_000,
  /** The service against the naive sender: rows per channel on the 20 channels, caps off. */
  perChannelNaive: QUICK ? 250 : 2_500,
  /** Many channels at once: channels × rows per channel at 80 mps each. */
  channels: 20,
  perChannel: QUICK ? 240 : 2_400,
  /** 3 instances vs 1: rows per channel on the 20 channels, caps off. */
  perChannelUncapped: QUICK ? 500 : 5_000,
  pacing: QUICK ? 240 : 4_000,
  spreadRows: QUICK ? 60 : 1_000,
  spreadSeconds: QUICK ? 3 : 60,
  scale: QUICK ? 50_000 : 1_000_000,
  /** The smaller start of the start-time ratio (time at `scale` rows ÷ time at `scaleSmall` rows). */
  scaleSmall: QUICK ? 5_000 : 100_000,
  /** CSV start-file and report export (bench/file-start.ts). */
  fileRows: QUICK ? 20_000 : 1_000_000,
  wizards: 1_000,
  /** `--events N` overrides (a larger count gives a steadier figure when the scenario runs alone). */
  webhookEvents: numberArg('--events') ?? (QUICK ? 2_000 : 20_000),
  singles: QUICK ? 300 : 5_000,
  /** Single sends run before the warm figure's requests, in the same stream (`--singles-warmup N` overrides). */
  singlesWarmup: numberArg('--singles-warmup') ?? (QUICK ? 50 : 500),
  /** Rows sent first so the ingestion bench has real wamids. */
  ingestionRows: QUICK ? 1_000 : 2_000,
  /** Soak (full form only): one long uncapped send; `--rows N` overrides. */
  soakRows: process.argv.includes('--rows') ? Number(process.argv[process.argv.indexOf('--rows') + 1]) : 1_000_000,
};
/** `/metrics` of the main worlds' services (the ingestion figure reads how the bodies were taken). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789';
/** `--apply-budget MS`: WEBHOOK_APPLY_BUDGET_MS of the main worlds' services (0: webhook bodies stored first always). */
const SERVICE_ENV: Record<string, string> = {
  METRICS_TOKEN,
  ...(numberArg('--apply-budget') === undefined ? {} : { WEBHOOK_APPLY_BUDGET_MS: String(numberArg('--apply-budget')) }),
};
const CONCURRENCY = 64;
const main = SIM_CHANNEL_IDS.main;
const results: Array<[string, string, string]> = [];
/** The figures of the issue-11 targets table, filled in as the run measures them. */
const figures: Record<string, string> = {};
const log = (line: string) => console.error(`[bench] ${line}`);

function record(scenario: string, setup: string, figure: string): void {
  results.push([scenario, setup, figure]);
  log(`${scenario} | ${setup} | ${figure}`);
}

/** 1. The limit on this machine: the adapter's HTTP client posting template sends to the simulator, no database. */
async function rawNetworkRate(): Promise<number> {
  const port = await freePort();
  const sim = startTms(['simulator', '--port', String(port), '--approval-delay-ms', '10', '--mps', 'off'], {});
  try {
    await waitForHttp(`http://127.0.0.1:${port}/_sim/stats`, sim);
    const net = createCloudApiAdapter({ baseUrl: `http://127.0.0.1:${port}/v23.0`, appId: SIM_APP_ID, connections: CONCURRENCY });
    const creds = { phoneNumberId: main, wabaId: SIM_WABA_ID, accessToken: SIM_ACCESS_TOKEN };
    const created = await net.createTemplate(creds, { name: 'raw_bench', language: 'en_US', category: 'MARKETING', components: sendableComponents() as never });
    await waitUntil(async () => (await net.getTemplate(creds, created.id)).status === 'APPROVED', 10_000, 20);
    const components = [
      { type: 'body' as const, parameters: [{ type: 'text' as const, text: 'Ayse' }, { type: 'text' as const, text: 'CODE42' }] },
      { type: 'button' as const, sub_type: 'url', index: 0, parameters: [{ type: 'text' as const, text: 'p' }] },
    ];
    const { totalMs } = await load(N.raw, CONCURRENCY, async (i) => {
      await net.sendMessage(creds, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to: `+9057${String(i * 10 + 13).padStart(8, '0')}`,
        type: 'template',
        biz_opaque_callback_data: `raw-${i}`,
        template: { name: 'raw_bench', language: { code: 'en_US' }, components },
      });
    });
    await net.close();
    const rate = N.raw / (totalMs / 1000);
    record('raw network rate', `adapter → simulator, ${CONCURRENCY} in flight, no database`, `${N.raw} sends: ${rate.toFixed(0)} msg/s`);
    return rate;
  } finally {
    await sim.kill('SIGTERM');
  }
}

/**
 * 2. A bulk send with total_time 0 (the caps lifted, or at `channelMps`): to the last hand-off and to the last
 * BACKEND_SEEN. With `cost`, CPU per message per process and (PostgreSQL) rows written per message are sampled too.
 */
async function serviceRate(world: World, setup: string, raw: number, rows = N.service, cost = false): Promise<{ toSeen: number; toHandoff: number }> {
  const pgUrl = world.dbEnv.DATABASE_URL;
  const writesBefore = cost && pgUrl ? await tableWrites(pgUrl) : null;
  const meter = cost ? await CpuMeter.start(world.services.map((s) => s.child.pid!), world.simulator.child.pid!, pgUrl) : null;
  const started = await startBulk(world, main, rows, 90571 + (rows % 97), 0, world.ports[world.ports.length - 1]);
  const handed = await waitUntil(async () => {
    const it = await wizardItem(world, started.id);
    return it && it.waiting === 0 && it.queued === 0;
  }, 30 * 60_000);
  const seen = await waitUntil(async () => {
    const it = await wizardItem(world, started.id);
    return it && it.seen_count + it.failed_count >= rows;
  }, 30 * 60_000);
  const use = await meter?.stop();
  const toHandoff = rows / ((handed - started.startedAt) / 1000);
  const toSeen = rows / ((seen - started.startedAt) / 1000);
  // The rows are sent only once the start has stored them all (one transaction): the rate after the start's answer
  // is the sending itself, which a number's cap (at most 1,000 mps, the network's top tier) bounds.
  const afterStart = rows / ((seen - started.startedAt - started.acceptMs) / 1000);
  // The raw network rate is measured only in runs that include `raw`; `--only top-tier` has none to divide by.
  const ofRaw = (rate: number) => (Number.isFinite(raw) && raw > 0 ? ` (${(rate / raw).toFixed(2)} × raw)` : '');
  record('service rate', setup, `${rows} rows: start ${(started.acceptMs / 1000).toFixed(1)} s; ${toHandoff.toFixed(0)} msg/s to last SENT_TO_BACKEND${ofRaw(toHandoff)}; ${toSeen.toFixed(0)} msg/s to last BACKEND_SEEN${ofRaw(toSeen)}; after the start's answer ${afterStart.toFixed(0)} msg/s to last BACKEND_SEEN`);
  if (use) {
    record('CPU per message', `${setup}, ${rows} rows (start to last BACKEND_SEEN, /proc utime+stime)`, `${cpuPerMessage(use, rows)}; over ${use.wall.toFixed(0)} s`);
    figures[`cpu ${setup}`] = cpuPerMessage(use, rows);
  }
  if (writesBefore && pgUrl) {
    const w = writesPerMessage(writesBefore, await settledTableWrites(pgUrl), rows);
    record('rows written per message', `${setup}, ${rows} rows (pg_stat_user_tables inserts + updates + deletes)`, `${w.total.toFixed(2)}: ${w.byTable.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')}`);
    figures[`writes ${setup}`] = w.total.toFixed(2);
  }
  return { toSeen, toHandoff };
}

/**
 * Many channels at once: `N.channels` numbers at 80 mps each (the simulator enforces it with 130429), one bulk
 * send of `N.perChannel` rows per channel, all started together. Each channel's achieved rate ÷ its cap.
 */
async function manyChannels(): Promise<void> {
  const cap = 80;
  const world = await startWorld({ database: 'postgres', instances: 1, simMps: cap, channelMps: cap, extraChannels: N.channels - 1 });
  try {
    const channels = [main, ...Array.from({ length: N.channels - 1 }, (_, i) => extraChannelId(i))];
    const meter = await CpuMeter.start(world.services.map((s) => s.child.pid!), world.simulator.child.pid!, world.dbEnv.DATABASE_URL);
    const sends = await Promise.all(channels.map((ch, i) => startBulk(world, ch, N.perChannel, 80100 + i)));
    for (const [i, s] of sends.entries()) {
      await waitUntil(async () => (await wizardItem(world, s.id, channels[i]))?.status === 'COMPLETED', 20 * 60_000, 250);
    }
    const use = await meter.stop();
    const ratios: number[] = [];
    for (const s of sends) {
      const times = (await allRows(world, s.id, N.perChannel)).map((r) => Date.parse(r.backend_sended_time)).filter(Number.isFinite).sort((a, b) => a - b);
      ratios.push((times.length - 1) / ((times[times.length - 1] - times[0]) / 1000) / cap);
    }
    ratios.sort((a, b) => a - b);
    const refusals = (await world.sim('/_sim/stats')).refused_130429;
    const figure = `each channel's rate ÷ cap: min ${ratios[0].toFixed(3)}, median ${percentile(ratios, 50).toFixed(3)}, max ${ratios[ratios.length - 1].toFixed(3)}; 130429 refusals: ${refusals}`;
    record('many channels', `postgres, 1 instance, ${N.channels} channels at ${cap} mps, ${N.perChannel} rows each, started together`, figure);
    record('CPU per message', `postgres, ${N.channels} channels at ${cap} mps`, cpuPerMessage(use, N.channels * N.perChannel));
    figures['many channels'] = figure;
  } finally {
    await world.close();
  }
}

/**
 * 3 instances vs 1 on `N.channels` channels, caps off: one bulk send of `N.perChannelUncapped` rows per channel,
 * all started together (each start through a different instance), timed from the first start to the last
 * BACKEND_SEEN of all of them; the send leases are sampled meanwhile to show how the channels spread over the
 * instances. Returns the rate (msg/s) of each setup.
 */
async function instancesOnChannels(): Promise<void> {
  const rates: number[] = [];
  for (const instances of [1, 3]) {
    const world = await startWorld({ database: 'postgres', instances, simMps: null, channelMps: 100_000, extraChannels: N.channels - 1 });
    const setup = `postgres, ${instances} instance${instances > 1 ? 's' : ''}, ${N.channels} channels, caps off`;
    const total = N.channels * N.perChannelUncapped;
    const client = new pg.Client({ connectionString: world.dbEnv.DATABASE_URL });
    await client.connect();
    try {
      // Channels held per instance, sampled every 250 ms while the sends run (the most each instance held at once).
      const peak = new Map<string, number>();
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          const res = await client.query<{ owner: string; n: number }>("select owner, count(*)::int as n from channel_leases where lease_until > now() and owner not like 'handover:%' group by owner");
          for (const r of res.rows) peak.set(r.owner, Math.max(peak.get(r.owner) ?? 0, r.n));
          await new Promise((r) => setTimeout(r, 250));
        }
      })();
      const sent = await sendOnChannels(world, benchChannels(N.channels), N.perChannelUncapped, 81100).finally(() => (sampling = false));
      await sampler;
      const rate = sent.rate;
      const use = sent.cpu;
      const stats = await world.sim('/_sim/stats');
      const held = [...peak.values()].sort((a, b) => b - a);
      rates.push(rate);
      record('instances on channels', setup, `${total} rows (${N.perChannelUncapped} a channel): ${rate.toFixed(0)} msg/s to the last BACKEND_SEEN; channels held at most per instance: ${held.join('/')}; duplicate sends ${stats.duplicate_sends}`);
      record('CPU per message', `${setup} (start to last BACKEND_SEEN)`, cpuPerMessage(use, total));
    } finally {
      await client.end();
      await world.close();
    }
  }
  figures['instances on channels'] = `${(rates[1] / rates[0]).toFixed(2)} × (${rates[1].toFixed(0)} / ${rates[0].toFixed(0)} msg/s, ${N.channels} channels)`;
  log(`3 instances ÷ 1 on ${N.channels} channels, caps off: ${figures['instances on channels']}`);
}

/**
 * Single-send requests: `N.singles` POSTs of single-messagev2 to the first instance, 32 in flight, from this process;
 * with CPU per request of each process while they run (the service's sends and status webhooks of the messages
 * included, as far as they run meanwhile) and of this process, the client. The stream carries `N.singlesWarmup`
 * more requests first: two figures are printed from it, the first `N.singles` requests (cold: the service's first
 * requests of the channel, as without a warm-up) and the `N.singles` after the warm-up (warm).
 */
async function singles(world: World, setup: string): Promise<void> {
  const meter = await CpuMeter.start(world.services.map((s) => s.child.pid!), world.simulator.child.pid!, world.dbEnv.DATABASE_URL);
  const { latencies, totalMs: singleMs, warm, clientCpu } = await singleSends(world, N.singles, 32, undefined, N.singlesWarmup);
  const use = await meter.stop();
  const figure = (l: number[], ms: number) =>
    `${(N.singles / (ms / 1000)).toFixed(0)} req/s, p50 ${percentile(l, 50).toFixed(1)} ms, p99 ${percentile(l, 99).toFixed(1)} ms`;
  const single = figure(latencies, singleMs);
  const warmed = figure(warm.latencies, warm.totalMs);
  record('single send', setup, `${N.singles} requests, 32 in flight, cold (the first ${N.singles}): ${single}`);
  if (N.singlesWarmup) record('single send, warm', setup, `${N.singles} requests after ${N.singlesWarmup} unmeasured, same stream: ${warmed}`);
  const all = N.singles + N.singlesWarmup;
  record('single send cost', setup, `CPU per request (all ${all}): ${cpuPerMessage(use, all)}, client (the bench process) ${((clientCpu * 1000) / all).toFixed(3)} ms`);
  figures[`single ${setup}`] = single;
  if (N.singlesWarmup) figures[`single warm ${setup}`] = warmed;
}

/** Webhook ingestion (duplicate `read` events for sent messages) and single-send requests, in a world that has sent. */
async function ingestionAndSingles(world: World, setup: 'pglite' | 'postgres'): Promise<void> {
  if (runs('ingestion', setup)) await ingestion(world, setup);
  if (runs('singles', setup)) await singles(world, setup);
}

/** Webhook ingestion: duplicate `read` events for sent messages, in bodies of 100, 8 POSTs in flight. */
async function ingestion(world: World, setup: string): Promise<void> {
  const started = await startBulk(world, main, N.ingestionRows, 90572);
  // The events are posted only once the send has settled: its own status webhooks would otherwise be applied meanwhile.
  await waitForSettledSend(world, started.id, N.ingestionRows, 120_000);
  const rows = await allRows(world, started.id, N.ingestionRows);
  const wamids = rows.map((r) => r.webhook_response?.id).filter(Boolean) as string[];
  const bodies: string[] = [];
  for (let k = 0; k < N.webhookEvents; k += 100) {
    const statuses = Array.from({ length: 100 }, (_, j) => ({ id: wamids[(k + j) % wamids.length], status: 'read', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '1' }));
    bodies.push(JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value: { statuses } }] }] }));
  }
  const pgUrl = world.dbEnv.DATABASE_URL;
  // Read once the send's last writes are reported, so they are not counted as the ingestion's.
  const writesBefore = pgUrl ? await settledTableWrites(pgUrl) : null;
  const meter = await CpuMeter.start(world.services.map((s) => s.child.pid!), world.simulator.child.pid!, pgUrl);
  const { totalMs } = await load(bodies.length, 8, async (i) => {
    const res = await fetch(`http://127.0.0.1:${world.ports[0]}/webhooks/whatsapp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(bodies[i], 'bench-secret') },
      body: bodies[i],
    });
    if (res.status !== 200) throw new Error(`webhook ${res.status}`);
  });
  const t0 = performance.now() - totalMs;
  const applied = await waitUntil(async () => {
    const health = (await (await fetch(`http://127.0.0.1:${world.ports[0]}/health`)).json()) as { webhook_events: Record<string, number> };
    return (health.webhook_events.RECEIVED ?? 0) === 0;
  }, 600_000, 50);
  const use = await meter.stop();
  const appliedRate = N.webhookEvents / ((applied - t0) / 1000);
  // How the service took the bodies (tms_webhook_bodies_total, where the service has it).
  const scrape = await (await fetch(`http://127.0.0.1:${world.ports[0]}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const taken = (path: string) => new RegExp(`^tms_webhook_bodies_total\\{path="${path}"\\} (\\d+)`, 'm').exec(scrape)?.[1];
  const paths = taken('applied_on_receipt') === undefined ? '' : `; bodies applied on receipt ${taken('applied_on_receipt')}, stored first ${taken('stored_first')} (whole world)`;
  record('webhook ingestion', setup, `${N.webhookEvents} status events in bodies of 100: stored ${(N.webhookEvents / (totalMs / 1000)).toFixed(0)} events/s, applied ${appliedRate.toFixed(0)} events/s${paths}`);
  // Per 1,000 events (the POSTs and their application; the simulator is idle here).
  const perK = (seconds: number) => `${((seconds * 1e6) / N.webhookEvents).toFixed(1)} ms`;
  record('webhook ingestion cost', setup, `CPU per 1,000 events: service ${perK(use.service)}${use.postgres === null ? '' : `, PostgreSQL backends ${perK(use.postgres)}`}`);
  if (writesBefore && pgUrl) {
    const w = writesPerMessage(writesBefore, await settledTableWrites(pgUrl), N.webhookEvents / 100);
    record('webhook ingestion writes', setup, `rows written per body of 100 events: ${w.total.toFixed(2)}: ${w.byTable.map(([t, n]) => `${t} ${n.toFixed(2)}`).join(', ')}`);
  }
  figures[`applied ${setup}`] = `${appliedRate.toFixed(0)} events/s`;
}


/** The service against the naive sender on `N.channels` numbers, caps off, in this run (bench/versus-naive.ts). */
async function versusNaive(): Promise<void> {
  const service = await serviceOnChannels(N.channels, N.perChannelNaive);
  const naive = await naiveOnChannels(N.channels, N.perChannelNaive);
  for (const row of versusRows(N.channels, N.perChannelNaive, service, naive)) record(...row);
  const total = N.channels * N.perChannelNaive;
  figures['versus naive'] = `${(service.rate / naive.rate).toFixed(2)} × (service ${service.rate.toFixed(0)}, naive ${naive.rate.toFixed(0)} msg/s)`;
  figures['cpu many channels'] = cpuPerMessage(service.cpu, total);
}

/** Report reads while a large start settles (bench/settle.ts), on each database. */
async function settleScenario(database: 'pglite' | 'postgres'): Promise<void> {
  const r = await settle(database, N.scale, 10, log);
  for (const row of settleRows(r)) record(...row);
  const p99 = (sorted: number[]) => `${percentile(sorted, 99).toFixed(0)} ms`;
  figures[`settle ${database}`] = `${r.acceptSeconds.toFixed(1)} s; read p99 ${p99(r.during)} during / ${p99(r.after)} after`;
}

/** 3. Pacing at the network's 80 mps, and total_time accuracy. */
async function pacing(database: 'pglite' | 'postgres'): Promise<void> {
  const world = await startWorld({ database, instances: 1, simMps: 80, channelMps: 80 });
  try {
    const started = await startBulk(world, main, N.pacing, 90573);
    await waitUntil(async () => (await wizardItem(world, started.id))?.status === 'COMPLETED', 10 * 60_000, 250);
    const times = (await allRows(world, started.id, N.pacing)).map((r) => Date.parse(r.backend_sended_time)).filter(Number.isFinite).sort((a, b) => a - b);
    const achieved = (times.length - 1) / ((times[times.length - 1] - times[0]) / 1000);
    const refusals = (await world.sim('/_sim/stats')).refused_130429;
    record('pacing', `${database}, cap 80 mps`, `${N.pacing} msgs: ${achieved.toFixed(1)} msg/s = ${(achieved / 80).toFixed(3)} × cap; 130429 refusals: ${refusals}`);

    const spread = await startBulk(world, main, N.spreadRows, 90574, N.spreadSeconds);
    await waitUntil(async () => (await wizardItem(world, spread.id))?.status === 'COMPLETED', 10 * 60_000, 250);
    const sent = (await allRows(world, spread.id, N.spreadRows)).map((r) => Date.parse(r.backend_sended_time)).sort((a, b) => a - b);
    const requested = ((N.spreadRows - 1) / N.spreadRows) * N.spreadSeconds;
    const actual = (sent[sent.length - 1] - sent[0]) / 1000;
    record('total_time accuracy', `${database}, ${N.spreadRows} rows over ${N.spreadSeconds} s`, `actual span ${actual.toFixed(2)} s / requested ${requested.toFixed(2)} s = ${(actual / requested).toFixed(3)}`);
  } finally {
    await world.close();
  }
}

/** 4. A large start (time to accept, peak RSS), report-detail latency at the first and the last page, reports list with 1,000 bulk sends. */
async function scale(database: 'pglite' | 'postgres'): Promise<void> {
  const world = await startWorld({ database, instances: 1, simMps: null, channelMps: 1000 });
  try {
    // On the FLAGGED channel the rows are stored and queued but held: the figures are the start's and the reads'.
    const small = await startBulk(world, SIM_CHANNEL_IDS.flagged, N.scaleSmall, 90576);
    const big = await startBulk(world, SIM_CHANNEL_IDS.flagged, N.scale, 90575);
    const rss = await peakRssMb(world.services[0].child.pid!);
    const ratio = big.acceptMs / small.acceptMs;
    record('large start', database, `${N.scale} rows accepted in ${(big.acceptMs / 1000).toFixed(1)} s (${(N.scale / (big.acceptMs / 1000)).toFixed(0)} rows/s), ${N.scaleSmall} rows before it in ${(small.acceptMs / 1000).toFixed(1)} s: ${ratio.toFixed(1)} × the time; service peak RSS ${rss} MB`);
    figures[`large start ${database}`] = `${(big.acceptMs / 1000).toFixed(1)} s (${ratio.toFixed(1)} × ${N.scaleSmall} rows) / ${rss} MB`;
    const lastPage = Math.ceil(N.scale / 50);
    for (const [label, page] of [['first', 1], ['last', lastPage]] as const) {
      const { latencies } = await load(200, 1, async () => {
        const res = await world.api('POST', '/agent-app/message-template/send-wizard/reports/detail', { data: { page, page_size: 50 }, id: big.id });
        if (res.body.data.report_details.length === 0) throw new Error('empty page');
      });
      record('report detail page', `${database}, ${N.scale} rows, ${label} page (${page}) of 50`, `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
      figures[`detail p99 ${database} ${label}`] = `${percentile(latencies, 99).toFixed(0)} ms`;
    }
    // The other 999 bulk sends are written straight into the database (their contents do not matter to the list).
    await world.withDatabase(async (db) => {
      await sql`
        insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status, total_time, summary, created_at)
        select lpad(to_hex(g), 24, '0'), company_id, channel_id, template_id, template_name, from_number, has_button, 'COMPLETED', 0, 1,
               now() - make_interval(secs => g)
        from send_wizards, generate_series(1, ${N.wizards - 1}) as g where id = ${big.id}`.execute(db);
    });
    const { latencies } = await load(200, 1, async () => {
      await world.api('POST', '/agent-app/message-template/send-wizard/reports', { page: 10, page_size: 50, channel_id: SIM_CHANNEL_IDS.flagged });
    });
    record('reports list', `${database}, ${N.wizards} bulk sends, page 10 of 50`, `p50 ${percentile(latencies, 50).toFixed(1)} ms, p99 ${percentile(latencies, 99).toFixed(1)} ms`);
    // Files in and out (bench/file-start.ts) on the same PostgreSQL world, after its own figures.
    if (database === 'postgres') for (const row of fileBenchRows(await fileBench(N.fileRows, log, world))) record(...row);
  } finally {
    await world.close();
  }
}

/** `--graph-latency-ms N`: the top tier's network answers each call N ms late. */
const GRAPH_LATENCY_MS = numberArg('--graph-latency-ms') ?? 0;

/** The number at the network's top tier: 1,000 mps in the simulator and in the service (read within 1 s). */
async function topTierRate(world: World, raw: number, cost = false): Promise<{ toSeen: number; toHandoff: number }> {
  await world.sim(`/_sim/channels/${main}`, { mps: 1000 });
  if (GRAPH_LATENCY_MS > 0) await world.sim('/_sim/faults', { latencyMs: GRAPH_LATENCY_MS });
  await world.withDatabase(async (db) => {
    await db.updateTable('channels').set({ throughput_override_mps: 1000 }).where('id', '=', main).execute();
  });
  const setup = `postgres, 1 instance, channel at 1,000 mps (service and simulator)${GRAPH_LATENCY_MS > 0 ? `, Graph answering ${GRAPH_LATENCY_MS} ms late` : ''}`;
  const top = await serviceRate(world, setup, raw, N.topTier, cost);
  if (GRAPH_LATENCY_MS > 0) await world.sim('/_sim/faults', { latencyMs: 0 });
  await world.sim(`/_sim/channels/${main}`, { mps: null });
  await world.withDatabase(async (db) => {
    await db.updateTable('channels').set({ throughput_override_mps: 100_000 }).where('id', '=', main).execute();
  });
  return top;
}

async function main_(): Promise<void> {
  const t0 = Date.now();
  const raw = runs('raw') || runs('rates') ? await rawNetworkRate() : NaN;
  const rates: Record<string, number> = {};
  // The one-channel 3-instance world is gone: one channel has one sender, so it measured only contention; the
  // 3-instance figure is `instances` (20 channels) now.
  for (const [database, instances] of [['pglite', 1], ['postgres', 1]] as const) {
    if (!runs('rates', database) && !runs('ingestion', database) && !runs('singles', database)) continue;
    const world = await startWorld({ database, instances, simMps: null, channelMps: 100_000, serviceEnv: SERVICE_ENV });
    try {
      const setup = `${database}, ${instances} instance${instances > 1 ? 's' : ''}, caps off`;
      if (!runs('rates', database)) {
        // Only the ingestion or single-send figures (`--only`): no service-rate send first.
      } else if (database === 'postgres') {
        // The size ratio: a small send, then the large one, in the same world (rates of one run).
        const small = await serviceRate(world, setup, raw, N.small);
        const large = await serviceRate(world, setup, raw, N.service, true);
        const ratio = large.toSeen / small.toSeen;
        record('size ratio', setup, `rate to last BACKEND_SEEN at ${N.service} rows ÷ at ${N.small} rows: ${ratio.toFixed(2)}`);
        figures['size ratio'] = ratio.toFixed(2);
        rates[setup] = large.toSeen;
        rates['top tier'] = (await topTierRate(world, raw)).toSeen;
      } else {
        rates[setup] = (await serviceRate(world, setup, raw, N.service, true)).toSeen;
      }
      await ingestionAndSingles(world, database);
    } finally {
      await world.close();
    }
  }
  if (ONLY?.has('top-tier') && !ONLY.has('rates')) {
    // Alone (`--only top-tier`): the top tier in a world of its own, with its CPU and rows written per message.
    const world = await startWorld({ database: 'postgres', instances: 1, simMps: null, channelMps: 100_000 });
    try {
      rates['top tier'] = (await topTierRate(world, raw, true)).toSeen;
    } finally {
      await world.close();
    }
  }
  if (runs('naive')) await versusNaive();
  if (runs('many-channels')) await manyChannels();
  if (runs('instances')) await instancesOnChannels();
  if (runs('pacing')) {
    await pacing('pglite');
    await pacing('postgres');
  }
  if (runs('settle')) {
    await settleScenario('pglite');
    await settleScenario('postgres');
  }
  if (runs('scale')) await scale('postgres');
  if (!QUICK && runs('scale')) await scale('pglite');
  if (!QUICK && runs('soak')) {
    // Bounded memory and tables during a long send; its own table goes to docs/history/benchmarks-soak-<date>.md.
    const s = await soak(N.soakRows);
    await writeSoakDoc(s, `npm run bench (soak, ${N.soakRows} rows)`);
    record('soak', `postgres, 1 instance, caps off, ${N.soakRows} rows, webhook retention 60 s`,
      `service RSS ${s.rss10} MB at 10 % → ${s.rss100} MB at 100 % (${s.ratio.toFixed(2)}); max webhook_events rows ${s.maxWebhookEventRows}; see docs/history/benchmarks-soak-<date>.md`);
  }
  const seconds = Math.round((Date.now() - t0) / 1000);
  const table = ['| scenario | setup | measured |', '|---|---|---|', ...results.map((r) => `| ${r.join(' | ')} |`)].join('\n');
  const msgs = (k: string) => (rates[k] === undefined ? '—' : `${rates[k].toFixed(0)} msg/s`);
  const targets = [
    ['measure', 'target', 'this run'],
    [`${N.channels} numbers at once, caps off, ${N.channels * N.perChannelNaive} rows, to the last read, ÷ the naive sender`, '≥ 2.5 ×', figures['versus naive'] ?? '—'],
    [`one number at the top tier (1,000 mps), ${N.topTier} rows, to the last BACKEND_SEEN, start included`, '≥ 970 msg/s', msgs('top tier')],
    [`CPU per message, ${N.channels} numbers caps off`, 'PostgreSQL ≤ 0.20 ms, service ≤ 0.20 ms', figures['cpu many channels'] ?? '—'],
    [`${N.scale}-row start, PostgreSQL: time (÷ ${N.scaleSmall} rows) / service peak RSS`, '≤ 20 s (≤ 11 ×) / ≤ 300 MB (1M rows)', figures['large start postgres'] ?? '—'],
    [`PGlite: ${N.scale}-row start; report reads while it settles`, '≤ 60 s; p99 ≤ 100 ms', figures['settle pglite'] ?? '—'],
    [`PGlite, ${N.service} rows, to last BACKEND_SEEN`, '≥ 600 msg/s', msgs('pglite, 1 instance, caps off')],
    ['single send, PostgreSQL, 32 in flight (from the bench process)', '≥ 1,500 req/s, p99 ≤ 50 ms', figures['single postgres'] ?? '—'],
    ['webhook events applied, PostgreSQL', '≥ 40k/s', figures['applied postgres'] ?? '—'],
  ];
  const targetTable = targets.map((r, i) => `| ${r.join(' | ')} |${i === 0 ? '\n|---|---|---|' : ''}`).join('\n');
  if (ONLY) {
    // A partial run writes no doc (a dated log holds a full run).
    console.log(['| scenario | setup | measured |', '|---|---|---|', ...results.map((r) => `| ${r.join(' | ')} |`)].join('\n'));
    console.log(`\n--only ${[...ONLY].join(',')}: ${Math.round((Date.now() - t0) / 1000)} s; no doc written`);
    return;
  }
  const doc = `# Benchmarks

Measured by \`npm run bench${QUICK ? ' -- --quick' : ''}\` on ${new Date().toISOString().slice(0, 10)}, ${machine()}; the whole run took ${seconds} s.
Every figure in the table comes from this one run. The machine is shared and noisy: compare ratios, not absolute numbers.

- The simulator, each service instance and the bench client are separate processes on loopback; the service
  is started with \`tms serve\` (NETWORK=cloud, pointed at the standalone simulator).
- "caps off": the simulator's throughput cap is off and the channel's cap is set far above the network's; the
  service still paces one number at the network's maximum, 1,000 mps (\`effectiveThroughput\`, research file
  "Throughput"), so on one channel "caps off" measures the same ceiling as the top tier. The engine's own capacity
  shows on many channels at once (the 3-instances scenario, 20 channels uncapped).
- Service rates are measured from the moment the start request is sent (so they include storing the rows).
- Scale figures use the FLAGGED channel, so the rows are stored and queued but not sent while the reads are timed.
- ${QUICK ? 'Quick form: smaller counts (see bench/run.ts `N`); run `npm run bench` for the full counts.' : 'Full form.'}${SKIP.size ? ` Left out of this run: ${[...SKIP].join(', ')} (\`--skip\`).` : ''}

## Targets (this run)

${targetTable}

## Every figure

${table}
`;
  // A full run is a dated log in docs/history/ (docs/benchmarks.md's table is the current truth, kept by hand).
  const file = `history/benchmarks-${QUICK ? 'quick' : 'run'}-${new Date().toISOString().slice(0, 10)}.md`;
  writeFileSync(new URL(`../docs/${file}`, import.meta.url), doc);
  console.log(targetTable);
  console.log(table);
  console.log(`\nwritten to docs/${file} (${seconds} s)`);
}

main_().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
