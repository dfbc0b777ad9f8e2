/**
 * Hostile requests against a listening service, over real sockets: multipart bodies cut at random points, JSON
 * nested far past the limit, a hundred stalled unauthenticated webhook uploads, signed status bodies with
 * unusable items beside valid ones, and a flood of guessed tokens. Every request must be answered (or its
 * connection closed) within bounds, nothing may be left open, and the service must keep serving. Runs per property:
 * RUNS (fuzz-support.ts); the stalled uploads are always 100.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import fc from 'fast-check';
import { postSignedWebhook } from '../test/support/status-webhooks.js';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../test/support/harness.js';
import { fcParams } from './fuzz-support.js';

let h: Harness;

before(async () => {
  h = await startHarness({}, {}, { HTTP_BODY_IDLE_TIMEOUT_MS: '1500', HTTP_MAX_UPLOADS_PER_CLIENT: '1000', AUTH_FAILURES_PER_MINUTE: '20' });
});
after(() => h.close());

/** Sends raw bytes on a new socket; resolves with the status (0: closed without an answer) once answered or closed. */
function raw(head: string, body: Buffer, timeoutMs = 10_000): Promise<number> {
  const port = Number(new URL(h.appUrl).port);
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer in ${timeoutMs} ms to ${head.split('\r\n')[0]}`));
    }, timeoutMs);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0));
    };
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      text += chunk;
      if (/\r\n\r\n/.test(text)) done();
    });
    socket.on('close', done);
    socket.write(head);
    socket.write(body);
  });
}

const MULTIPART_ROUTES = ['/agent-app/message-template/send-wizard/start-file', '/api/v1/media', '/api/v1/opt-outs/import'];

test('multipart bodies cut at any point are answered 4xx and leave no scratch folder', async () => {
  const whole = Buffer.from(
    `--XX\r\nContent-Disposition: form-data; name="channel_id"\r\n\r\n${SIM_CHANNEL_IDS.main}\r\n` +
      `--XX\r\nContent-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\nphone_number\n905551234567\n${'9'.repeat(5000)}\r\n--XX--\r\n`,
  );
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...MULTIPART_ROUTES), fc.integer({ min: 1, max: whole.length - 8 }), async (route, cut) => {
      const body = whole.subarray(0, cut);
      const status = await raw(
        `POST ${route} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.a.token}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length}\r\n\r\n`,
        body,
      );
      assert.ok(status >= 400 && status < 500, `${route} cut at ${cut}: ${status}`);
    }),
    fcParams(),
  );
  await new Promise((r) => setTimeout(r, 200));
  assert.deepEqual(readdirSync(tmpdir()).filter((n) => /^tms-(file-start|media)-/.test(n) && n.includes(`-${process.pid}-`)), []);
});

test('JSON nested past the limit is answered 400 on the JSON routes', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('/api/v1/messages', '/api/v1/opt-outs', '/agent-app/message-template/single-messagev2', '/agent-app/message-template/send-wizard/startv2'), fc.integer({ min: 65, max: 20_000 }), async (route, depth) => {
      const body = Buffer.from(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`);
      const status = await raw(`POST ${route} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.a.token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`, body);
      assert.equal(status, 400, `${route} at depth ${depth}`);
    }),
    fcParams(),
  );
});

test('100 stalled unauthenticated 1 MB webhook uploads are all cut off, and the service keeps answering', async () => {
  // Each stalls 1.5 s into its body; a server that never cut them off would leave raw() to give up (a failure).
  // Its wait is generous because a loaded CI machine is slow, not because the cut-off is.
  const answers = await Promise.all(
    Array.from({ length: 100 }, () =>
      raw(`POST /webhooks/whatsapp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${4 * 1024 * 1024}\r\n\r\n`, Buffer.alloc(1024 * 1024, 'a'), 60_000),
    ),
  );
  for (const status of answers) assert.ok([0, 408, 503].includes(status), `answer ${status}`);
  const res = await h.call('GET', '/api/v1/me');
  assert.equal(res.status, 200);
});

test('signed status bodies with unusable items beside valid ones are answered 200 and never fail', async () => {
  const bad = fc.oneof(
    fc.constant(null),
    fc.constant('x'),
    fc.record({ id: fc.constant('wamid.x\u0000'), status: fc.constant('read'), timestamp: fc.constant('1700000000') }),
    fc.record({ id: fc.string({ minLength: 1, maxLength: 20 }), status: fc.constant('delivered'), timestamp: fc.oneof(fc.constant('99999999999999999999'), fc.constant(1e308), fc.constant(-1), fc.constant('abc')) }),
  );
  await fc.assert(
    fc.asyncProperty(fc.array(bad, { minLength: 1, maxLength: 4 }), async (items) => {
      const statuses = [...items, { id: 'wamid.unknown', status: 'read', timestamp: '1700000000', recipient_id: '1' }];
      const body = JSON.stringify({ object: 'whatsapp_business_account', entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value: { metadata: { phone_number_id: SIM_CHANNEL_IDS.main }, statuses } }] }] });
      assert.equal(await postSignedWebhook(h, body), 200);
    }),
    fcParams(),
  );
  await h.app.webhookInbox.drain();
  const notApplied = await h.store.db.selectFrom('webhook_events').select(['id', 'state', 'last_error']).where('state', '<>', 'APPLIED').execute();
  assert.deepEqual(notApplied, []);
});

test('a flood of guessed tokens is throttled with 429 and Retry-After', async () => {
  const statuses: number[] = [];
  for (let i = 0; i < 60; i++) {
    const res = await fetch(`${h.appUrl}/api/v1/me`, { headers: { authorization: `Bearer tms_${i}guess${'x'.repeat(30)}` } });
    statuses.push(res.status);
    if (res.status === 429) assert.ok(Number(res.headers.get('retry-after')) >= 1);
  }
  assert.equal(statuses.filter((s) => s === 401).length, 20);
  assert.equal(statuses.filter((s) => s === 429).length, 40);
});
