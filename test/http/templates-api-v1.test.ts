import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { apiV1Body, uniqueName, validComponents } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNELS[0].id;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 60_000 } });
});
after(() => h.close());

async function templateCount(): Promise<number> {
  const row = await h.store.db.selectFrom('templates').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

async function checkedCreate(name = uniqueName(), extra: Record<string, unknown> = {}) {
  const check = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  assert.equal(check.status, 200, JSON.stringify(check.body));
  return h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name, extra) });
}

test('check-name of a free valid name is an empty success envelope', async () => {
  const res = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name: uniqueName() } });
  assert.equal(res.status, 200);
  assert.equal(res.body.success, true);
  assert.deepEqual(res.body.errors, []);
});

test('check-name of a name with capitals is 400 TEMPLATE_NAME_INVALID', async () => {
  const res = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name: 'Summer_Sale' } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_NAME_INVALID');
  assert.equal(res.body.errors[0].field, 'name');
});

test('create without a check-name is 422 NAME_NOT_CHECKED and writes nothing', async () => {
  const before = await templateCount();
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, uniqueName()) });
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].code, 'NAME_NOT_CHECKED');
  assert.equal(await templateCount(), before);
});

test('a name checked on another channel does not allow the create', async () => {
  const name = uniqueName();
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: SIM_CHANNELS[1].id, name } });
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name) });
  assert.equal(res.status, 422);
});

test('create after check-name returns data.id, PENDING at the network', async () => {
  const res = await checkedCreate();
  assert.equal(res.status, 200);
  assert.equal(res.body.success, true);
  assert.match(res.body.data.id, /^\d+$/);
  const sim = await simAdmin(h, '/_sim/world');
  assert.ok(JSON.stringify(sim).includes(res.body.data.id));
});

test('list and get return the created template with its fields', async () => {
  const name = uniqueName();
  const created = await checkedCreate(name);
  const list = await h.call('GET', `/api/v1/message-templates?channel_id=${channel}`);
  assert.equal(list.status, 200);
  const item = list.body.items.find((t: { id: string }) => t.id === created.body.data.id);
  assert.equal(item.name, name);
  assert.equal(item.status, 'PENDING');
  const got = await h.call('GET', `/api/v1/message-templates/${created.body.data.id}?channel_id=${channel}`);
  assert.equal(got.status, 200);
  const t = got.body.data.message_template;
  assert.deepEqual([t.id, t.name, t.language, t.category, t.status], [created.body.data.id, name, 'en_US', 'MARKETING', 'PENDING']);
  assert.deepEqual(t.components.map((c: { type: string }) => c.type), ['HEADER', 'BODY', 'FOOTER', 'BUTTONS']);
});

test('a used name fails check-name with 409 TEMPLATE_NAME_TAKEN', async () => {
  const name = uniqueName();
  await checkedCreate(name);
  const res = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  assert.equal(res.status, 409);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_NAME_TAKEN');
});

test('delete removes the template; its name stays blocked (30 days)', async () => {
  const name = uniqueName();
  const created = await checkedCreate(name);
  const del = await h.call('DELETE', `/api/v1/message-templates/${created.body.data.id}`);
  assert.equal(del.status, 200);
  assert.equal(del.body.success, true);
  assert.equal((await h.call('GET', `/api/v1/message-templates/${created.body.data.id}?channel_id=${channel}`)).status, 404);
  const check = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  assert.equal(check.status, 409);
  assert.match(check.body.message, /30 days/);
});

test('an invalid template is 400 naming the component path and never reaches the network', async () => {
  const name = uniqueName();
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  const components = validComponents();
  (components[3] as { buttons: Array<{ url?: string }> }).buttons[0].url = 'https://shop.example.com/{{1}}/end';
  const worldBefore = JSON.stringify(await simAdmin(h, '/_sim/world'));
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name, { components }) });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_INVALID');
  assert.equal(res.body.errors[0].field, 'components[3].buttons[0].url');
  assert.ok(!JSON.stringify(await simAdmin(h, '/_sim/world')).includes(name));
  assert.ok(!worldBefore.includes(name));
});

