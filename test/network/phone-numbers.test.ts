import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/index.js';
import { AUTH, assertSameShape, credsOf, fixture, httpJson, networkErrorOf, startSim, type SimSetup } from './helpers.js';

let s: SimSetup;
before(async () => {
  s = await startSim();
});
after(() => s.close());

const expected = [
  { status: 'CONNECTED', quality_rating: 'GREEN', messaging_limit_tier: 'TIER_UNLIMITED' },
  { status: 'FLAGGED', quality_rating: 'YELLOW', messaging_limit_tier: 'TIER_2K' },
  { status: 'CONNECTED', quality_rating: 'RED', messaging_limit_tier: 'TIER_2K' },
  { status: 'CONNECTED', quality_rating: 'GREEN', messaging_limit_tier: 'TIER_50' },
];

SIM_CHANNELS.forEach((channel, i) => {
  test(`getPhoneNumber reads ${channel.verifiedName} as ${expected[i].status}/${expected[i].quality_rating}/${expected[i].messaging_limit_tier}`, async () => {
    const info = await s.net.getPhoneNumber(credsOf(channel.id));
    assert.deepEqual(
      [info.id, info.display_phone_number, info.verified_name, info.status, info.quality_rating, info.messaging_limit_tier, info.throughput_level],
      [channel.id, channel.displayPhoneNumber, channel.verifiedName, expected[i].status, expected[i].quality_rating, expected[i].messaging_limit_tier, 'STANDARD'],
    );
  });
});

test('the numbers answer the current tier field; only Demo Small still answers the deprecated one', async () => {
  const fields = 'whatsapp_business_manager_messaging_limit,messaging_limit_tier';
  const answers = await Promise.all(SIM_CHANNELS.map(async (c) => (await httpJson('GET', `${s.url}/${c.id}?fields=${fields}`, undefined, AUTH)).json));
  assert.deepEqual(answers, [
    { whatsapp_business_manager_messaging_limit: 'TIER_UNLIMITED', id: SIM_CHANNELS[0].id },
    { whatsapp_business_manager_messaging_limit: 'TIER_2K', id: SIM_CHANNELS[1].id },
    { whatsapp_business_manager_messaging_limit: 'TIER_2K', id: SIM_CHANNELS[2].id },
    { messaging_limit_tier: 'TIER_50', id: SIM_CHANNELS[3].id },
  ]);
});

test('the admin changes the tier fields (null removes one) and the account mode', async () => {
  const id = SIM_CHANNELS[0].id;
  try {
    const changed = await httpJson('POST', `${s.rootUrl}/_sim/channels/${id}`, {
      whatsapp_business_manager_messaging_limit: null, messaging_limit_tier: 'TIER_250', account_mode: 'SANDBOX',
    });
    assert.equal(changed.status, 200);
    const node = (await httpJson('GET', `${s.url}/${id}?fields=whatsapp_business_manager_messaging_limit,messaging_limit_tier,account_mode`, undefined, AUTH)).json;
    assert.deepEqual(node, { messaging_limit_tier: 'TIER_250', account_mode: 'SANDBOX', id });
    assert.equal((await s.net.getPhoneNumber(credsOf(id))).messaging_limit_tier, 'TIER_250');
    const bad = await httpJson('POST', `${s.rootUrl}/_sim/channels/${id}`, { account_mode: 'TEST' });
    assert.equal(bad.status, 400);
  } finally {
    await httpJson('POST', `${s.rootUrl}/_sim/channels/${id}`, { whatsapp_business_manager_messaging_limit: 'TIER_UNLIMITED', messaging_limit_tier: null, account_mode: 'LIVE' });
  }
});

test('an unknown phone number id is a graph NetworkError 100/33 shaped like the fixture', async () => {
  const err = await networkErrorOf(s.net.getPhoneNumber(credsOf('454545')));
  assert.equal(err.kind, 'graph');
  assert.equal(err.httpStatus, 400);
  assert.equal(err.code, 100);
  assert.equal(err.graph?.error_subcode, 33);
  const raw = await httpJson('GET', `${s.url}/454545`, undefined, AUTH);
  const real = fixture('graph_error_100_object_not_found__java-sdk') as { error: { message: string } };
  assertSameShape(raw.json, real);
  assert.equal(raw.json.error.message, real.error.message);
});

