/**
 * Transport truth against real listeners on 127.0.0.1: a connect timeout is retried (the request was never
 * written), a non-Graph 5xx after the request was written leaves a send in doubt, upload chunks carry Content-Length.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, test } from 'node:test';
import { decideSendFailure } from '../../src/domain/send-failures.js';
import { createCloudApiAdapter } from '../../src/network/cloud-api/adapter.js';
import type { NetworkError, TemplateSendPayload } from '../../src/network/port.js';
import { credsOf, networkErrorOf } from './helpers.js';
import { listenerThatNeverAccepts } from '../support/blackhole.js';

const creds = credsOf();
const PAYLOAD: TemplateSendPayload = {
  messaging_product: 'whatsapp', recipient_type: 'individual', to: '+905551234567', type: 'template',
  template: { name: 'hello', language: { code: 'en' } },
};
const cleanups: Array<() => Promise<void> | void> = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The decision the channel sender takes for this error on the first attempt. */
function decisionFor(err: NetworkError) {
  return decideSendFailure({ kind: err.kind, httpStatus: err.httpStatus, code: err.code, notSent: err.notSent }, 1, 8).action;
}

/** A loopback port that never completes a handshake (freed after the file). */
async function neverAccepting(): Promise<number> {
  const { port, close } = await listenerThatNeverAccepts();
  cleanups.push(close);
  return port;
}

/** An HTTP listener that reads each request fully, records it and answers with `answer`. */
async function recordingListener(answer: (res: import('node:http').ServerResponse) => void) {
  const seen: Array<{ method: string; url: string; headers: IncomingHttpHeaders; bytes: number }> = [];
  const server: Server = createServer((req, res) => {
    let bytes = 0;
    req.on('data', (chunk: Buffer) => (bytes += chunk.length));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, bytes });
      answer(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v23.0`;
  const net = createCloudApiAdapter({ baseUrl: base, timeoutMs: 2000 });
  cleanups.push(() => net.close());
  return { seen, net };
}

test('a connect timeout is a timeout that was never sent, and the send is retried', async () => {
  const port = await neverAccepting();
  const net = createCloudApiAdapter({ baseUrl: `http://127.0.0.1:${port}/v23.0`, timeoutMs: 300 });
  cleanups.push(() => net.close());
  const err = await networkErrorOf(net.sendMessage(creds, PAYLOAD));
  assert.equal(err.kind, 'timeout');
  assert.match(err.message, /UND_ERR_CONNECT_TIMEOUT/);
  assert.equal(err.notSent, true);
  assert.equal(decisionFor(err), 'retry');
});

test('an HTML 502 after the send was written is in doubt, not retried', async () => {
  const { seen, net } = await recordingListener((res) => {
    res.writeHead(502, { 'content-type': 'text/html' }).end('<html><body><h1>502 Bad Gateway</h1></body></html>');
  });
  const err = await networkErrorOf(net.sendMessage(creds, PAYLOAD));
  assert.equal(seen.length, 1, 'the request reached the listener');
  assert.ok(seen[0].bytes > 0);
  assert.equal(err.kind, 'bad_response');
  assert.equal(err.httpStatus, 502);
  assert.equal(err.notSent, false);
  assert.equal(decisionFor(err), 'in_doubt');
});

test('a Graph 131000 body with HTTP 500 stays retryable', async () => {
  const { net } = await recordingListener((res) => {
    res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({
      error: { message: 'Something went wrong', type: 'OAuthException', code: 131000, is_transient: true, fbtrace_id: 'x' },
    }));
  });
  const err = await networkErrorOf(net.sendMessage(creds, PAYLOAD));
  assert.equal(err.kind, 'graph');
  assert.equal(err.code, 131000);
  assert.equal(decisionFor(err), 'retry');
});

test('an upload chunk streamed from a file carries Content-Length and is not chunked', async () => {
  const { seen, net } = await recordingListener((res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ h: '4::aW1hZ2UvanBlZw==:ARb' }));
  });
  const size = 3 * 64 * 1024;
  const body = Readable.from([Buffer.alloc(64 * 1024, 1), Buffer.alloc(64 * 1024, 2), Buffer.alloc(64 * 1024, 3)]);
  const { h } = await net.uploadFileChunk(creds, { sessionId: 'upload:MTphdHRhY2htZW50?sig=abc', offset: 0, body, length: size });
  assert.equal(h, '4::aW1hZ2UvanBlZw==:ARb');
  assert.equal(seen[0].headers['content-length'], String(size));
  assert.equal(seen[0].headers['transfer-encoding'], undefined);
  assert.equal(seen[0].headers.file_offset, '0');
  assert.equal(seen[0].bytes, size);
});

test('a stream chunk without its length is refused before anything is sent', async () => {
  const { seen, net } = await recordingListener((res) => res.end('{}'));
  const err = await networkErrorOf(net.uploadFileChunk(creds, { sessionId: 'upload:abc', offset: 0, body: Readable.from([Buffer.alloc(3)]) }));
  assert.equal(err.notSent, true);
  assert.equal(seen.length, 0);
});
