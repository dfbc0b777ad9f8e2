/**
 * A command started as the leader of a process group of its own, so a test can tell when every process it
 * started (npm, its shell, node) is gone. Signals go to the leader's PID only; `cleanup` SIGKILLs what is left of
 * the group after a failure.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';

export interface GroupProc {
  child: ChildProcess;
  pid: number;
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  cleanup(): void;
}

export function startGroup(command: string, args: string[], options: { cwd: string; env: Record<string, string> }): GroupProc {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const pid = child.pid!;
  return {
    child,
    pid,
    output: () => out,
    exited,
    cleanup() {
      if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
    },
  };
}

/** Whether any process of the group led by `pgid` is still alive (zombies included until reaped). */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false;
    throw error;
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Polls until `check` holds or `timeoutMs` passes; returns whether it held. */
export async function within(timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
}