test('a wrong access token is a graph NetworkError 190 with HTTP 401', async () => {
  const err = await networkErrorOf(s.net.getPhoneNumber(credsOf(SIM_CHANNELS[0].id, 'not-the-token')));
  assert.equal(err.kind, 'graph');
  assert.equal(err.httpStatus, 401);
  assert.equal(err.code, 190);
  assert.equal(err.graph?.type, 'OAuthException');
});

test('a request without a token is refused with 190', async () => {
  const raw = await httpJson('GET', `${s.url}/${SIM_CHANNELS[0].id}`);
  assert.equal(raw.status, 401);
  assert.equal(raw.json.error.code, 190);
});

test('without fields the phone number answers the default fields of the docs example', async () => {
  const raw = await httpJson('GET', `${s.url}/${SIM_CHANNELS[0].id}`, undefined, AUTH);
  assertSameShape(raw.json, fixture('graph_get_phone_number__meta-docs'));
});

test('fields= selects fields and an unknown field is Graph error 100', async () => {
  const picked = await httpJson('GET', `${s.url}/${SIM_CHANNELS[1].id}?fields=status,whatsapp_business_manager_messaging_limit`, undefined, AUTH);
  assert.deepEqual(picked.json, { status: 'FLAGGED', whatsapp_business_manager_messaging_limit: 'TIER_2K', id: SIM_CHANNELS[1].id });
  const bad = await httpJson('GET', `${s.url}/${SIM_CHANNELS[1].id}?fields=status,colour`, undefined, AUTH);
  assert.equal(bad.status, 400);
  assert.equal(bad.json.error.code, 100);
  assert.match(bad.json.error.message, /nonexisting field \(colour\)/);
});

test('the WABA lists its four phone numbers with paging cursors like the real answer', async () => {
  const raw = await httpJson('GET', `${s.url}/${SIM_WABA_ID}/phone_numbers?fields=id,display_phone_number,verified_name,status,quality_rating,account_mode`, undefined, AUTH);
  assert.deepEqual(raw.json.data.map((p: { id: string }) => p.id), SIM_CHANNELS.map((c) => c.id));
  const real = fixture('graph_list_phone_numbers__ruby-sdk-vcr') as { data: Record<string, unknown>[] };
  const fields = ['id', 'display_phone_number', 'verified_name', 'status', 'quality_rating', 'account_mode'];
  const trimmed = { ...real, data: real.data.map((p) => Object.fromEntries(fields.map((f) => [f, p[f]]))) };
  assertSameShape(raw.json, trimmed);
});

test('an unknown path answers a Graph error, not an HTML 404', async () => {
  const raw = await httpJson('GET', `${s.url}/${SIM_WABA_ID}/phone_numbers/extra`, undefined, AUTH);
  assert.equal(raw.status, 400);
  assert.equal(raw.json.error.code, 2500);
});

test('the admin adds a number to the WABA: it reads CONNECTED/GREEN/TIER_UNLIMITED, a second add is 409', async () => {
  const id = '110000000000077';
  const added = await httpJson('POST', `${s.rootUrl}/_sim/channels`, { id, verified_name: 'Bench 77' });
  assert.equal(added.status, 200);
  const info = await s.net.getPhoneNumber(credsOf(id));
  assert.deepEqual([info.id, info.verified_name, info.status, info.quality_rating, info.messaging_limit_tier], [id, 'Bench 77', 'CONNECTED', 'GREEN', 'TIER_UNLIMITED']);
  assert.equal((await httpJson('POST', `${s.rootUrl}/_sim/channels`, { id })).status, 409);
  assert.equal((await httpJson('POST', `${s.rootUrl}/_sim/channels`, { id: 'abc' })).status, 400);
});
