import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';

let h: Harness;
const channel = SIM_CHANNELS[0].id;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

before(async () => {
  h = await startHarness();
});
after(() => h.close());

test('family B success carries the full envelope', async () => {
  const res = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${channel}`);
  assert.equal(res.status, 200);
  assert.equal(res.body.success, true);
  assert.equal(res.body.message, '');
  assert.equal(res.body.status_code, 200);
  assert.match(res.body.trace_id, UUID);
  assert.deepEqual(res.body.errors, []);
  assert.equal(typeof res.body.data, 'object');
});

test('family A success is {success, data}', async () => {
  const res = await h.call('GET', `/agent-app/message-template/template/waba-status?channel_id=${channel}`);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'success']);
  assert.equal(res.body.success, true);
});

for (const [family, url] of [
  ['A', '/agent-app/message-template/template/waba-status'],
  ['B', '/api/v1/message-templates/waba-status'],
] as const) {
  test(`family ${family} missing channel_id is 400 naming the field in the error envelope`, async () => {
    const res = await h.call('GET', url);
    assert.equal(res.status, 400);
    assert.equal(res.body.success, false);
    assert.equal(res.body.status_code, 400);
    assert.match(res.body.trace_id, UUID);
    assert.equal(typeof res.body.message, 'string');
    assert.equal(res.body.errors[0].code, 'VALIDATION_FAILED');
    assert.equal(res.body.errors[0].field, 'channel_id');
  });
}

test('an unknown query field is refused and named', async () => {
  const res = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${channel}&evil=1`);
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'evil');
});

test('an unknown route is 404 ROUTE_NOT_FOUND in the envelope', async () => {
  const res = await h.call('GET', '/api/v1/nothing-here');
  assert.equal(res.status, 404);
  assert.equal(res.body.success, false);
  assert.equal(res.body.errors[0].code, 'ROUTE_NOT_FOUND');
});

test('each response has its own trace_id', async () => {
  const one = await h.call('GET', '/api/v1/channels');
  const two = await h.call('GET', '/api/v1/channels');
  assert.notEqual(one.body.trace_id, two.body.trace_id);
});

test('the OpenAPI document lists every route with its schemas', async () => {
  const res = await h.call('GET', '/docs/json', { token: null });
  assert.equal(res.status, 200);
  const paths = Object.keys(res.body.paths);
  for (const path of [
    '/agent-app/message-template/template/waba-status',
    '/api/v1/message-templates/waba-status',
    '/api/v1/channels',
    '/health',
    '/webhooks/whatsapp',
  ]) {
    assert.ok(paths.includes(path), path);
  }
  const op = res.body.paths['/api/v1/message-templates/waba-status'].get;
  assert.ok(op.parameters.some((p: { name: string; required: boolean }) => p.name === 'channel_id' && p.required));
  assert.ok(op.responses['200']);
});

test('the Swagger UI is served at /docs', async () => {
  const res = await h.call('GET', '/docs/', { token: null });
  assert.equal(res.status, 200);
  assert.match(String(res.body), /swagger/i);
});
