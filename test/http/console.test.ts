import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildConsole } from '../../scripts/build-console.mjs';
import { CONSOLE_NOT_BUILT } from '../../src/http/console.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
let missing: Harness;
const emptyDir = mkdtempSync(join(tmpdir(), 'tms-no-console-'));

before(async () => {
  await buildConsole({ quiet: true });
  h = await startHarness();
  missing = await startHarness({}, { consoleDir: join(emptyDir, 'dist') });
});
after(async () => {
  await h.close();
  await missing.close();
  rmSync(emptyDir, { recursive: true, force: true });
});

test('GET / serves the console page without a token, and its bundles under /assets', async () => {
  const page = await fetch(`${h.appUrl}/`);
  assert.equal(page.status, 200);
  assert.match(page.headers.get('content-type') ?? '', /text\/html/);
  const html = await page.text();
  assert.match(html, /<div id="app"><\/div>/);
  const script = /src="(\/assets\/[^"]+\.js)"/.exec(html);
  assert.ok(script, 'the page names its script bundle');
  const bundle = await fetch(`${h.appUrl}${script[1]}`);
  assert.equal(bundle.status, 200);
  assert.match(bundle.headers.get('content-type') ?? '', /javascript/);
  assert.match(bundle.headers.get('cache-control') ?? '', /immutable/);
});

test('the console does not shadow the API, /health or /docs', async () => {
  assert.equal((await h.call('GET', '/health', { token: null })).status, 200);
  assert.equal((await h.call('GET', '/docs/json', { token: null })).status, 200);
  const unknown = await h.call('GET', '/api/v1/no-such-route');
  assert.equal(unknown.status, 404);
  assert.equal(unknown.body.success, false);
  const asset = await h.call('GET', '/assets/no-such-file.js', { token: null });
  assert.equal(asset.status, 404);
  assert.equal(asset.body.success, false);
});

test('a path that climbs out of /assets is not served', async () => {
  const res = await h.call('GET', '/assets/..%2f..%2fpackage.json', { token: null });
  assert.notEqual(res.status, 200);
});

test('without a built console, / answers 503 with how to build it and the API still works', async () => {
  const res = await missing.call('GET', '/', { token: null });
  assert.equal(res.status, 503);
  assert.equal(res.body, CONSOLE_NOT_BUILT);
  assert.equal((await missing.call('GET', '/api/v1/channels')).status, 200);
});

test('GET /api/v1/me names the token\'s company', async () => {
  const res = await h.call('GET', '/api/v1/me');
  assert.equal(res.status, 200);
  assert.equal(res.body.success, true);
  assert.deepEqual(res.body.data, { company_id: h.a.companyId, name: 'Company A' });
  const b = await h.call('GET', '/api/v1/me', { token: h.b.token });
  assert.deepEqual(b.body.data, { company_id: h.b.companyId, name: 'Company B' });
});

test('GET /api/v1/me with an unknown token is 401 UNAUTHORIZED', async () => {
  const res = await h.call('GET', '/api/v1/me', { token: 'tms_not-a-real-token' });
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 'UNAUTHORIZED');
});

test('the console is served with a Content-Security-Policy, no framing, no referrer and no sniffing', async () => {
  for (const url of ['/']) {
    const res = await h.app.http.inject({ method: 'GET', url });
    assert.match(String(res.headers['content-security-policy']), /default-src 'self'.*frame-ancestors 'none'/);
    assert.equal(res.headers['x-frame-options'], 'DENY');
    assert.equal(res.headers['referrer-policy'], 'no-referrer');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  }
});
