/** Paths as Graph serves them (with or without a version; unknown objects and edges), and the request log. */
import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/index.js';
import { AUTH, httpJson, startSim, type SimSetup } from './helpers.js';

let s: SimSetup;
before(async () => {
  s = await startSim();
});
after(() => s.close());
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
});

const graph = (method: string, path: string, body?: unknown) => httpJson(method, `${s.rootUrl}${path}`, body, AUTH);
const requests = async () => (await httpJson('GET', `${s.rootUrl}/_sim/requests`)).json;

test('unversioned paths are served exactly like versioned ones', async () => {
  for (const path of [`/${SIM_CHANNEL_IDS.main}?fields=status`, `/${SIM_WABA_ID}/message_templates`, `/${SIM_WABA_ID}/phone_numbers?fields=id`]) {
    const versioned = await graph('GET', `/v23.0${path}`);
    const bare = await graph('GET', path);
    assert.equal(bare.status, 200, path);
    assert.deepEqual(bare.json, versioned.json, path);
  }
  const session = await graph('POST', `/${SIM_APP_ID}/uploads?file_name=a.png&file_length=3&file_type=image/png`);
  assert.equal(session.status, 200);
  const chunk = await fetch(`${s.rootUrl}/${session.json.id}`, { method: 'POST', headers: { ...AUTH, file_offset: '0', 'content-type': 'application/octet-stream' }, body: 'abc' });
  assert.equal(chunk.status, 200);
  assert.match(((await chunk.json()) as { h: string }).h, /^4::/);
});

test('an unknown object answers 100/33 with or without an edge; an unknown edge of a known object answers 2500', async () => {
  for (const [method, path] of [['GET', '/999'], ['POST', '/999/messages'], ['GET', '/v23.0/999/anything'], ['POST', '/v1/contacts'], ['POST', '/v23.0/v1/contacts']]) {
    const res = await graph(method, path, method === 'POST' ? {} : undefined);
    assert.equal(res.status, 400, path);
    assert.deepEqual([res.json.error.type, res.json.error.code, res.json.error.error_subcode], ['GraphMethodException', 100, 33], path);
    assert.match(res.json.error.message, new RegExp(`^Unsupported ${method.toLowerCase()} request\\. Object with ID '(999|v1)'`), path);
  }
  const edge = await graph('GET', `/${SIM_CHANNEL_IDS.main}/foo`);
  assert.equal(edge.status, 400);
  assert.deepEqual([edge.json.error.code, edge.json.error.message], [2500, 'Unknown path components: /foo']);
});

test('the request log lists each Graph call without its query and flags unknown paths', async () => {
  await graph('GET', `/v23.0/${SIM_CHANNEL_IDS.main}?fields=status`);
  await graph('POST', '/v1/contacts', { contacts: ['+15550101234'] });
  await graph('GET', `/${SIM_CHANNEL_IDS.main}/foo`);
  await httpJson('GET', `${s.rootUrl}/_sim/stats`);
  const log = await requests();
  assert.deepEqual(log, {
    total: 3,
    unknown_paths: 2,
    items: [
      { method: 'GET', path: `/v23.0/${SIM_CHANNEL_IDS.main}`, status: 200, unknown_path: false },
      { method: 'POST', path: '/v1/contacts', status: 400, error_code: 100, unknown_path: true },
      { method: 'GET', path: `/${SIM_CHANNEL_IDS.main}/foo`, status: 400, error_code: 2500, unknown_path: true },
    ],
  });
});

test('a refused send is logged with its error code and is not an unknown path', async () => {
  await graph('POST', `/${SIM_CHANNEL_IDS.flagged}/messages`, { messaging_product: 'whatsapp', to: '+15550101234', type: 'template', template: { name: 'x', language: { code: 'en_US' } } });
  const [item] = (await requests()).items;
  assert.deepEqual(item, { method: 'POST', path: `/${SIM_CHANNEL_IDS.flagged}/messages`, status: 400, error_code: 131048, unknown_path: false });
});

test('the request log keeps the last 2,000 requests and counts all of them; clear and reset empty it', async () => {
  const paths = Array.from({ length: 2010 }, (_, i) => `/v23.0/${SIM_CHANNEL_IDS.main}?n=${i}`);
  for (let i = 0; i < paths.length; i += 100) await Promise.all(paths.slice(i, i + 100).map((p) => graph('GET', p)));
  await graph('GET', '/999');
  const log = await requests();
  assert.equal(log.total, 2011);
  assert.equal(log.unknown_paths, 1);
  assert.equal(log.items.length, 2000);
  assert.deepEqual(log.items.at(-1), { method: 'GET', path: '/999', status: 400, error_code: 100, unknown_path: true });
  await httpJson('POST', `${s.rootUrl}/_sim/requests/clear`);
  assert.deepEqual(await requests(), { total: 0, unknown_paths: 0, items: [] });
  await graph('GET', '/999');
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  assert.deepEqual(await requests(), { total: 0, unknown_paths: 0, items: [] });
});
