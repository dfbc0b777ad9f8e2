import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { sql } from 'kysely';
import { canonicalJson } from '../../src/http/idempotency.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, OTHER_CHANNEL_ID, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, untilStatus } from '../support/sending.js';
import { phones, untilWizard, v1Rows } from '../support/bulk.js';
import { uniqueName, validComponents } from '../support/templates.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const SINGLE = '/agent-app/message-template/single-messagev2';
const START = '/agent-app/message-template/send-wizard/start';
const CREATE = '/agent-app/message-template/template';
let phoneNo = 0;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

/** A fresh recipient for each test. */
function nextPhone(): string {
  phoneNo += 1;
  return `9055588${String(phoneNo * 10 + 13).padStart(5, '0')}`;
}

function sendBody(phone: string, name = 'Ayse') {
  return { channel_id: channel, phone_number: phone, message_template_id: templateId, full_name: 'Ayse Y', message_template: sendParams(name) };
}

function post(url: string, body: unknown, key: string, token = h.a.token) {
  return h.call('POST', url, { token, body, headers: { 'idempotency-key': key } });
}

/** Messages stored for a recipient (a duplicate would be a second row). */
async function storedMessages(phone: string): Promise<string[]> {
  const rows = await h.store.db.selectFrom('messages').select('id').where('phone_number', '=', `+${phone}`).execute();
  return rows.map((r) => r.id);
}

/** What the simulated network received for a recipient, once the message reached it. */
async function receivedOnce(phone: string, messageId: string): Promise<number> {
  await untilStatus(h, messageId, ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN']);
  return (await simAdmin(h, `/_sim/received?to=%2B${phone}`)).messages.length;
}

/** The same request over real HTTP on the listening app. */
function fetchSend(body: unknown, key: string) {
  return fetch(`${h.appUrl}${SINGLE}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.a.token}`, 'content-type': 'application/json', 'idempotency-key': key },
    body: JSON.stringify(body),
  });
}

test('the same key and body twice answer the first result once more and send one message', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const first = await post(SINGLE, sendBody(phone), key);
  const second = await post(SINGLE, sendBody(phone), key);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.equal(second.status, 200);
  assert.deepEqual(second.body, first.body);
  assert.equal(first.headers['idempotent-replayed'], undefined);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  assert.deepEqual(await storedMessages(phone), [first.body.data.message_id]);
  assert.equal(await receivedOnce(phone, first.body.data.message_id), 1);
});

test('the body is compared as JSON: another key order is the same request', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const body = sendBody(phone);
  const reordered = Object.fromEntries(Object.entries(body).reverse());
  const first = await post(SINGLE, body, key);
  const second = await post(SINGLE, reordered, key);
  assert.equal(second.status, 200, JSON.stringify(second.body));
  assert.equal(second.body.data.message_id, first.body.data.message_id);
});

test('the same key with another body is 409 IDEMPOTENCY_KEY_REUSED and sends nothing', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const first = await post(SINGLE, sendBody(phone, 'Ayse'), key);
  assert.equal(first.status, 200);
  const other = await post(SINGLE, sendBody(phone, 'Mehmet'), key);
  assert.equal(other.status, 409, JSON.stringify(other.body));
  assert.equal(other.body.errors[0].code, 'IDEMPOTENCY_KEY_REUSED');
  assert.equal(other.body.errors[0].field, 'Idempotency-Key');
  assert.equal((await storedMessages(phone)).length, 1);
});

test('the same key on another route is 409 IDEMPOTENCY_KEY_REUSED', async () => {
  const key = randomUUID();
  assert.equal((await post(SINGLE, sendBody(nextPhone()), key)).status, 200);
  const create = await post(CREATE, { name: uniqueName('idem'), category: 'MARKETING', language: 'en_US', components: validComponents(), channel_id: channel }, key);
  assert.equal(create.status, 409, JSON.stringify(create.body));
  assert.equal(create.body.errors[0].code, 'IDEMPOTENCY_KEY_REUSED');
});

