import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createCloudApiAdapter } from '../../src/network/cloud-api/adapter.js';
import { runSimulatorStandalone, SIM_CHANNELS } from '../../src/network/simulator/index.js';
import { credsOf } from './helpers.js';

test('the standalone simulator prints its URL, serves the Graph API and stops on SIGINT', async () => {
  const lines: string[] = [];
  const running = await runSimulatorStandalone(['simulator', '--port', '0', '--mps', 'off'], { APP_SECRET: 's' }, (l) => lines.push(l));
  assert.match(running.url, /^http:\/\/127\.0\.0\.1:\d+\/v23\.0$/);
  assert.ok(lines[0].includes(running.url));
  assert.ok(lines.some((l) => l.includes(SIM_CHANNELS[3].id)));
  const net = createCloudApiAdapter({ baseUrl: running.url, timeoutMs: 1000 });
  try {
    assert.equal((await net.getPhoneNumber(credsOf())).status, 'CONNECTED');
  } finally {
    await net.close();
  }
  process.emit('SIGINT');
  await running.closed;
  assert.equal(lines.at(-1), 'simulator stopped');
  await assert.rejects(fetch(`${running.rootUrl}/_sim/stats`));
});

test('the standalone simulator refuses a port that is not a number', async () => {
  await assert.rejects(runSimulatorStandalone(['--port', 'abc'], {}, () => undefined), /--port must be a whole number/);
  await assert.rejects(runSimulatorStandalone([], { SIM_PORT: '-1' }, () => undefined), /--port must be a whole number/);
});
