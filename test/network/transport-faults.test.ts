import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, test } from 'node:test';
import { createCloudApiAdapter } from '../../src/network/cloud-api/adapter.js';
import { credsOf, httpJson, networkErrorOf, startSim, type SimSetup } from './helpers.js';

const creds = credsOf();
let s: SimSetup;
before(async () => {
  s = await startSim({}, 300);
});
after(() => s.close());
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
});

test('a request held past the client timeout is NetworkError timeout, possibly sent', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { timeoutRate: 1 });
  const started = Date.now();
  const err = await networkErrorOf(s.net.getPhoneNumber(creds));
  assert.equal(err.kind, 'timeout');
  assert.equal(err.notSent, false);
  assert.ok(Date.now() - started >= 250);
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { timeoutRate: 0 });
  assert.equal((await httpJson('GET', `${s.rootUrl}/_sim/stats`)).json.injected_timeouts, 1);
});

test('a refused connection is NetworkError connection with notSent', async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const net = createCloudApiAdapter({ baseUrl: `http://127.0.0.1:${port}/v23.0`, timeoutMs: 500 });
  try {
    const err = await networkErrorOf(net.getPhoneNumber(creds));
    assert.equal(err.kind, 'connection');
    assert.equal(err.notSent, true);
    assert.equal(err.httpStatus, null);
  } finally {
    await net.close();
  }
});

test('errorRate answers the Graph 131000 error with HTTP 500', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { errorRate: 1 });
  const err = await networkErrorOf(s.net.getPhoneNumber(creds));
  assert.equal(err.kind, 'graph');
  assert.equal(err.httpStatus, 500);
  assert.equal(err.code, 131000);
  assert.equal(err.graph?.is_transient, true);
});

test('serverErrorRate answers 502/503 with a non-Graph body, which is bad_response', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { serverErrorRate: 1 });
  for (let i = 0; i < 4; i++) {
    const err = await networkErrorOf(s.net.getPhoneNumber(creds));
    assert.equal(err.kind, 'bad_response');
    assert.ok(err.httpStatus === 502 || err.httpStatus === 503, String(err.httpStatus));
    assert.equal(err.graph, undefined);
  }
});

test('latencyMs delays every Graph answer', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/faults`, { latencyMs: 120 });
  const started = Date.now();
  await s.net.getPhoneNumber(creds);
  assert.ok(Date.now() - started >= 110);
});

test('fault knobs are checked', async () => {
  const res = await httpJson('POST', `${s.rootUrl}/_sim/faults`, { errorRate: 2 });
  assert.equal(res.status, 400);
  assert.equal(res.json.error.code, 100);
  assert.equal((await httpJson('POST', `${s.rootUrl}/_sim/faults`, { noSuchKnob: 1 })).status, 400);
});

test('the same seed gives the same fault sequence', async () => {
  async function outcomes(seed: number): Promise<string> {
    const other = await startSim({ seed, faults: { errorRate: 0.5 } });
    try {
      let out = '';
      for (let i = 0; i < 24; i++) out += await other.net.getPhoneNumber(creds).then(() => '.', () => 'x');
      return out;
    } finally {
      await other.close();
    }
  }
  const a = await outcomes(7);
  assert.equal(await outcomes(7), a);
  assert.match(a, /x/);
  assert.match(a, /\./);
  assert.notEqual(await outcomes(8), a);
});

test('an answer of an unexpected shape is bad_response', async () => {
  const odd = createServer((req, res) => {
    res.writeHead(200, { 'content-type': req.url?.includes('html') ? 'text/html' : 'application/json' });
    res.end(req.url?.includes('html') ? '<html></html>' : '{"hello":1}');
  });
  await new Promise<void>((resolve) => odd.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`;
  const json = createCloudApiAdapter({ baseUrl: `${base}/v23.0` });
  const html = createCloudApiAdapter({ baseUrl: `${base}/html` });
  try {
    assert.equal((await networkErrorOf(json.getPhoneNumber(creds))).kind, 'bad_response');
    assert.equal((await networkErrorOf(html.getPhoneNumber(creds))).kind, 'bad_response');
  } finally {
    await json.close();
    await html.close();
    odd.closeAllConnections();
    await new Promise<void>((resolve) => odd.close(() => resolve()));
  }
});
