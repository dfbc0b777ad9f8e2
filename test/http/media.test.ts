import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, startHarness, type Harness } from '../support/harness.js';
import { apiV1Body, uniqueName, validComponents } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNELS[0].id;
const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(2048, 7)]);

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 60_000 } });
});
after(() => h.close());

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = '----tms' + Math.random().toString(16).slice(2);
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }, token = h.a.token) {
  const { payload, contentType } = multipart(fields, file);
  const res = await h.app.http.inject({
    method: 'POST',
    url: '/api/v1/media',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
    payload,
  });
  return { status: res.statusCode, body: res.json() };
}

test('a PNG upload returns a file_handle from the network’s resumable upload', async () => {
  const res = await upload({ channel_id: channel }, { name: 'shoe.png', type: 'image/png', data: PNG });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.match(res.body.data.file_handle, /^4::/);
  assert.equal(res.body.data.file_length, PNG.length);
});

test('the handle makes an IMAGE-header template creatable in family B', async () => {
  const up = await upload({ channel_id: channel }, { name: 'hero.png', type: 'image/png', data: PNG });
  const name = uniqueName();
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  const components = [{ type: 'HEADER', format: 'IMAGE' }, ...validComponents().slice(1)];
  const res = await h.call('POST', '/api/v1/message-templates', {
    body: apiV1Body(channel, name, { components, file_handle: up.body.data.file_handle }),
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const got = await h.call('GET', `/api/v1/message-templates/${res.body.data.id}?channel_id=${channel}`);
  assert.deepEqual(got.body.data.message_template.components[0].example.header_handle, [up.body.data.file_handle]);
});

test('a file_handle not uploaded by the company is refused', async () => {
  const name = uniqueName();
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  const components = [{ type: 'HEADER', format: 'IMAGE' }, ...validComponents().slice(1)];
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name, { components, file_handle: '4::bm90LW91cnM=' }) });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'file_handle');
});

test('content that is not what its type says is 400 on file', async () => {
  const res = await upload({ channel_id: channel }, { name: 'fake.png', type: 'image/png', data: Buffer.from('hello, not a png') });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'file');
});

test('a type the network does not take is 400', async () => {
  const res = await upload({ channel_id: channel }, { name: 'a.gif', type: 'image/gif', data: Buffer.from('GIF89a....') });
  assert.equal(res.status, 400);
  assert.match(res.body.message, /not allowed/);
});

test('a PNG over 5 MB is 413', async () => {
  const big = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
  const res = await upload({ channel_id: channel }, { name: 'big.png', type: 'image/png', data: big });
  assert.equal(res.status, 413);
});

test('a missing channel_id is 400 naming it', async () => {
  const res = await upload({}, { name: 'shoe.png', type: 'image/png', data: PNG });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'channel_id');
});

test("another company's channel is 404", async () => {
  const res = await upload({ channel_id: OTHER_CHANNEL_ID }, { name: 'shoe.png', type: 'image/png', data: PNG });
  assert.equal(res.status, 404);
});

test('a JSON body is 415', async () => {
  const res = await h.call('POST', '/api/v1/media', { body: { channel_id: channel } });
  assert.equal(res.status, 415);
});
