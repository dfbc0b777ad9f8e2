import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startHarness, type Harness } from '../support/harness.js';

// Invalid tokens are throttled per client address and per token prefix: past the limit, 429 with Retry-After.

let h: Harness;

before(async () => {
  h = await startHarness({}, {}, { AUTH_FAILURES_PER_MINUTE: '5' });
});
after(() => h.close());

function me(token: string, ip = '127.0.0.1') {
  return h.app.http.inject({ method: 'GET', url: '/api/v1/me', headers: { authorization: `Bearer ${token}` }, remoteAddress: ip });
}

test('an address past its limit of invalid tokens gets 429 with Retry-After, even for a valid token', async () => {
  for (let i = 0; i < 5; i++) assert.equal((await me(`tms_guess${i}xxxxxxxxxxxx`, '10.0.0.1')).statusCode, 401);
  const throttled = await me('tms_guess9xxxxxxxxxxxx', '10.0.0.1');
  assert.equal(throttled.statusCode, 429, throttled.body);
  assert.equal(throttled.json().errors[0].code, 'RATE_LIMITED');
  const wait = Number(throttled.headers['retry-after']);
  assert.ok(wait >= 1 && wait <= 60, `Retry-After ${wait}`);
  assert.equal((await me(h.a.token, '10.0.0.1')).statusCode, 429);
  assert.equal((await me(h.a.token, '10.0.0.2')).statusCode, 200);
});

test('a token prefix past its limit is throttled from every address', async () => {
  for (let i = 0; i < 5; i++) assert.equal((await me(`tms_samepfxQ${i}yyyyyyy`, `10.1.0.${i + 1}`)).statusCode, 401);
  const throttled = await me('tms_samepfxQZyyyyyyy', '10.1.0.99');
  assert.equal(throttled.statusCode, 429, throttled.body);
  assert.ok(Number(throttled.headers['retry-after']) >= 1);
});

test('valid tokens are never counted', async () => {
  for (let i = 0; i < 12; i++) assert.equal((await me(h.a.token, '10.2.0.1')).statusCode, 200);
});
