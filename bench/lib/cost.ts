/**
 * What a message costs, sampled while a scenario runs: CPU seconds per process from /proc (the service
 * instances, the simulator and the PostgreSQL backends of the world's database) and rows written per
 * message from `pg_stat_user_tables`; and the share of the machine's CPU time the hypervisor gave to other guests
 * (steal), which sets how fast this shared machine is in a given window.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (100 on Linux). */
const TICKS = 100;

/** utime and stime (CPU in the process's own code, and in the kernel on its behalf) in seconds, or null when it is gone. */
export function cpuTimes(pid: number): { user: number; system: number } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command (which may hold spaces) start at field 3; utime and stime are fields 14 and 15.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { user: Number(rest[11]) / TICKS, system: Number(rest[12]) / TICKS };
  } catch {
    return null;
  }
}

/** utime + stime of a process in seconds, or null when it is gone. */
export function cpuSeconds(pid: number): number | null {
  const times = cpuTimes(pid);
  return times === null ? null : times.user + times.system;
}

/**
 * The machine's CPU ticks so far, all cores (`/proc/stat`'s first line: user … steal, guest time inside user): all,
 * idle (idle and iowait) and stolen (given by the hypervisor to other guests); the rest is busy.
 */
export function machineTicks(): { total: number; idle: number; steal: number } {
  const f = readFileSync('/proc/stat', 'utf8').slice(0, 200).split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: f.reduce((a, b) => a + b, 0), idle: f[3] + f[4], steal: f[7] ?? 0 };
}

/** The share of the machine's CPU time stolen between two readings of `machineTicks` (0 when none passed). */
export function stealShare(from: { total: number; steal: number }, to: { total: number; steal: number }): number {
  const total = to.total - from.total;
  return total > 0 ? (to.steal - from.steal) / total : 0;
}

/** CPU seconds of a scenario, per process group. */
export interface CpuUse {
  service: number;
  /**
   * The part of `service` spent in the kernel (stime: socket reads and writes, epoll). A sampling profile of the
   * service counts a thread inside a system call as busy also while the process it woke runs in its place, so this,
   * not the profile's share of `writev`, is what its system calls cost.
   */
  serviceSystem: number;
  simulator: number;
  /** The PostgreSQL backends of the world's database (null on PGlite, which runs inside the service). */
  postgres: number | null;
  /** Wall-clock seconds sampled. */
  wall: number;
  /**
   * The share of the machine's CPU time the hypervisor gave to other guests meanwhile (0–1): on a shared virtual
   * machine the same work costs more CPU, and runs slower, when it is high.
   */
  steal: number;
}

/**
 * Samples CPU while a scenario runs. The backends of the database are listed from `pg_stat_activity` every
 * 500 ms (a backend that starts mid-run counts from 0; one that ends keeps its last sample).
 */
export class CpuMeter {
  /** Each process's first and last sample: utime and stime in seconds. */
  private readonly first = new Map<number, { user: number; system: number }>();
  private readonly last = new Map<number, { user: number; system: number }>();
  private readonly backends = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private client: pg.Client | null = null;
  private readonly t0 = performance.now();
  private readonly ticks0 = machineTicks();

  private constructor(
    private readonly services: number[],
    private readonly simulator: number,
    private readonly databaseUrl: string | undefined,
  ) {}

  /** Starts sampling the service PIDs, the simulator PID and (PostgreSQL) the database's backends. */
  static async start(services: number[], simulator: number, databaseUrl?: string): Promise<CpuMeter> {
    const meter = new CpuMeter(services, simulator, databaseUrl);
    if (databaseUrl) {
      meter.client = new pg.Client({ connectionString: databaseUrl });
      await meter.client.connect();
      await meter.listBackends(true);
    }
    for (const pid of [...services, simulator]) meter.sample(pid, true);
    meter.timer = setInterval(() => void meter.tick(), 500);
    return meter;
  }

  private sample(pid: number, baseline: boolean): void {
    const times = cpuTimes(pid);
    if (times === null) return;
    if (baseline && !this.first.has(pid)) this.first.set(pid, times);
    this.last.set(pid, times);
  }

