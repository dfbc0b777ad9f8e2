/**
 * The production run: `npm run build` compiles src/ to dist/, and `node dist/server.js` (plain node, no tsx) serves
 * with its migrations and the in-process simulator; `node dist/cli.js` runs the admin commands. The process is
 * started and stopped by its PID on a loopback port.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { freePort, serviceDatabase, waitForHttp, type Proc } from '../support/processes.js';
import { portOpen } from '../support/process-group.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const TOKEN = 'dist-test-demo-token-0123456789';
let database: Awaited<ReturnType<typeof serviceDatabase>>;
const started: Proc[] = [];

function startNode(args: string[], env: Record<string, string>): Proc {
  // Only the build on the command line: no --import tsx, no loader.
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d) => (out = (out + d).slice(-20_000)));
  child.stderr!.on('data', (d) => (out = (out + d).slice(-20_000)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const proc: Proc = {
    child,
    output: () => out,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGKILL') {
      if (child.exitCode === null && child.signalCode === null) process.kill(child.pid!, signal);
      await exited;
    },
  };
  started.push(proc);
  return proc;
}

before(async () => {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `npm run build failed:\n${build.stdout}\n${build.stderr}`);
  database = await serviceDatabase();
});
after(async () => {
  for (const proc of started) await proc.kill();
  await database?.cleanup();
});

test('npm run build writes dist/ with the server, the CLI, the migrations and the simulator as JavaScript, and the console', () => {
  assert.ok(existsSync(new URL('../../web/dist/index.html', import.meta.url)), 'web/dist/index.html missing');
  for (const file of ['server.js', 'cli.js', 'runtime.js', 'store/migrations/index.js', 'store/migrations/0001_foundation.js', 'network/simulator/index.js']) {
    assert.ok(existsSync(new URL(`../../dist/${file}`, import.meta.url)), `dist/${file} missing`);
  }
});

test('node dist/cli.js migrates, node dist/server.js serves /readyz and a real route, and SIGTERM stops it with exit code 0 and frees the port', async () => {
  const env = { ...database.env, NETWORK: 'simulator', LOG_LEVEL: 'warn', TMS_DEMO_TOKEN: TOKEN };
  const migrate = startNode(['dist/cli.js', 'migrate', '--json'], env);
  const migrated = await migrate.exited;
  assert.equal(migrated.code, 0, migrate.output());
  assert.ok(JSON.parse(migrate.output().trim().split('\n').pop()!).applied.includes('0001_foundation'), migrate.output());

  const port = await freePort();
  const server = startNode(['dist/server.js'], { ...env, PORT: String(port), HOST: '127.0.0.1' });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/readyz`, server, 120_000);
  const ready = await (await fetch(`${url}/readyz`)).json();
  assert.deepEqual(ready, { status: 'ready', database: true, migrations: true, draining: false });
  const channels = await fetch(`${url}/api/v1/channels`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(channels.status, 200, server.output());
  const body = (await channels.json()) as { items: unknown[] };
  assert.equal(body.items.length, 4, JSON.stringify(body));
  // A route that reads the network: the in-process simulator, loaded from dist too.
  const status = await fetch(`${url}/api/v1/message-templates/waba-status?channel_id=110000000000001`, { headers: { authorization: `Bearer ${TOKEN}` } });
  assert.equal(status.status, 200, `${await status.text()}\n${server.output()}`);

  // The web console the build made (web/dist) is found by the compiled server (dist/http/console.js).
  const page = await fetch(`${url}/`);
  assert.equal(page.status, 200, await page.text());
  assert.match(String(page.headers.get('content-type')), /^text\/html/);

  await server.kill('SIGTERM');
  const exit = await server.exited;
  assert.deepEqual(exit, { code: 0, signal: null }, server.output());
  assert.match(server.output(), /stopped in \d+ ms/);
  assert.equal(await portOpen(port), false, `port ${port} still open after the process exited`);
});
