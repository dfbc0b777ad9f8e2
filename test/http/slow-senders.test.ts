import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startHarness, type Harness } from '../support/harness.js';

// Senders that stall are cut off, and bodies received at once are capped per client and per instance.

let h: Harness;

before(async () => {
  h = await startHarness({}, {}, {
    HTTP_HEADERS_TIMEOUT_MS: '1000',
    HTTP_BODY_IDLE_TIMEOUT_MS: '2000',
    HTTP_MAX_UPLOADS: '6',
    HTTP_MAX_UPLOADS_PER_CLIENT: '4',
  });
});
after(() => h.close());

interface Stalled {
  /** The status of the answer, or 0 when the connection closed without one. */
  closed: Promise<{ status: number; text: string; ms: number }>;
  socket: net.Socket;
}

/** Opens a connection from `localAddress`, sends the request head and `sent` bytes of a body declared larger, then stalls. */
function stall(sent: number, localAddress = '127.0.0.1', head?: string): Stalled {
  const port = Number(new URL(h.appUrl).port);
  const socket = net.connect({ port, host: '127.0.0.1', localAddress });
  const started = Date.now();
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  socket.on('error', () => {});
  const closed = new Promise<{ status: number; text: string; ms: number }>((resolve) =>
    socket.on('close', () => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0), text, ms: Date.now() - started })),
  );
  socket.write(head ?? `POST /webhooks/whatsapp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${sent * 2}\r\n\r\n`);
  if (sent > 0) socket.write(Buffer.alloc(sent, 'a'));
  return { closed, socket };
}

// A connection the service never closed would hang its test until the test's timeout: that is the failure; the
// timeouts are generous for a loaded machine and no wall-clock figure is asserted.
const CUT_OFF = { timeout: 60_000 };

test('a webhook body that stops after 1 MB is answered 408 and its connection closed', CUT_OFF, async () => {
  const res = await stall(1024 * 1024).closed;
  assert.equal(res.status, 408, res.text);
  assert.match(res.text, /"code":"REQUEST_TIMEOUT"/);
});

test('headers that never end are answered 408 and the connection closed', CUT_OFF, async () => {
  const res = await stall(0, '127.0.0.1', 'POST /webhooks/whatsapp HTTP/1.1\r\nHost: x\r\nX-Slow: ').closed;
  assert.equal(res.status, 408, res.text);
});

test('a client over its cap of bodies in flight is answered 429 with Retry-After at once; the others are cut off', CUT_OFF, async () => {
  const first = [0, 1, 2, 3].map(() => stall(64 * 1024));
  await new Promise((r) => setTimeout(r, 1300)); // still arriving after a second: slow uploads
  const over = await stall(64 * 1024).closed;
  assert.equal(over.status, 429, over.text);
  assert.match(over.text, /retry-after: 1/i);
  // At once: a 429 is answered before the body is read, where waiting for it would end in the idle cut-off's 408.
  for (const res of await Promise.all(first.map((s) => s.closed))) assert.equal(res.status, 408, res.text);
});

test('over the instance-wide cap of bodies in flight a request is answered 503 SERVICE_BUSY', async () => {
  const held = [...[0, 1, 2].map(() => stall(1024, '127.0.0.1')), ...[0, 1, 2].map(() => stall(1024, '127.0.0.2'))];
  await new Promise((r) => setTimeout(r, 1300));
  const over = await stall(1024, '127.0.0.3').closed;
  assert.equal(over.status, 503, over.text);
  assert.match(over.text, /"code":"SERVICE_BUSY"/);
  await Promise.all(held.map((s) => s.closed));
});

test('a slow body that keeps arriving is not cut off', async () => {
  const port = Number(new URL(h.appUrl).port);
  const socket = net.connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => (text += chunk));
  const closed = new Promise((r) => socket.on('close', r));
  const body = '{"object":"whatsapp_business_account","entry":[]}';
  socket.write(`POST /webhooks/whatsapp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`);
  for (const char of body) {
    socket.write(char);
    await new Promise((r) => setTimeout(r, 40)); // 2 s in all, each gap far under the idle limit
  }
  await closed;
  assert.match(text, /^HTTP\/1\.1 401/, text); // read whole, then judged: no signature
});

test('a burst of quick requests with bodies, more than the caps, is all taken', async () => {
  const answers = await Promise.all(
    Array.from({ length: 20 }, (_, i) =>
      fetch(`${h.appUrl}/api/v1/opt-outs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${h.a.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phone_number: `9055511100${String(i).padStart(2, '0')}` }),
      }).then((r) => r.status),
    ),
  );
  assert.deepEqual(answers, answers.map(() => 200));
});

test('after the stalled senders are gone, bodies are taken again', async () => {
  const res = await h.call('POST', '/api/v1/opt-outs', { body: { phone_number: '905551112233' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
});