  private async listBackends(baseline: boolean): Promise<void> {
    const own = (await this.client!.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0].pid;
    const { rows } = await this.client!.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> $1`, [own]);
    for (const { pid } of rows) {
      if (!this.backends.has(pid)) {
        this.backends.add(pid);
        // A backend first seen after the start began during the run: it counts from 0.
        if (!baseline) this.first.set(pid, { user: 0, system: 0 });
      }
      this.sample(pid, baseline);
    }
  }

  private async tick(): Promise<void> {
    for (const pid of [...this.services, this.simulator]) this.sample(pid, false);
    if (this.client) await this.listBackends(false).catch(() => undefined);
    else for (const pid of this.backends) this.sample(pid, false);
  }

  /** Stops sampling; the CPU seconds used since the start. */
  async stop(): Promise<CpuUse> {
    if (this.timer) clearInterval(this.timer);
    const use = await this.read();
    await this.client?.end();
    this.client = null;
    return use;
  }

  /** The CPU seconds used since the start, sampling on. */
  async read(): Promise<CpuUse> {
    await this.tick();
    const none = { user: 0, system: 0 };
    const used = (pids: Iterable<number>, part: (t: { user: number; system: number }) => number = (t) => t.user + t.system) =>
      [...pids].reduce((sum, pid) => sum + part(this.last.get(pid) ?? none) - part(this.first.get(pid) ?? none), 0);
    return {
      service: used(this.services),
      serviceSystem: used(this.services, (t) => t.system),
      simulator: used([this.simulator]),
      postgres: this.databaseUrl ? used(this.backends) : null,
      wall: (performance.now() - this.t0) / 1000,
      steal: stealShare(this.ticks0, machineTicks()),
    };
  }
}

/** Rows inserted, updated and deleted per table of a database (`pg_stat_user_tables`). */
export type TableWrites = Map<string, number>;

/** The write counts of every table now. */
export async function tableWrites(databaseUrl: string): Promise<TableWrites> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ relname: string; n: string }>(
      'select relname, n_tup_ins + n_tup_upd + n_tup_del as n from pg_stat_user_tables');
    return new Map(rows.map((r) => [r.relname, Number(r.n)]));
  } finally {
    await client.end();
  }
}

/**
 * The write counts once the backends have reported them: a busy backend flushes its table counts at most once a
 * second, an idle one about 10 s after it went idle, so this waits 11 s after the scenario before reading.
 */
export async function settledTableWrites(databaseUrl: string): Promise<TableWrites> {
  await new Promise((r) => setTimeout(r, 11_000));
  return tableWrites(databaseUrl);
}

/** Rows written per message between two readings, in total and by table (largest first, tables under 0.05 left out). */
export function writesPerMessage(before: TableWrites, after: TableWrites, messages: number): { total: number; byTable: Array<[string, number]> } {
  const byTable: Array<[string, number]> = [];
  let total = 0;
  for (const [table, n] of after) {
    const d = (n - (before.get(table) ?? 0)) / messages;
    total += d;
    if (d >= 0.05) byTable.push([table, d]);
  }
  return { total, byTable: byTable.sort((a, b) => b[1] - a[1]) };
}

/**
 * "service 0.71 ms (kernel 10 %), PostgreSQL 0.85 ms, simulator 0.35 ms" per message, and the machine's steal
 * meanwhile.
 */
export function cpuPerMessage(use: CpuUse, messages: number): string {
  const ms = (s: number) => `${((s * 1000) / messages).toFixed(3)} ms`;
  const kernel = use.service > 0 ? ` (kernel ${((use.serviceSystem / use.service) * 100).toFixed(0)} %)` : '';
  return [
    `service ${ms(use.service)}${kernel}`,
    use.postgres === null ? 'PostgreSQL — (PGlite is inside the service)' : `PostgreSQL backends ${ms(use.postgres)}`,
    `simulator ${ms(use.simulator)}`,
    `machine's steal ${(use.steal * 100).toFixed(0)} %`,
  ].join(', ');
}
