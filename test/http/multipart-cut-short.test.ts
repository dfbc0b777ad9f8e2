import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';

// A multipart body that ends (or whose client leaves) before its closing boundary is answered 400 at once, and the
// upload's open file and scratch folder are gone.

let h: Harness;

before(async () => {
  h = await startHarness();
});
after(() => h.close());

const ROUTES = ['/agent-app/message-template/send-wizard/start-file', '/api/v1/media', '/api/v1/opt-outs/import'];

/** A multipart body with a channel_id field and a file part that never ends: no closing boundary. */
function cutShortBody(fileBytes: number): Buffer {
  return Buffer.concat([
    Buffer.from(`--XX\r\nContent-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\nphone_number\n`),
    Buffer.alloc(fileBytes, '9'),
  ]);
}

/** This process's scratch folders and the open files inside the temporary directory. */
function leftovers(): string[] {
  const folders = readdirSync(tmpdir()).filter((n) => /^tms-(file-start|media|start)-/.test(n) && n.includes(`-${process.pid}-`));
  const files = readdirSync('/proc/self/fd')
    .map((fd) => {
      try {
        return readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        return '';
      }
    })
    .filter((target) => /\/tms-(file-start|media|start)-/.test(target));
  return [...folders, ...files];
}

/** Sends the head and `body` on a raw socket; resolves with the status line and JSON body, or 'no answer'. */
function post(path: string, body: Buffer, declaredLength = body.length, timeoutMs = 10_000): Promise<{ status: number; body: any; ms: number }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const port = Number(new URL(h.appUrl).port);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`${path}: no answer in ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('error', () => {});
    socket.on('data', (chunk) => {
      text += chunk;
      const [head, rest] = text.split('\r\n\r\n');
      const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? NaN);
      if (rest !== undefined && Buffer.byteLength(rest) >= length) {
        clearTimeout(timer);
        socket.destroy();
        resolve({ status: Number(head.split(' ')[1]), body: JSON.parse(rest), ms: Date.now() - started });
      }
    });
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.a.token}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${declaredLength}\r\n\r\n`,
    );
    socket.write(body);
  });
}

for (const path of ROUTES) {
  test(`${path}: a body without its closing boundary is a 400 naming the body, and leaves no file open`, async () => {
    const res = await post(path, cutShortBody(100));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].field, 'body');
    assert.match(res.body.message, /closing boundary/);
    await eventually(async () => leftovers().length === 0, 3000).catch(() => assert.deepEqual(leftovers(), []));
  });
}

for (const path of ROUTES.slice(0, 2)) {
  test(`${path}: a 20 MB body without its closing boundary is a 400, not a 500`, async () => {
    const res = await post(path, cutShortBody(20 * 1024 * 1024));
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].field, 'body');
    await eventually(async () => leftovers().length === 0, 3000).catch(() => assert.deepEqual(leftovers(), []));
  });
}

for (const path of ROUTES) {
  test(`${path}: a client that leaves mid-upload leaves no file open and no scratch folder`, async () => {
    const port = Number(new URL(h.appUrl).port);
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const body = cutShortBody(512 * 1024);
    socket.write(
      `POST ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${h.a.token}\r\nContent-Type: multipart/form-data; boundary=XX\r\nContent-Length: ${body.length * 4}\r\n\r\n`,
    );
    socket.write(body);
    await new Promise((r) => setTimeout(r, 300));
    socket.destroy();
    await eventually(async () => leftovers().length === 0, 3000).catch(() => assert.deepEqual(leftovers(), []));
  });
}

test('a whole media upload still succeeds through the same reader', async () => {
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5f2d6a40000000049454e44ae426082', 'hex');
  const body = Buffer.concat([
    Buffer.from(`--XX\r\nContent-Disposition: form-data; name="channel_id"\r\n\r\n${SIM_CHANNEL_IDS.main}\r\n--XX\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`),
    png,
    Buffer.from('\r\n--XX--\r\n'),
  ]);
  const res = await post('/api/v1/media', body);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.file_length, png.length);
  assert.deepEqual(leftovers(), []);
});
