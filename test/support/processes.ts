/**
 * Real processes for crash tests: the standalone simulator and the service, each its own process on
 * loopback, started through the `tms` command as a user would. Every process is killed by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgDatabase, onPostgres, seedDataDir } from './db.js';

const BIN = new URL('../../bin/tms.mjs', import.meta.url).pathname;

/**
 * Node options for the short-lived `tms` processes the suites start (admin commands, and the services of the crash
 * and cloud tests). PGlite is PostgreSQL compiled to WebAssembly, and V8 spends more CPU compiling its hot functions
 * a second time with its optimising tier than a process of a few seconds gains back: V8's baseline tier alone cuts
 * a PGlite open to about a third of its CPU. A V8 tuning only: the same code runs (scripts/test.mjs does the same).
 * Benchmarks keep V8's defaults for the processes they measure.
 */
export const TEST_NODE_ARGS: readonly string[] = ['--liftoff-only'];

/**
 * The lowest port the kernel hands out for outgoing connections and `listen(0)` (Linux's default 32768 elsewhere).
 * A port in that range that was free when chosen can be taken by any connection another test file opens before the
 * process meant for it listens (a crash world starts its simulator first: seconds).
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

/** Whether `port` can be listened on at 127.0.0.1 now (bound once, then released). */
function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A free loopback port below the kernel's ephemeral range (bound once, then released), so no outgoing connection
 * takes it before its process listens; drawn at random, so parallel test files rarely draw the same.
 */
export async function freePort(): Promise<number> {
  const low = 10_000;
  const high = ephemeralLow() - 1;
  for (let tries = 0; tries < 100; tries++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port found in ${low}–${high}`);
}

/** A child process with its output kept for failure messages. */
export interface Proc {
  child: ChildProcess;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** Starts `tms <args>` with an environment (and node options such as `--cpu-prof`, which NODE_OPTIONS refuses). */
export function startTms(args: string[], env: Record<string, string>, nodeArgs: string[] = []): Proc {
  return startNode([...nodeArgs, BIN, ...args], env);
}

/** Starts `node <args>` (this Node binary) with an environment added to this process's. */
export function startNode(args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    child,
    output: () => out,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** Waits until `url` answers 200. */
export async function waitForHttp(url: string, proc: Proc, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (proc.child.exitCode !== null || proc.child.signalCode !== null) throw new Error(`process exited early:\n${proc.output()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not come up:\n${proc.output()}`);
}

/**
 * Where a crash-test service keeps its data: a PGlite directory, or a fresh PostgreSQL database. Empty (the service
 * migrates it at its first start), or with `migrated` already migrated (a copy of the suites' migrated PGlite data
 * directory, or of the PostgreSQL template), for the tests about something else than a first start.
 */
export async function serviceDatabase(
  kind: 'pglite' | 'postgres' = onPostgres ? 'postgres' : 'pglite',
  options: { migrated?: boolean } = {},
): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  if (kind === 'postgres') {
    const database = await createPgDatabase(options);
    return { env: { DATABASE_URL: database.url }, cleanup: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'tms-crash-'));
  if (options.migrated) await seedDataDir(dir);
  return { env: { DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs a `tms` admin command to completion and returns its JSON output. */
export async function tmsJson(args: string[], env: Record<string, string>): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const proc = startTms([...args, '--json'], env, [...TEST_NODE_ARGS]);
  const { code } = await proc.exited;
  if (code !== 0) throw new Error(`tms ${args.join(' ')} failed:\n${proc.output()}`);
  return JSON.parse(proc.output().trim().split('\n').pop()!);
}

/** A JSON client for a service on loopback with a bearer token (`port` defaults to `defaultPort`). */
export function serviceApi(token: string, defaultPort: () => number) {
  return async (method: string, path: string, body?: unknown, port = defaultPort()) => {
    const res = await fetch(`http://127.0.0.1:${port}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
  };
}

/** A JSON client for the simulator's admin and inspection routes: GET without a body, POST with one. */
export function simulatorApi(simRoot: string) {
  return async (path: string, body?: unknown): Promise<any> => { // eslint-disable-line @typescript-eslint/no-explicit-any
    const res = await fetch(`${simRoot}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return res.json();
  };
}
