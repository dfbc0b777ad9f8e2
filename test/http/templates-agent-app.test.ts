import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, startHarness, type Harness } from '../support/harness.js';
import { carouselTemplate, uniqueName, validComponents } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNELS[0].id;
const A = '/agent-app/message-template';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 60_000 } });
});
after(() => h.close());

function v1Body(name: string) {
  return { name, category: 'MARKETING', language: 'en', components: validComponents(), allow_category_change: true, channel_id: channel };
}

test('v1 create needs no check-name and answers {success, data: {id, status}}', async () => {
  const res = await h.call('POST', `${A}/template`, { body: v1Body(uniqueName()) });
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['data', 'success']);
  assert.match(res.body.data.id, /^\d+$/);
  assert.equal(res.body.data.status, 'PENDING');
});

test('v2 creates a carousel from lower-case components and stores them upper case', async () => {
  const name = uniqueName('carousel');
  const res = await h.call('POST', `${A}/templatev2`, {
    body: { message_template: carouselTemplate(name, '4::aW1hZ2U='), channel_id: channel, media_names: { '4::aW1hZ2U=': 'shoes.png' } },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const got = await h.call('GET', `${A}/template/get-by-id?template_id=${res.body.data.id}&channel_id=${channel}`);
  assert.equal(got.status, 200);
  const t = got.body.data.message_template;
  assert.equal(t.name, name);
  assert.deepEqual(t.components.map((c: { type: string }) => c.type), ['BODY', 'CAROUSEL']);
  assert.equal(t.components[1].cards.length, 2);
  assert.deepEqual(t.components[1].cards[0].components.map((c: { type: string }) => c.type), ['HEADER', 'BODY', 'BUTTONS']);
  assert.equal(t.components[1].cards[0].components[2].buttons[0].type, 'QUICK_REPLY');
});

test('a carousel with one card is 400 naming the cards', async () => {
  const body = carouselTemplate(uniqueName(), '4::x');
  (body.components[1] as { cards: unknown[] }).cards.pop();
  const res = await h.call('POST', `${A}/templatev2`, { body: { message_template: body, channel_id: channel } });
  assert.equal(res.status, 400);
  assert.equal(res.body.success, false);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_INVALID');
  assert.match(res.body.errors[0].field, /^components\[1\]\.cards/);
});

test('v1 with a taken name is 409', async () => {
  const name = uniqueName();
  await h.call('POST', `${A}/template`, { body: v1Body(name) });
  const res = await h.call('POST', `${A}/template`, { body: v1Body(name) });
  assert.equal(res.status, 409);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_NAME_TAKEN');
});

test('list returns items of the channel', async () => {
  const created = await h.call('POST', `${A}/template`, { body: v1Body(uniqueName()) });
  const res = await h.call('GET', `${A}/template?channel_id=${channel}`);
  assert.equal(res.status, 200);
  assert.deepEqual(Object.keys(res.body).sort(), ['items', 'success']);
  assert.ok(res.body.items.some((t: { id: string }) => t.id === created.body.data.id));
});

test('templates of a WABA are shared by its channels', async () => {
  const created = await h.call('POST', `${A}/template`, { body: v1Body(uniqueName()) });
  const res = await h.call('GET', `${A}/template?channel_id=${SIM_CHANNELS[3].id}`);
  assert.ok(res.body.items.some((t: { id: string }) => t.id === created.body.data.id));
});

test('delete with body {id} answers {success: true}; a second delete is 404', async () => {
  const created = await h.call('POST', `${A}/template`, { body: v1Body(uniqueName()) });
  const del = await h.call('DELETE', `${A}/template`, { body: { id: created.body.data.id } });
  assert.equal(del.status, 200);
  assert.deepEqual(del.body, { success: true });
  const again = await h.call('DELETE', `${A}/template`, { body: { id: created.body.data.id } });
  assert.equal(again.status, 404);
  assert.equal(again.body.errors[0].field, 'id');
});

test("get-by-id of another company's template is 404 like a missing one", async () => {
  const created = await h.call('POST', `${A}/template`, { body: v1Body(uniqueName()) });
  const foreign = await h.call('GET', `${A}/template/get-by-id?template_id=${created.body.data.id}&channel_id=${OTHER_CHANNEL_ID}`, { token: h.b.token });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.errors[0].code, 'NOT_FOUND');
  const del = await h.call('DELETE', `${A}/template`, { token: h.b.token, body: { id: created.body.data.id } });
  assert.equal(del.status, 404);
});

test('get-by-id without template_id is 400 naming it', async () => {
  const res = await h.call('GET', `${A}/template/get-by-id?channel_id=${channel}`);
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'template_id');
});

test('a body that is not JSON is 400 INVALID_JSON', async () => {
  const res = await h.app.http.inject({
    method: 'POST',
    url: `${A}/template`,
    headers: { authorization: `Bearer ${h.a.token}`, 'content-type': 'application/json' },
    payload: '{"name": ',
  });
  assert.equal(res.statusCode, 400);
  assert.equal(res.json().errors[0].code, 'INVALID_JSON');
});

test('a body over 1 MB is 413', async () => {
  const res = await h.call('POST', `${A}/template`, { body: { ...v1Body(uniqueName()), pad: 'x'.repeat(1_100_000) } });
  assert.equal(res.status, 413);
  assert.equal(res.body.errors[0].code, 'PAYLOAD_TOO_LARGE');
});
