import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';
import { phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';

const METRICS_TOKEN = 'metrics-test-token-0123456789';
const main = SIM_CHANNEL_IDS.main;
let h: Harness;
let template: string;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } }, { metricsCacheMs: 0 }, { METRICS_TOKEN });
  template = await approvedTemplate(h, main);
});
after(() => h.close());

async function scrape(token: string | null = METRICS_TOKEN) {
  const res = await h.app.http.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: res.statusCode, body: res.body, type: String(res.headers['content-type']) };
}

/** The value of one sample line `name{labels} value`, labels given in any order; undefined when absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

test('GET /metrics without the metrics token, or with a company token, is 401 in the error envelope', async () => {
  const none = await scrape(null);
  assert.equal(none.status, 401);
  assert.equal(JSON.parse(none.body).errors[0].code, 'UNAUTHORIZED');
  const company = await scrape(h.a.token);
  assert.equal(company.status, 401);
});

test('GET /metrics with the token answers Prometheus text with the service, pool and process metrics', async () => {
  const res = await scrape();
  assert.equal(res.status, 200, res.body);
  assert.match(res.type, /^text\/plain; version=0\.0\.4/);
  for (const name of [
    'tms_queue_oldest_due_age_seconds', 'tms_webhook_inbox_pending', 'tms_webhook_inbox_lag_seconds', 'tms_webhooks_rejected_total',
    'tms_db_pool_connections', 'tms_db_pool_idle', 'tms_db_pool_waiting', 'tms_shutting_down', 'tms_metrics_db_read_seconds',
    'process_cpu_user_seconds_total', 'nodejs_eventloop_lag_seconds',
  ]) {
    assert.ok(res.body.includes(`\n${name}`) || res.body.startsWith(name), `${name} missing`);
  }
  assert.equal(sample(res.body, 'tms_queue_oldest_due_age_seconds', { channel_id: main }), 0);
  assert.equal(sample(res.body, 'tms_shutting_down'), 0);
  assert.ok((sample(res.body, 'tms_db_pool_connections') ?? 0) >= 1);
});

test('bulk counters, queue depth and HTTP latency by route pattern move after a bulk send', async () => {
  const before = (await scrape()).body;
  const sentBefore = sample(before, 'tms_bulk_messages', { channel_id: main, counter: 'processed_count' }) ?? 0;
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(12, '9055630')), total_time: 0, channel_id: main });
  await untilWizard(h, main, id, ['COMPLETED']);
  const after = (await scrape()).body;
  assert.equal(sample(after, 'tms_bulk_messages', { channel_id: main, counter: 'processed_count' }), sentBefore + 12);
  assert.ok((sample(after, 'tms_bulk_messages', { channel_id: main, counter: 'summary' }) ?? 0) >= 12);
  assert.equal(sample(after, 'tms_queue_depth', { channel_id: main }), 0);
  assert.ok((sample(after, 'tms_bulk_sends', { channel_id: main, status: 'COMPLETED' }) ?? 0) >= 1);
  // The start was timed under its route pattern, never the raw URL; the probe's query string does not make a new label.
  assert.ok(
    (sample(after, 'tms_http_request_duration_seconds_count', { route: '/agent-app/message-template/send-wizard/start', method: 'POST', status_code: '200' }) ?? 0) >= 1,
  );
  await h.app.http.inject({ method: 'GET', url: '/api/v1/message-templates/some-unknown-id?channel_id=1', headers: { authorization: `Bearer ${h.a.token}` } });
  const labelled = (await scrape()).body;
  assert.ok(!labelled.includes('some-unknown-id'), 'a raw URL became a label');
});

test('single sends are counted by channel and status, apart from the bulk rows', async () => {
  const total = (text: string) =>
    text.split('\n').filter((l) => l.startsWith('tms_single_messages{') && l.includes(`channel_id="${main}"`)).reduce((n, l) => n + Number(l.split(' ').pop()), 0);
  const before = (await scrape()).body;
  const count = (text: string, status: string) => sample(text, 'tms_single_messages', { channel_id: main, status }) ?? 0;
  // The simulator reads a message to a number ending 012 and fails one to a number ending 000.
  for (const [phone, status] of [['905556300012', 'BACKEND_SEEN'], ['905556300000', 'BACKEND_FAILED']]) {
    const res = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, full_name: 'Ayse Y', message_template: sendParams() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    await untilStatus(h, res.body.data.message_id, [status]);
  }
  const after = (await scrape()).body;
  assert.equal(count(after, 'BACKEND_SEEN'), count(before, 'BACKEND_SEEN') + 1);
  assert.equal(count(after, 'BACKEND_FAILED'), count(before, 'BACKEND_FAILED') + 1);
  // The bulk send's 12 rows on the same channel (previous test) are not single sends.
  assert.equal(total(after), total(before) + 2);
  assert.ok(total(after) < 12, `bulk rows counted as single sends: ${total(after)}`);
  assert.equal(sample(after, 'tms_queue_depth', { channel_id: main }), 0);
});

test('queue age, webhook lag and outbox backlog report the oldest due message, unapplied webhook event and pending delivery', async () => {
  // A row due 120 s ago on a channel with no sender (company B's channel is unknown to the simulator), and a stored
  // webhook event left unapplied for 60 s: the gauges read them from the database.
  const channel = '990000000000001';
  const row = await h.store.db.selectFrom('messages').select(['template_id', 'waba_id', 'payload']).limit(1).executeTakeFirstOrThrow();
  await sql`insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at)
    values ('metrics-queued-row', ${h.b.companyId}, ${channel}, ${row.template_id}, ${row.waba_id}, '905550000001', 'QUEUED',
      ${JSON.stringify(row.payload)}::jsonb, now() - interval '120 seconds')`.execute(h.store.db);
  // The event takes id -1: first in id order (the oldest, as a real backlog's first event is), and below the cursor the
  // inbox's drain starts from, so late status webhooks of the bulk send above never apply it while the gauge is read.
  await sql`insert into webhook_events (id, body, state, received_at) values (-1, '{}', 'RECEIVED', now() - interval '60 seconds')`.execute(h.store.db);
  // A delivery of an endpoint that is not enabled stays PENDING (the worker claims per enabled endpoint).
  await sql`insert into webhook_deliveries (endpoint_id, company_id, event_id, event_type, order_key, data, occurred_at, created_at)
    values ('no-such-endpoint', ${h.b.companyId}, 'metrics-event', 'message.status_changed', 'k', '{}'::jsonb, now(), now() - interval '90 seconds')`.execute(h.store.db);
  try {
    const text = (await scrape()).body;
    assert.ok((sample(text, 'tms_queue_oldest_due_age_seconds', { channel_id: channel }) ?? 0) >= 119);
    // The row has no bulk send: a QUEUED single send, in the queue depth of its channel.
    assert.equal(sample(text, 'tms_single_messages', { channel_id: channel, status: 'QUEUED' }), 1);
    assert.equal(sample(text, 'tms_queue_depth', { channel_id: channel }), 1);
    assert.ok((sample(text, 'tms_webhook_inbox_pending') ?? 0) >= 1);
    assert.ok((sample(text, 'tms_webhook_inbox_lag_seconds') ?? 0) >= 59);
    assert.equal(sample(text, 'tms_outbox_pending'), 1);
    assert.ok((sample(text, 'tms_outbox_oldest_age_seconds') ?? 0) >= 89);
  } finally {
    await sql`delete from webhook_deliveries where event_id = 'metrics-event'`.execute(h.store.db);
    await sql`delete from messages where id = 'metrics-queued-row'`.execute(h.store.db);
    await sql`delete from webhook_events where id = -1`.execute(h.store.db);
  }
});

test('/livez answers without the database; /readyz is 200 when ready and 503 once the app drains', async () => {
  const live = await h.call('GET', '/livez', { token: null });
  assert.deepEqual([live.status, live.body], [200, { status: 'alive' }]);
  const ready = await h.call('GET', '/readyz', { token: null });
  assert.deepEqual([ready.status, ready.body], [200, { status: 'ready', database: true, migrations: true, draining: false }]);
  assert.equal((await h.call('GET', '/health', { token: null })).status, 200);
  // Last test of the file: a shutdown begins; readiness answers 503 at once while the process still serves.
  const closing = h.app.close();
  const draining = await h.call('GET', '/readyz', { token: null });
  assert.deepEqual([draining.status, draining.body], [503, { status: 'draining', database: true, migrations: true, draining: true }]);
  await closing;
});
