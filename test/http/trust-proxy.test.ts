import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { startHarness, type Harness } from '../support/harness.js';

// TRUST_PROXY: X-Forwarded-For names the client only when the immediate peer is a listed proxy; the per-address
// throttle of invalid tokens then counts by that client, and a forged header from any other peer changes nothing.

let h: Harness;

before(async () => {
  h = await startHarness({}, {}, { AUTH_FAILURES_PER_MINUTE: '3', TRUST_PROXY: '10.9.0.1, 10.8.0.0/16' });
});
after(() => h.close());

/** A token no company has, with a prefix of its own (the throttle also counts per prefix). */
function guess(): string {
  return `tms_${randomBytes(12).toString('hex')}`;
}

function me(token: string, peer: string, forwardedFor?: string) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (forwardedFor !== undefined) headers['x-forwarded-for'] = forwardedFor;
  return h.app.http.inject({ method: 'GET', url: '/api/v1/me', headers, remoteAddress: peer });
}

test('an untrusted peer with a forged X-Forwarded-For is throttled by its own address', async () => {
  for (let i = 0; i < 3; i++) assert.equal((await me(guess(), '192.0.2.10', `198.51.100.${i + 1}`)).statusCode, 401);
  const throttled = await me(h.a.token, '192.0.2.10', '198.51.100.200');
  assert.equal(throttled.statusCode, 429, throttled.body);
  assert.equal(throttled.json().errors[0].code, 'RATE_LIMITED');
  // Nor can another untrusted peer shift the blame: naming the throttled address in the header does not throttle it.
  assert.equal((await me(h.a.token, '192.0.2.11', '192.0.2.10')).statusCode, 200);
});

test('behind a trusted proxy each forwarded client is throttled on its own', async () => {
  for (let i = 0; i < 3; i++) assert.equal((await me(guess(), '10.9.0.1', '203.0.113.5')).statusCode, 401);
  const throttled = await me(h.a.token, '10.9.0.1', '203.0.113.5');
  assert.equal(throttled.statusCode, 429, throttled.body);
  // Another client through the same proxy, and the proxy itself, are not.
  assert.equal((await me(h.a.token, '10.9.0.1', '203.0.113.6')).statusCode, 200);
  assert.equal((await me(h.a.token, '10.9.0.1')).statusCode, 200);
});

test('the client is the nearest untrusted address of the chain; entries a client prepends are ignored', async () => {
  // Through two trusted hops (10.8.0.0/16 then 10.9.0.1) the client is 203.0.113.20, whatever it put before itself.
  for (let i = 0; i < 3; i++) assert.equal((await me(guess(), '10.9.0.1', `6.6.6.${i}, 203.0.113.20, 10.8.4.2`)).statusCode, 401);
  assert.equal((await me(h.a.token, '10.9.0.1', '203.0.113.20')).statusCode, 429);
  assert.equal((await me(h.a.token, '10.9.0.1', '6.6.6.0')).statusCode, 200);
});
