/**
 * What a run waits on (`bench/versus-naive.ts --waits`), sampled every `everyMs` (default 100) while it runs:
 * - the database's client backends from `pg_stat_activity` (state, wait event, the statement's start), the sampler's
 *   own left out: each active sample is on CPU (no wait event) or waiting on the named event;
 * - the simulator's counters (`/_sim/stats`): sends accepted and statuses posted, for a timeline per second;
 * - the service's own lines (bench/lib/waits-probe.mjs, preloaded: event-loop utilisation, the pg pool's waiters and
 *   acquire waits, the Graph client's requests running and queued), read back from its file and cut to the window.
 * Bounded: one query and one GET per sample, stopped by `stop()`.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import pg from 'pg';
import { cpuSeconds, machineTicks } from './cost.js';

interface DbSample {
  t: number;
  /** CPU seconds so far of the database's backends sampled (by pid), the simulator and this bench process. */
  backends: Map<number, number>;
  sim: number;
  bench: number;
  rows: Array<{ state: string | null; wait: string | null; query: string }>;
}
interface SimSample {
  t: number;
  /** The machine's busy, total and stolen jiffies (/proc/stat), all cores. */
  busy: number;
  all: number;
  steal: number;
  sends: number;
  statuses: number;
  bodies: number;
}
interface ProbeLine {
  t: number;
  elu: number;
  cpuMs: number;
  pg: { total: number; idle: number; waiting: number; acquired: number; waitedMs: number };
  http: { running: number; queued: number };
}

/** The statement's first words, whitespace folded, parameters as they are (the service's are $n placeholders). */
const shortQuery = (q: string) => q.replace(/\s+/g, ' ').trim().slice(0, 90);

/** Samples while a run goes on; `stop()` returns the markdown summary. */
export class WaitSampler {
  private readonly db: DbSample[] = [];
  private readonly sim: SimSample[] = [];
  private stopped = false;
  private loop: Promise<void> = Promise.resolve();
  private readonly t0 = Date.now();

  private constructor(
    private readonly client: pg.Client,
    private readonly simRoot: string,
    private readonly probeFile: string | undefined,
    private readonly everyMs: number,
    private readonly simPid: number,
  ) {}

  static async start(databaseUrl: string, simRoot: string, simPid: number, probeFile?: string, everyMs = 100): Promise<WaitSampler> {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    const sampler = new WaitSampler(client, simRoot, probeFile, everyMs, simPid);
    sampler.loop = sampler.run();
    return sampler;
  }

  private async run(): Promise<void> {
    // At most 30 minutes of samples (the bench's own limit on a run).
    for (let i = 0; !this.stopped && i < (30 * 60_000) / this.everyMs; i += 1) {
      const started = Date.now();
      const [{ rows }, stats] = await Promise.all([
        this.client.query<{ pid: number; state: string | null; wait: string | null; query: string }>(
          `select pid, state, case when wait_event is null then null else wait_event_type || ':' || wait_event end as wait, query
           from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()`),
        fetch(`${this.simRoot}/_sim/stats`).then((r) => r.json() as Promise<Record<string, number>>).catch(() => null),
      ]);
      const backends = new Map(rows.map((r) => [r.pid, cpuSeconds(r.pid) ?? 0]));
      const own = process.cpuUsage();
      this.db.push({ t: started, backends, sim: cpuSeconds(this.simPid) ?? 0, bench: (own.user + own.system) / 1e6, rows: rows.map((r) => ({ state: r.state, wait: r.wait, query: shortQuery(r.query ?? '') })) });
      const ticks = machineTicks();
      if (stats) this.sim.push({ t: started, busy: ticks.total - ticks.idle - ticks.steal, all: ticks.total, steal: ticks.steal, sends: stats.sends_accepted, statuses: stats.webhook_statuses_posted, bodies: stats.webhooks_posted });
      await new Promise((r) => setTimeout(r, Math.max(0, this.everyMs - (Date.now() - started))));
    }
  }

  /** Stops sampling; the summary as markdown. */
  async stop(): Promise<string> {
    this.stopped = true;
    await this.loop;
    await this.client.end();
    const t1 = Date.now();
    const probe: ProbeLine[] = this.probeFile
      ? readFileSync(this.probeFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as ProbeLine).filter((l) => l.t >= this.t0 && l.t <= t1)
      : [];
    return [this.totals(probe), this.tail(), this.timeline(probe)].join('\n\n');
  }

