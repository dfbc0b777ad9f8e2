import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { signWebhookBody } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNELS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { updateChannelHealth } from '../../src/store/channels.js';
import { insertWebhookEvent } from '../../src/store/webhook-events.js';
import { bodyPhoneNumberId } from '../../src/domain/webhook-channels.js';
import { eventually, OTHER_CHANNEL_ID, startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';

let h: Harness;
const FIXTURES = new URL('../fixtures/meta/', import.meta.url);

before(async () => {
  h = await startHarness();
});
after(() => h.close());

async function post(body: string | Buffer, signature: string | undefined) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['x-hub-signature-256'] = signature;
  const res = await h.app.http.inject({ method: 'POST', url: '/webhooks/whatsapp', headers, payload: body });
  return { status: res.statusCode, body: res.json() };
}

async function eventCount(): Promise<number> {
  const row = await h.store.db.selectFrom('webhook_events').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

const sample = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: '1', changes: [] }] });

test('the verification handshake echoes the challenge', async () => {
  const res = await h.app.http.inject({
    method: 'GET',
    url: '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=test-verify&hub.challenge=1158201444',
  });
  assert.equal(res.statusCode, 200);
  assert.equal(res.body, '1158201444');
});

test('a wrong verify token is refused', async () => {
  const res = await h.app.http.inject({
    method: 'GET',
    url: '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=nope&hub.challenge=1',
  });
  assert.equal(res.statusCode, 403);
  assert.equal(res.json().errors[0].code, 'WEBHOOK_VERIFY_FAILED');
});

test('a validly signed body is stored and answered 200', async () => {
  const before = await eventCount();
  const res = await post(sample, signWebhookBody(sample, TEST_APP_SECRET));
  assert.equal(res.status, 200);
  assert.equal(await eventCount(), before + 1);
});

test('a body signed with another secret is 401, stores nothing, and is counted', async () => {
  const before = await eventCount();
  const rejectedBefore = (await h.call('GET', '/health', { token: null })).body.webhooks_rejected;
  const res = await post(sample, signWebhookBody(sample, 'forged-secret'));
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 'WEBHOOK_SIGNATURE_INVALID');
  assert.equal(await eventCount(), before);
  assert.equal((await h.call('GET', '/health', { token: null })).body.webhooks_rejected, rejectedBefore + 1);
});

test('a missing signature is 401 and stores nothing', async () => {
  const before = await eventCount();
  assert.equal((await post(sample, undefined)).status, 401);
  assert.equal(await eventCount(), before);
});

test('a body altered by one byte after signing is 401', async () => {
  const signature = signWebhookBody(sample, TEST_APP_SECRET);
  const altered = Buffer.from(sample);
  altered[altered.length - 3] ^= 1;
  const before = await eventCount();
  assert.equal((await post(altered, signature)).status, 401);
  assert.equal(await eventCount(), before);
});

test('a signature is checked before the body is parsed (forged garbage is 401, not 400)', async () => {
  assert.equal((await post('{not json', signWebhookBody('{not json', 'forged'))).status, 401);
});

test('a signed body that is not JSON is 400 and stores nothing', async () => {
  const before = await eventCount();
  const res = await post('{not json', signWebhookBody('{not json', TEST_APP_SECRET));
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'INVALID_JSON');
  assert.equal(await eventCount(), before);
});

const fixtureFiles = readdirSync(FIXTURES).filter((f) => f.startsWith('webhook_') && f.endsWith('.json'));
test('the fixtures directory has webhook bodies', () => assert.ok(fixtureFiles.length >= 10));
for (const file of fixtureFiles) {
  test(`the real webhook body ${file} is accepted and applied`, async () => {
    const body = readFileSync(new URL(file, FIXTURES));
    const res = await post(body, signWebhookBody(body, TEST_APP_SECRET));
    assert.equal(res.status, 200);
    const id = res.body.event_id;
    const row = await eventually(async () => {
      const event = await h.store.db.selectFrom('webhook_events').selectAll().where('id', '=', id).executeTakeFirst();
      return event?.state === 'APPLIED' ? event : undefined;
    });
    assert.equal(row.body, body.toString('utf8'));
  });
}

test('a phone_number_quality_update FLAGGED webhook flags the channel and sets its tier', async () => {
  await updateChannelHealth(h.store.db, OTHER_CHANNEL_ID, { display_phone_number: '+1 650-555-1111', status: 'CONNECTED' }, true);
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '990000000000000', time: 1, changes: [{ field: 'phone_number_quality_update', value: { display_phone_number: '16505551111', event: 'FLAGGED', current_limit: 'TIER_10K' } }] }],
  });
  assert.equal((await post(body, signWebhookBody(body, TEST_APP_SECRET))).status, 200);
  const channel = await eventually(async () => {
    const row = await h.store.db.selectFrom('channels').selectAll().where('id', '=', OTHER_CHANNEL_ID).executeTakeFirst();
    return row?.status === 'FLAGGED' ? row : undefined;
  });
  assert.equal(channel.messaging_limit_tier, 'TIER_10K');
});

