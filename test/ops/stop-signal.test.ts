/**
 * SIGTERM to the command a user started stops the service, whichever command it was: the port is free and every
 * process that command started is gone within a bound. npm and npx run their command through `sh -c`, which
 * does not pass a signal on (src/stop-request.ts). `node dist/server.js` is covered in dist-build.test.ts, and
 * `node bin/tms.mjs serve` with its drain in test/crash/graceful-shutdown.test.ts.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { freePort, serviceDatabase } from '../support/processes.js';
import { groupAlive, portOpen, startGroup, within, type GroupProc } from '../support/process-group.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/**
 * How long the stop may take: the drain of an idle service takes milliseconds and the launcher poll half a second,
 * but the process exit and npm's own take seconds on a loaded 2-core machine; SHUTDOWN_TIMEOUT_MS (10 s here) caps
 * the drain, and Kubernetes' default grace period is 30 s.
 */
const STOP_BOUND_MS = 30_000;
const started: GroupProc[] = [];
const cleanups: Array<() => Promise<void>> = [];

after(async () => {
  for (const proc of started) proc.cleanup();
  for (const cleanup of cleanups) await cleanup();
});

async function serveThenTerm(command: string, args: string[]): Promise<void> {
  const database = await serviceDatabase(undefined, { migrated: true });
  cleanups.push(database.cleanup);
  const port = await freePort();
  const proc = startGroup(command, args, {
    cwd: ROOT,
    env: { ...database.env, PORT: String(port), HOST: '127.0.0.1', NETWORK: 'simulator', LOG_LEVEL: 'warn', SHUTDOWN_TIMEOUT_MS: '10000' },
  });
  started.push(proc);
  const up = await within(180_000, async () => (await fetch(`http://127.0.0.1:${port}/livez`).catch(() => undefined))?.ok === true);
  assert.ok(up, `the service did not come up:\n${proc.output()}`);

  process.kill(proc.pid, 'SIGTERM');
  const portFreed = await within(STOP_BOUND_MS, async () => !(await portOpen(port)));
  assert.ok(portFreed, `port ${port} still open ${STOP_BOUND_MS} ms after SIGTERM:\n${proc.output()}`);
  const treeGone = await within(STOP_BOUND_MS, () => !groupAlive(proc.pid));
  assert.ok(treeGone, `processes of the command still running ${STOP_BOUND_MS} ms after SIGTERM:\n${proc.output()}`);
  assert.match(proc.output(), /SIGTERM|launcher gone/, 'the service did not drain: it was killed rather than stopped');
}

test('SIGTERM to `npm start` stops the service: the port is freed and no process of it is left', async () => {
  await serveThenTerm('npm', ['start']);
});

test('SIGTERM to `npx tms serve` stops the service: the port is freed and no process of it is left', async () => {
  await serveThenTerm('npx', ['tms', 'serve']);
});