  private totals(probe: ProbeLine[]): string {
    const active = this.db.flatMap((s) => s.rows.filter((r) => r.state === 'active'));
    const inTx = this.db.flatMap((s) => s.rows.filter((r) => r.state?.startsWith('idle in transaction')));
    const count = (items: string[]) => {
      const m = new Map<string, number>();
      for (const k of items) m.set(k, (m.get(k) ?? 0) + 1);
      return [...m].sort((a, b) => b[1] - a[1]);
    };
    const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '—');
    const sim = this.sim;
    const lastSends = sim.length ? sim[sim.length - 1].sends : 0;
    const firstSend = sim.find((x) => x.sends > sim[0].sends);
    const allSent = sim.find((x) => x.sends === lastSends);
    const endAt = sim.length ? sim[sim.length - 1].t : this.t0;
    const secs = (t: number | undefined) => (t === undefined ? '—' : `${((t - this.t0) / 1000).toFixed(1)} s`);
    const lines = [
      `Phases (from the sampler's start): first send accepted by ${secs(firstSend?.t)}, the last by ${secs(allSent?.t)}, sampling ended at ${secs(endAt)} (statuses only after the last send: ${allSent ? ((endAt - allSent.t) / 1000).toFixed(1) : '—'} s).`,
      '',
      `Samples: ${this.db.length} of the database (every ${this.everyMs} ms), ${probe.length} of the service.`,
      '',
      `Database backends per sample: active ${(active.length / Math.max(1, this.db.length)).toFixed(2)}, idle in transaction ${(inTx.length / Math.max(1, this.db.length)).toFixed(2)}, all ${(this.db.reduce((a, s) => a + s.rows.length, 0) / Math.max(1, this.db.length)).toFixed(2)}.`,
      '',
      '| active backends: wait | share |',
      '|---|---|',
      ...count(active.map((r) => r.wait ?? 'CPU (no wait event)')).slice(0, 12).map(([k, n]) => `| ${k} | ${pct(n, active.length)} |`),
      '',
      '| active backends: statement | share | of which waiting on WAL |',
      '|---|---|---|',
      ...count(active.map((r) => r.query)).slice(0, 15).map(([k, n]) => {
        const wal = active.filter((r) => r.query === k && /WAL/.test(r.wait ?? '')).length;
        return `| \`${k.replace(/\|/g, '\\|')}\` | ${pct(n, active.length)} | ${pct(wal, n)} |`;
      }),
      '',
      '| idle in transaction: last statement | share |',
      '|---|---|',
      ...count(inTx.map((r) => r.query)).slice(0, 8).map(([k, n]) => `| \`${k.replace(/\|/g, '\\|')}\` | ${pct(n, inTx.length)} |`),
    ];
    if (probe.length) {
      const avg = (f: (l: ProbeLine) => number) => probe.reduce((a, l) => a + f(l), 0) / probe.length;
      const acquired = probe.reduce((a, l) => a + l.pg.acquired, 0);
      const waited = probe.reduce((a, l) => a + l.pg.waitedMs, 0);
      lines.push(
        '',
        `Service: event loop utilisation ${avg((l) => l.elu).toFixed(2)} (samples ≥ 0.9: ${pct(probe.filter((l) => l.elu >= 0.9).length, probe.length)}); ` +
          `pg pool ${avg((l) => l.pg.total).toFixed(1)} connections, ${avg((l) => l.pg.idle).toFixed(2)} idle, ${avg((l) => l.pg.waiting).toFixed(2)} callers waiting ` +
          `(samples with a waiter: ${pct(probe.filter((l) => l.pg.waiting > 0).length, probe.length)}), ${acquired} acquires waiting ${(waited / Math.max(1, acquired)).toFixed(2)} ms on average; ` +
          `Graph client ${avg((l) => l.http.running).toFixed(1)} requests running, ${avg((l) => l.http.queued).toFixed(1)} queued for a connection.`,
      );
    }
    return lines.join('\n');
  }

  /** The status-only tail (after the last send accepted): what the database's backends do then, by statement. */
  private tail(): string {
    const sim = this.sim;
    const last = sim.length ? sim[sim.length - 1].sends : 0;
    const allSent = sim.find((x) => x.sends === last);
    if (!allSent) return '';
    const samples = this.db.filter((x) => x.t > allSent.t);
    const rows = samples.flatMap((x) => x.rows.filter((r) => r.state === 'active' || r.state?.startsWith('idle in transaction')));
    const m = new Map<string, number>();
    for (const r of rows) {
      const k = `${r.state === 'active' ? `active${r.wait ? ` (${r.wait})` : ''}` : 'idle in transaction after'}: \`${r.query.slice(0, 70).replace(/\|/g, '\\|')}\``;
      m.set(k, (m.get(k) ?? 0) + 1);
    }
    return [
      `The tail (${samples.length} samples after the last send): backends in a transaction or active per sample ${(rows.length / Math.max(1, samples.length)).toFixed(2)}.`,
      '',
      '| tail: backend state and statement | per sample |',
      '|---|---|',
      ...[...m].sort((a, b) => b[1] - a[1]).slice(0, 16).map(([k, n]) => `| ${k} | ${(n / Math.max(1, samples.length)).toFixed(3)} |`),
    ].join('\n');
  }

  /** Per second of the run: sends, statuses posted, database backends active / waiting on WAL / on a lock, service figures. */
  private timeline(probe: ProbeLine[]): string {
    const lines = [
      '| s | sends | statuses posted | bodies | machine busy (cores) | stolen (cores) | service CPU (cores) | PostgreSQL | simulator | bench | others | ELU | db active | on WAL | on lock | idle in tx | pool waiting | acquire wait ms | http running | http queued |',
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ];
    const end = Math.max(...this.db.map((s) => s.t), this.t0);
    const cores = availableParallelism();
    for (let s = 0; this.t0 + s * 1000 <= end; s += 1) {
      const from = this.t0 + s * 1000;
      const to = from + 1000;
      const db = this.db.filter((x) => x.t >= from && x.t < to);
      const sim = this.sim.filter((x) => x.t < to);
      const simBefore = this.sim.filter((x) => x.t < from);
      const delta = (f: (x: SimSample) => number) => (sim.length ? f(sim[sim.length - 1]) - (simBefore.length ? f(simBefore[simBefore.length - 1]) : f(sim[0])) : 0);
      const per = (f: (r: DbSample['rows'][number]) => boolean) => (db.length ? (db.reduce((a, x) => a + x.rows.filter(f).length, 0) / db.length).toFixed(1) : '—');
      const p = probe.filter((l) => l.t >= from && l.t < to);
      const pa = (f: (l: ProbeLine) => number, digits = 1) => (p.length ? (p.reduce((a, l) => a + f(l), 0) / p.length).toFixed(digits) : '—');
      const acquired = p.reduce((a, l) => a + l.pg.acquired, 0);
      const jiffies = delta((x) => x.all);
      const machine = jiffies ? ((delta((x) => x.busy) / jiffies) * cores).toFixed(2) : '—';
      const stolen = jiffies ? ((delta((x) => x.steal) / jiffies) * cores).toFixed(2) : '—';
      const serviceCpu = p.length ? (p.reduce((a, l) => a + l.cpuMs, 0) / (p.length * 100)).toFixed(2) : '—';
      // CPU of the database's backends, the simulator and the bench over the bin (first and last sample in it).
      const a = db[0];
      const b = db[db.length - 1];
      const span = a && b && b.t > a.t ? (b.t - a.t) / 1000 : 0;
      const pgCpu = span ? [...b.backends].reduce((sum, [pid, s1]) => sum + s1 - (a.backends.get(pid) ?? s1), 0) / span : NaN;
      const simCpu = span ? (b.sim - a.sim) / span : NaN;
      const benchCpu = span ? (b.bench - a.bench) / span : NaN;
      const others = jiffies && span ? (Number(machine) - Number(serviceCpu) - pgCpu - simCpu - benchCpu).toFixed(2) : '—';
      const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(2));
      lines.push(`| ${s} | ${delta((x) => x.sends)} | ${delta((x) => x.statuses)} | ${delta((x) => x.bodies)} | ${machine} | ${stolen} | ${serviceCpu} | ${f(pgCpu)} | ${f(simCpu)} | ${f(benchCpu)} | ${others} | ${pa((l) => l.elu, 2)} | ${per((r) => r.state === 'active')} | ${per((r) => r.state === 'active' && /WAL/.test(r.wait ?? ''))} | ${per((r) => r.state === 'active' && (r.wait ?? '').startsWith('Lock:'))} | ${per((r) => !!r.state?.startsWith('idle in transaction'))} | ${pa((l) => l.pg.waiting)} | ${acquired ? (p.reduce((a, l) => a + l.pg.waitedMs, 0) / acquired).toFixed(2) : '—'} | ${pa((l) => l.http.running)} | ${pa((l) => l.http.queued)} |`);
    }
    return lines.join('\n');
  }
}