test('a forged quality webhook changes nothing', async () => {
  const target = SIM_CHANNELS[0];
  await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${target.id}`);
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: SIM_WABA_ID, changes: [{ field: 'phone_number_quality_update', value: { display_phone_number: target.webhookDisplayNumber, event: 'FLAGGED', current_limit: 'TIER_50' } }] }],
  });
  assert.equal((await post(body, signWebhookBody(body, 'forged'))).status, 401);
  const row = await h.store.db.selectFrom('channels').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
  assert.equal(row.status, 'CONNECTED');
});

test('the simulator flagging a channel reaches the service by signed webhook', async () => {
  const target = SIM_CHANNELS[0];
  const res = await fetch(`${new URL(h.simulatorUrl).origin}/_sim/channels/${target.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'FLAGGED' }),
  });
  assert.equal(res.status, 200);
  await eventually(async () => {
    const status = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${target.id}`);
    return status.body.data.status === 'FLAGGED';
  });
  await fetch(`${new URL(h.simulatorUrl).origin}/_sim/channels/${target.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'CONNECTED' }),
  });
  await eventually(async () => {
    const status = await h.call('GET', `/agent-app/message-template/template/waba-status?channel_id=${target.id}`);
    return status.body.data.status === 'CONNECTED';
  });
});

test('the simulator turning quality RED reaches the service', async () => {
  const target = SIM_CHANNELS[0];
  await fetch(`${new URL(h.simulatorUrl).origin}/_sim/channels/${target.id}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ quality_rating: 'RED' }),
  });
  await eventually(async () => {
    const status = await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${target.id}`);
    return status.body.data.quality_rating === 'RED';
  });
});

test('an event stored but not applied before a crash is applied on the next drain', async () => {
  await updateChannelHealth(h.store.db, OTHER_CHANNEL_ID, { status: 'CONNECTED', messaging_limit_tier: 'TIER_1K' }, true);
  const body = JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [{ id: '990000000000000', changes: [{ field: 'phone_number_quality_update', value: { display_phone_number: '16505551111', event: 'DOWNGRADE', current_limit: 'TIER_250' } }] }],
  });
  const id = await insertWebhookEvent(h.store.db, { body, phoneNumberId: bodyPhoneNumberId(JSON.parse(body)) }); // stored, never applied: as if the process died here
  await h.app.webhookInbox.drain();
  const event = await h.store.db.selectFrom('webhook_events').select('state').where('id', '=', id).executeTakeFirstOrThrow();
  assert.equal(event.state, 'APPLIED');
  const row = await h.store.db.selectFrom('channels').selectAll().where('id', '=', OTHER_CHANNEL_ID).executeTakeFirstOrThrow();
  assert.equal(row.messaging_limit_tier, 'TIER_250');
});

test('webhook POSTs sent together are each answered with their own event id and stored with their own body', async () => {
  const bodies = Array.from({ length: 20 }, (_, i) => JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: `together-${i}`, changes: [] }] }));
  const answers = await Promise.all(bodies.map((b) => post(b, signWebhookBody(b, TEST_APP_SECRET))));
  assert.deepEqual(answers.map((a) => a.status), bodies.map(() => 200));
  const ids = answers.map((a) => a.body.event_id as string);
  assert.equal(new Set(ids).size, bodies.length);
  const stored = await h.store.db.selectFrom('webhook_events').select(['id', 'body']).where('id', 'in', ids).execute();
  assert.deepEqual(new Map(stored.map((r) => [String(r.id), r.body])), new Map(ids.map((id, i) => [id, bodies[i]])));
});

test('bodies received while a store is running go together in the next statement (group commit)', async () => {
  const bodies = Array.from({ length: 20 }, (_, i) => JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: `grouped-${i}`, changes: [] }] }));
  const statementsBefore = h.app.webhookInbox.storeStatements;
  // The first starts a store at once; the other 19 arrive while it runs and share the next one.
  const ids = await Promise.all(bodies.map((b) => h.app.webhookInbox.receive(b)));
  assert.equal(h.app.webhookInbox.storeStatements - statementsBefore, 2);
  const stored = await h.store.db.selectFrom('webhook_events').select(['id', 'body']).where('id', 'in', ids).execute();
  assert.deepEqual(new Map(stored.map((r) => [String(r.id), r.body])), new Map(ids.map((id, i) => [id, bodies[i]])));
});

test('a body the database refuses fails alone: the others stored with it are kept', async () => {
  const good = [1, 2].map((i) => JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: `kept-${i}`, changes: [] }] }));
  const results = await Promise.allSettled([h.app.webhookInbox.receive(good[0]), h.app.webhookInbox.receive('{"entry":[]}\u0000'), h.app.webhookInbox.receive(good[1])]);
  assert.deepEqual(results.map((r) => r.status), ['fulfilled', 'rejected', 'fulfilled']);
  const ids = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const stored = await h.store.db.selectFrom('webhook_events').select('body').where('id', 'in', ids).orderBy('id').execute();
  assert.deepEqual(stored.map((r) => r.body), good);
});
