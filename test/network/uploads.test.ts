import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { after, before, test } from 'node:test';
import { credsOf, networkErrorOf, startSim, type SimSetup } from './helpers.js';

const creds = credsOf();
let s: SimSetup;
before(async () => {
  s = await startSim();
});
after(() => s.close());

test('a resumable upload in two chunks reports its offset and yields a handle', async () => {
  const { id } = await s.net.createUploadSession(creds, { fileName: 'banner.png', fileLength: 1000, fileType: 'image/png' });
  assert.match(id, /^upload:[A-Za-z0-9_-]+\?sig=\w+$/);
  await s.net.uploadFileChunk(creds, { sessionId: id, offset: 0, body: Buffer.alloc(400, 1) });
  assert.equal((await s.net.getUploadSession(creds, id)).file_offset, 400);
  const { h } = await s.net.uploadFileChunk(creds, { sessionId: id, offset: 400, body: Buffer.alloc(600, 2) });
  assert.match(h, /^4::/);
  assert.equal((await s.net.getUploadSession(creds, id)).file_offset, 1000);
});

test('a chunk can be a stream', async () => {
  const { id } = await s.net.createUploadSession(creds, { fileName: 'doc.pdf', fileLength: 3 * 64 * 1024, fileType: 'application/pdf' });
  const body = Readable.from([Buffer.alloc(64 * 1024), Buffer.alloc(64 * 1024), Buffer.alloc(64 * 1024)]);
  await s.net.uploadFileChunk(creds, { sessionId: id, offset: 0, body, length: 3 * 64 * 1024 });
  assert.equal((await s.net.getUploadSession(creds, id)).file_offset, 3 * 64 * 1024);
});

test('a chunk at the wrong file_offset is refused with Graph 100', async () => {
  const { id } = await s.net.createUploadSession(creds, { fileName: 'a.jpg', fileLength: 10, fileType: 'image/jpeg' });
  const err = await networkErrorOf(s.net.uploadFileChunk(creds, { sessionId: id, offset: 5, body: Buffer.alloc(5) }));
  assert.equal(err.kind, 'graph');
  assert.equal(err.code, 100);
  assert.equal((await s.net.getUploadSession(creds, id)).file_offset, 0);
});

test('an unsupported type and a file over its size limit are refused with Graph 100', async () => {
  const gif = await networkErrorOf(s.net.createUploadSession(creds, { fileName: 'a.gif', fileLength: 10, fileType: 'image/gif' }));
  assert.equal(gif.code, 100);
  const big = await networkErrorOf(s.net.createUploadSession(creds, { fileName: 'a.png', fileLength: 5 * 1024 * 1024 + 1, fileType: 'image/png' }));
  assert.equal(big.code, 100);
  assert.equal(big.httpStatus, 400);
});

test('an unknown app id is Graph 100/33', async () => {
  const err = await networkErrorOf(s.net.createUploadSession(creds, { appId: '123', fileName: 'a.png', fileLength: 1, fileType: 'image/png' }));
  assert.equal(err.graph?.error_subcode, 33);
});

test('an IMAGE header template takes the handle of a finished image upload only', async () => {
  const header = (handle: string) => ({
    name: `with_image_${handle.length}`, language: 'en_US', category: 'MARKETING',
    components: [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } }, { type: 'BODY', text: 'See our news.' }],
  });
  const { id } = await s.net.createUploadSession(creds, { fileName: 'p.png', fileLength: 4, fileType: 'image/png' });
  const partial = await s.net.uploadFileChunk(creds, { sessionId: id, offset: 0, body: Buffer.alloc(2) });
  assert.equal((await networkErrorOf(s.net.createTemplate(creds, header(partial.h)))).code, 100);
  const { h } = await s.net.uploadFileChunk(creds, { sessionId: id, offset: 2, body: Buffer.alloc(2) });
  assert.equal((await s.net.createTemplate(creds, header(h))).status, 'PENDING');
  assert.equal((await networkErrorOf(s.net.createTemplate(creds, header('4::unknown')))).code, 100);
});
