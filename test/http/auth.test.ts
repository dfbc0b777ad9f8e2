import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createToken, revokeToken } from '../../src/admin.js';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
const channel = SIM_CHANNELS[0].id;
const routes = [
  `/agent-app/message-template/template/waba-status?channel_id=${channel}`,
  `/api/v1/message-templates/waba-status?channel_id=${channel}`,
  '/api/v1/channels',
];

before(async () => {
  h = await startHarness();
});
after(() => h.close());

for (const url of routes) {
  test(`no Authorization header is 401 UNAUTHORIZED on ${url.split('?')[0]}`, async () => {
    const res = await h.call('GET', url, { token: null });
    assert.equal(res.status, 401);
    assert.equal(res.body.success, false);
    assert.equal(res.body.status_code, 401);
    assert.equal(res.body.errors[0].code, 'UNAUTHORIZED');
  });
}

test('a Basic scheme is 401', async () => {
  const res = await h.call('GET', routes[2], { token: null, headers: { authorization: `Basic ${h.a.token}` } });
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 'UNAUTHORIZED');
});

test('an unknown token is 401', async () => {
  const res = await h.call('GET', routes[2], { token: 'tms_not-a-real-token' });
  assert.equal(res.status, 401);
});

test('a revoked token is 401 and a fresh one of the same company works', async () => {
  const made = await createToken(h.store.db, h.a.companyId, 'to revoke');
  assert.equal((await h.call('GET', routes[2], { token: made.token })).status, 200);
  assert.equal(await revokeToken(h.store.db, made.tokenId), true);
  assert.equal((await h.call('GET', routes[2], { token: made.token })).status, 401);
});

test('a valid token is accepted on every family route', async () => {
  for (const url of routes) assert.equal((await h.call('GET', url)).status, 200, url);
});

test('the token is stored only as its SHA-256 hash', async () => {
  const rows = await h.store.db.selectFrom('api_tokens').select('token_hash').execute();
  for (const row of rows) {
    assert.match(row.token_hash, /^[0-9a-f]{64}$/);
    assert.notEqual(row.token_hash, h.a.token);
  }
});

test('health needs no token', async () => {
  const res = await h.call('GET', '/health', { token: null });
  assert.equal(res.status, 200);
  assert.equal(res.body.status, 'ok');
});
