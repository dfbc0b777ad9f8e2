/** A loopback port that never completes a TCP handshake, for connect-timeout tests against real sockets. */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';

/** A port whose accept queue is full (a child listens with backlog 1 and never accepts); `close` frees it. */
export async function listenerThatNeverAccepts(): Promise<{ port: number; close: () => void }> {
  const script = `
    const net = require('node:net'); const fs = require('node:fs');
    const server = net.createServer();
    server.listen({ port: 0, host: '127.0.0.1', backlog: 1 }, () => {
      fs.writeSync(1, server.address().port + '\\n');
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); // blocks the thread: nothing is ever accepted
    });`;
  const child: ChildProcess = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const held: Socket[] = [];
  const close = () => {
    held.forEach((s) => s.destroy());
    child.kill('SIGKILL');
  };
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout!.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
    child.once('exit', () => reject(new Error('listener exited')));
  });
  // Fill the kernel's accept queue: once it is full, a new handshake is never completed.
  for (let i = 0; i < 10; i++) {
    const completed = await new Promise<boolean>((resolve) => {
      const socket = connect({ port, host: '127.0.0.1' });
      held.push(socket);
      const timer = setTimeout(() => resolve(false), 500);
      socket.once('connect', () => (clearTimeout(timer), resolve(true)));
      socket.once('error', () => (clearTimeout(timer), resolve(true)));
    });
    if (!completed) return { port, close };
  }
  close();
  throw new Error('the accept queue never filled');
}