test('a category other than MARKETING is 400 on category', async () => {
  const name = uniqueName();
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name, { category: 'UTILITY' }) });
  assert.equal(res.status, 400);
  assert.ok(res.body.errors.some((e: { field: string }) => e.field === 'category'));
});

test('a missing required field is 400 naming it', async () => {
  const body: Record<string, unknown> = apiV1Body(channel, uniqueName());
  delete body.allow_category_change;
  const res = await h.call('POST', '/api/v1/message-templates', { body });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'allow_category_change');
});

test('an IMAGE header without file_handle is 422 MEDIA_REQUIRED', async () => {
  const name = uniqueName();
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  const components = [{ type: 'HEADER', format: 'IMAGE' }, ...validComponents().slice(1)];
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name, { components }) });
  assert.equal(res.status, 422);
  assert.equal(res.body.errors[0].code, 'MEDIA_REQUIRED');
  assert.equal(res.body.errors[0].field, 'file_handle');
});

test('languages are the network list with value and title, including tr, en, ar, ru', async () => {
  const res = await h.call('GET', '/api/v1/message-templates/languages');
  assert.equal(res.status, 200);
  const values = res.body.data.languages.map((l: { value: string }) => l.value);
  for (const code of ['tr', 'en', 'ar', 'ru', 'en_US', 'pt_BR']) assert.ok(values.includes(code), code);
  assert.equal(values.length, 111);
  assert.ok(res.body.data.languages.every((l: { title: string }) => l.title.length > 0));
});

test('categories list MARKETING with an icon', async () => {
  const res = await h.call('GET', '/api/v1/message-templates/categories');
  assert.equal(res.status, 200);
  assert.deepEqual(res.body.data.categories.map((c: { value: string }) => c.value), ['MARKETING']);
  assert.ok(res.body.data.categories[0].icon);
  assert.ok(res.body.data.categories[0].title);
});

test("another company's template answers exactly like a missing one", async () => {
  const created = await checkedCreate();
  const id = created.body.data.id;
  const foreign = await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${OTHER_CHANNEL_ID}`, { token: h.b.token });
  const missing = await h.call('GET', `/api/v1/message-templates/999999999?channel_id=${OTHER_CHANNEL_ID}`, { token: h.b.token });
  assert.equal(foreign.status, 404);
  assert.equal(foreign.body.errors[0].code, missing.body.errors[0].code);
  const del = await h.call('DELETE', `/api/v1/message-templates/${id}`, { token: h.b.token });
  assert.equal(del.status, 404);
  const list = await h.call('GET', `/api/v1/message-templates?channel_id=${OTHER_CHANNEL_ID}`, { token: h.b.token });
  assert.ok(!JSON.stringify(list.body).includes(id));
  assert.equal((await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${channel}`)).status, 200);
});

test('a network 5xx on create is 503 with the network’s message, nothing stored', async () => {
  await simAdmin(h, '/_sim/faults', { errorRate: 1 });
  try {
    const before = await templateCount();
    const res = await checkedCreate();
    assert.equal(res.status, 503);
    assert.equal(res.body.errors[0].code, 'NETWORK_UNAVAILABLE');
    assert.ok(res.body.message.length > 0);
    assert.equal(await templateCount(), before);
  } finally {
    await simAdmin(h, '/_sim/faults', { errorRate: 0 });
  }
});

test('a non-Graph 502 from the network is 503 NETWORK_UNAVAILABLE', async () => {
  await simAdmin(h, '/_sim/faults', { serverErrorRate: 1 });
  try {
    const res = await checkedCreate();
    assert.equal(res.status, 503);
  } finally {
    await simAdmin(h, '/_sim/faults', { serverErrorRate: 0 });
  }
});