test('a key that is empty, longer than 255 characters or not printable ASCII is 400 naming the header', async () => {
  for (const key of ['', 'k'.repeat(256), 'clé-1']) {
    const res = await post(SINGLE, sendBody(nextPhone()), key);
    assert.equal(res.status, 400, `${JSON.stringify(key)}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errors[0].field, 'Idempotency-Key');
  }
  assert.equal((await post(SINGLE, sendBody(nextPhone()), 'k'.repeat(255))).status, 200);
});

test('five concurrent identical requests over HTTP run once and all answer the first result', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const answers = await Promise.all(Array.from({ length: 5 }, () => fetchSend(sendBody(phone), key)));
  const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ data: { message_id: string } }>));
  assert.deepEqual(answers.map((r) => r.status), [200, 200, 200, 200, 200], JSON.stringify(bodies));
  assert.equal(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true').length, 4);
  assert.equal(new Set(bodies.map((b) => b.data.message_id)).size, 1);
  const stored = await storedMessages(phone);
  assert.deepEqual(stored, [bodies[0].data.message_id]);
  assert.equal(await receivedOnce(phone, stored[0]), 1);
});

test('a client that gives up on its request and retries with the key gets the first result and one message', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const payload = JSON.stringify(sendBody(phone));
  // The first request reaches the service; the client then drops the connection without reading an answer.
  const first = httpRequest(`${h.appUrl}${SINGLE}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${h.a.token}`, 'content-type': 'application/json', 'idempotency-key': key },
  });
  first.on('error', () => undefined);
  first.end(payload);
  await eventually(async () => h.store.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).executeTakeFirst());
  first.destroy();
  const retry = await fetchSend(sendBody(phone), key);
  const body = (await retry.json()) as { data: { message_id: string } };
  assert.equal(retry.status, 200, JSON.stringify(body));
  const stored = await storedMessages(phone);
  assert.deepEqual(stored, [body.data.message_id]);
  assert.equal(await receivedOnce(phone, stored[0]), 1);
});

test('keys are per company: company B with A’s key and body gets its own answer, not A’s', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  assert.equal((await post(SINGLE, sendBody(phone), key)).status, 200);
  const b = await post(SINGLE, sendBody(phone), key, h.b.token);
  assert.equal(b.status, 404, JSON.stringify(b.body));
  assert.equal(b.headers['idempotent-replayed'], undefined);
});

test('keys are per company: company B may use A’s key for a request of its own', async () => {
  const key = randomUUID();
  assert.equal((await post(SINGLE, sendBody(nextPhone()), key)).status, 200);
  const b = await post(SINGLE, { ...sendBody(nextPhone()), channel_id: OTHER_CHANNEL_ID }, key, h.b.token);
  assert.notEqual(b.body.errors?.[0]?.code, 'IDEMPOTENCY_KEY_REUSED', JSON.stringify(b.body));
  assert.equal(b.headers['idempotent-replayed'], undefined);
});

test('a 4xx answer is stored and replayed like a success', async () => {
  const key = randomUUID();
  const body = { ...sendBody(nextPhone()), message_template_id: 'aaaaaaaaaaaaaaaaaaaaaaaa' };
  const first = await post(SINGLE, body, key);
  assert.equal(first.status, 404, JSON.stringify(first.body));
  const again = await post(SINGLE, body, key);
  assert.equal(again.status, 404);
  assert.deepEqual(again.body, first.body);
  assert.equal(again.headers['idempotent-replayed'], 'true');
});

test('a first attempt that failed with 5xx is not stored: the retry runs anew', async () => {
  const key = randomUUID();
  const body = { name: uniqueName('idem'), category: 'MARKETING', language: 'en_US', components: validComponents(), channel_id: channel };
  await simAdmin(h, '/_sim/faults', { serverErrorRate: 1 });
  let failed;
  try {
    failed = await post(CREATE, body, key);
  } finally {
    await simAdmin(h, '/_sim/faults', { serverErrorRate: 0 });
  }
  assert.ok(failed.status >= 500, JSON.stringify(failed.body));
  const retry = await post(CREATE, body, key);
  assert.equal(retry.status, 200, JSON.stringify(retry.body));
  assert.equal(retry.headers['idempotent-replayed'], undefined);
});

test('a template create with the same key twice creates one template', async () => {
  const key = randomUUID();
  const name = uniqueName('idem');
  const body = { name, category: 'MARKETING', language: 'en_US', components: validComponents(), channel_id: channel };
  const first = await post(CREATE, body, key);
  const second = await post(CREATE, body, key);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual(second.body, first.body);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  const rows = await h.store.db.selectFrom('templates').select('id').where('name', '=', name).execute();
  assert.equal(rows.length, 1);
});

test('family B template create honours the key too', async () => {
  const key = randomUUID();
  const body = { name: uniqueName('idemb'), category: 'MARKETING', language: 'en_US', components: validComponents(), channel_id: channel, allow_category_change: false };
  const first = await post('/api/v1/message-templates', body, key);
  const second = await post('/api/v1/message-templates', body, key);
  assert.equal(second.status, first.status, JSON.stringify(first.body));
  assert.deepEqual(second.body, first.body);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  const other = await post('/api/v1/message-templates', { ...body, name: uniqueName('idemb') }, key);
  assert.equal(other.body.errors[0].code, 'IDEMPOTENCY_KEY_REUSED');
});

test('a bulk start with the same key and body twice starts one bulk send; another body is 409', async () => {
  const numbers = phones(5, '9055599');
  const key = randomUUID();
  const body = { message_template_id: templateId, rows: v1Rows(numbers), total_time: 0, channel_id: channel };
  const first = await post(START, body, key);
  const second = await post(START, body, key);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual(second.body, first.body);
  assert.equal(second.headers['idempotent-replayed'], 'true');
  const other = await post(START, { ...body, total_time: 1 }, key);
  assert.equal(other.status, 409, JSON.stringify(other.body));
  assert.equal(other.body.errors[0].code, 'IDEMPOTENCY_KEY_REUSED');
  const wizards = await h.store.db.selectFrom('send_wizards').select('id').where('company_id', '=', h.a.companyId).where('summary', '=', 5).execute();
  assert.deepEqual(wizards.map((w) => w.id), [first.body.data.send_wizard_id]);
  await untilWizard(h, channel, first.body.data.send_wizard_id, ['COMPLETED']);
  for (const n of numbers) assert.equal((await simAdmin(h, `/_sim/received?to=%2B${n}`)).messages.length, 1, n);
});

test('a reservation still held by a running attempt answers 409 IDEMPOTENCY_KEY_IN_PROGRESS and runs nothing', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const body = sendBody(phone);
  const hash = createHash('sha256').update(`POST ${SINGLE}\n${canonicalJson(body)}`).digest('hex');
  await h.store.db
    .insertInto('idempotency_keys')
    .values({ company_id: h.a.companyId, key, request_hash: hash, state: 'IN_PROGRESS', owner: 'another-instance', locked_until: new Date(Date.now() + 600_000) })
    .execute();
  const res = await post(SINGLE, body, key);
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'IDEMPOTENCY_KEY_IN_PROGRESS');
  assert.equal(res.headers['retry-after'], '1');
  assert.deepEqual(await storedMessages(phone), []);
});

test('a reservation whose owner died (lease over) is taken over by the retry, which runs once', async () => {
  const phone = nextPhone();
  const key = randomUUID();
  const body = sendBody(phone);
  const hash = createHash('sha256').update(`POST ${SINGLE}\n${canonicalJson(body)}`).digest('hex');
  await h.store.db
    .insertInto('idempotency_keys')
    .values({ company_id: h.a.companyId, key, request_hash: hash, state: 'IN_PROGRESS', owner: 'dead-instance', locked_until: new Date(Date.now() - 1000) })
    .execute();
  const res = await post(SINGLE, body, key);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(await storedMessages(phone), [res.body.data.message_id]);
  const again = await post(SINGLE, body, key);
  assert.equal(again.body.data.message_id, res.body.data.message_id);
});

test('keys older than 24 hours are purged by maintenance and the key can be used again', async () => {
  const old = randomUUID();
  const fresh = randomUUID();
  assert.equal((await post(SINGLE, sendBody(nextPhone()), old)).status, 200);
  assert.equal((await post(SINGLE, sendBody(nextPhone()), fresh)).status, 200);
  await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${old}`.execute(h.store.db);
  await h.app.dispatcher.maintain();
  const keys = (await h.store.db.selectFrom('idempotency_keys').select('key').where('key', 'in', [old, fresh]).execute()).map((r) => r.key);
  assert.deepEqual(keys, [fresh]);
  const reused = await post(SINGLE, sendBody(nextPhone()), old);
  assert.equal(reused.status, 200, JSON.stringify(reused.body));
  assert.equal(reused.headers['idempotent-replayed'], undefined);
});

test('an expired key not yet purged answers as new, not as its old result', async () => {
  const key = randomUUID();
  const first = await post(SINGLE, sendBody(nextPhone()), key);
  await sql`update idempotency_keys set created_at = now() - interval '25 hours' where key = ${key}`.execute(h.store.db);
  const next = await post(SINGLE, sendBody(nextPhone()), key);
  assert.equal(next.status, 200, JSON.stringify(next.body));
  assert.notEqual(next.body.data.message_id, first.body.data.message_id);
});
