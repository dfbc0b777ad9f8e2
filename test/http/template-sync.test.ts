/**
 * Template sync from the WABA: templates made outside the service (as in WhatsApp Manager, through the simulator's
 * `/_sim/waba-templates`) are listed, read, sent and guard their names; deletions, category and component changes
 * at the network reach the stored templates; a failed listing removes nothing.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCompany } from '../../src/admin.js';
import { SIM_ACCESS_TOKEN, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { clearChannelAuthFailure, insertChannel, markChannelAuthFailed } from '../../src/store/channels.js';
import { listChannelsNeverSynced } from '../../src/store/templates.js';
import { eventually, OTHER_CHANNEL_ID, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { phones, reportRows, startV1, untilWizard } from '../support/bulk.js';
import { singleSend, untilStatus } from '../support/sending.js';
import { uniqueName } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template';

before(async () => {
  // Freshness 0: every list/get reads the WABA listing, so each test sees the network as it is now.
  h = await startHarness({}, { templateStatusMaxAgeMs: 0 });
});
after(() => h.close());

/** Components of a template made in WhatsApp Manager: body with one variable, a URL button with one. */
function outsideComponents(body = 'Hi {{1}}, your order shipped.') {
  return [
    { type: 'BODY', text: body, example: { body_text: [['Ayse']] } },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://t.example/{{1}}', example: ['abc'] }] },
  ];
}

/** Makes a template directly in the WABA (not through the service); returns its network id. */
async function makeOutside(name = uniqueName('outside'), extra: Record<string, unknown> = {}): Promise<string> {
  const res = await simAdmin(h, '/_sim/waba-templates', { name, language: 'en_US', category: 'UTILITY', components: outsideComponents(), ...extra });
  return res.id as string;
}

/** Deletes a template at the network, as from WhatsApp Manager. */
async function deleteOutside(id: string): Promise<void> {
  const res = await fetch(`${new URL(h.simulatorUrl).origin}/_sim/waba-templates/${id}`, { method: 'DELETE' });
  assert.equal(res.status, 200);
}

async function listB(channelId = channel, token = h.a.token) {
  const res = await h.call('GET', `/api/v1/message-templates?channel_id=${channelId}`, { token });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function stored(id: string) {
  return h.store.db.selectFrom('templates').selectAll().where('id', '=', id).executeTakeFirst();
}

test('a list asked for while a sync runs waits for a listing begun after it', async () => {
  // The sweep's first sync of the channel is over, so the two listings counted are the two lists'.
  await eventually(() => h.store.db.selectFrom('template_syncs').selectAll().where('company_id', '=', h.a.companyId).where('synced_at', 'is not', null).executeTakeFirst(), 10_000);
  // Listings of this WABA only: the sweep may be trying another company's channel (another WABA) meanwhile.
  const listings = async () => (await simAdmin(h, '/_sim/requests')).items.filter((r: { method: string; path: string }) => r.method === 'GET' && r.path.endsWith(`/${SIM_WABA_ID}/message_templates`)).length;
  await simAdmin(h, '/_sim/requests/clear', {});
  await simAdmin(h, '/_sim/faults', { latencyMs: 1500 });
  try {
    const first = listB();
    // The first list's listing is on its way (held 1.5 s by the network); the second must not share it.
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all([first, listB()]);
  } finally {
    await simAdmin(h, '/_sim/faults', { latencyMs: 0 });
  }
  assert.equal(await listings(), 2);
});

test('a template made in the WABA outside the service appears in both families’ list and get', async () => {
  const name = uniqueName('outside');
  const id = await makeOutside(name);
  const b = (await listB()).find((t) => t.id === id);
  assert.ok(b, 'family B list has it');
  assert.equal(b.name, name);
  assert.equal(b.status, 'APPROVED');
  assert.equal(b.category, 'UTILITY');
  assert.equal(b.components[0].type, 'BODY');
  const a = await h.call('GET', `${A}/template?channel_id=${channel}`);
  assert.ok(a.body.items.some((t: { id: string }) => t.id === id), 'family A list has it');
  const getA = await h.call('GET', `${A}/template/get-by-id?template_id=${id}&channel_id=${channel}`);
  assert.equal(getA.status, 200);
  assert.equal(getA.body.data.message_template.name, name);
  const getB = await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${channel}`);
  assert.equal(getB.status, 200);
  assert.equal((await stored(id))?.source, 'network');
});

test('get-by-id finds a template made outside before any list', async () => {
  const id = await makeOutside();
  const res = await h.call('GET', `${A}/template/get-by-id?template_id=${id}&channel_id=${channel}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
});

test('a NAMED template made outside is imported with its parameter format and network components', async () => {
  const components = [{ type: 'BODY', text: 'Hi {{first_name}}, welcome.', example: { body_text_named_params: [{ param_name: 'first_name', example: 'Ayse' }] } }];
  const id = await makeOutside(uniqueName('named'), { parameter_format: 'NAMED', components });
  await listB();
  const row = await stored(id);
  assert.equal(row?.parameter_format, 'NAMED');
  assert.deepEqual(row?.network_components, components);
});

test('Meta’s hello_world sample template can be single-sent and reaches the phone', async () => {
  const { id } = await simAdmin(h, '/_sim/waba-templates/hello_world', {});
  await listB();
  const res = await singleSend(h, { channel_id: channel, phone_number: '905551240101', message_template_id: id, full_name: 'Ayse' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilStatus(h, res.body.data.message_id, ['BACKEND_SEEN', 'BACKEND_SENT', 'BACKEND_DELIVERED']);
  const got = await simAdmin(h, '/_sim/received?to=%2B905551240101');
  assert.equal(got.messages.length, 1);
  assert.deepEqual(got.messages[0].template, { name: 'hello_world', language: 'en_US' });
});

test('a template made outside can be bulk-sent and every row reaches its phone', async () => {
  const id = await makeOutside();
  await listB();
  const numbers = phones(3, '9055588');
  const rows = numbers.map((phone, i) => ({ id: i + 1, phone_number: phone, full_name: `C${i}`, params: [`Name${i}`], url_button_param: `o${i}` }));
  const wizard = await startV1(h, { message_template_id: id, rows, total_time: 0, channel_id: channel });
  await untilWizard(h, channel, wizard, ['COMPLETED']);
  assert.equal((await reportRows(h, wizard)).length, 3);
  for (const n of numbers) {
    const got = await simAdmin(h, `/_sim/received?to=%2B${n}`);
    assert.equal(got.messages.length, 1, n);
  }
});

test('check-name refuses a name that exists only at the network', async () => {
  const name = uniqueName('taken_outside');
  await makeOutside(name);
  const res = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  assert.equal(res.status, 409, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'TEMPLATE_NAME_TAKEN');
  const free = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name: `${name}_x` } });
  assert.equal(free.status, 200);
});

test('the simulator pages the WABA listing 25 at a time with after cursors and paging.next', async () => {
  for (let i = 0; i < 27; i++) await makeOutside(uniqueName('page'));
  const headers = { authorization: `Bearer ${SIM_ACCESS_TOKEN}` };
  const first = await (await fetch(`${h.simulatorUrl}/${SIM_WABA_ID}/message_templates`, { headers })).json();
  assert.equal(first.data.length, 25);
  assert.equal(typeof first.paging.cursors.after, 'string');
  assert.equal(typeof first.paging.next, 'string');
  const second = await (await fetch(first.paging.next, { headers })).json();
  assert.ok(second.data.length >= 2);
  const ids = new Set([...first.data, ...second.data].map((t: { id: string }) => t.id));
  assert.equal(ids.size, first.data.length + second.data.length, 'no template on two pages');
});

test('list reads every page: more than 100 templates made outside all appear', async () => {
  const world = await simAdmin(h, '/_sim/world');
  const made: string[] = [];
  for (let i = world.templates.length; i < 130; i++) made.push(await makeOutside(uniqueName('many')));
  const listed = new Set((await listB()).map((t) => t.id));
  for (const id of made) assert.ok(listed.has(id), id);
  assert.ok(listed.size >= 130);
});

test('a template deleted at the network disappears from list and get', async () => {
  const id = await makeOutside();
  assert.ok((await listB()).some((t) => t.id === id));
  await deleteOutside(id);
  assert.ok(!(await listB()).some((t) => t.id === id));
  const get = await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${channel}`);
  assert.equal(get.status, 404);
});

test('a failed listing deletes nothing', async () => {
  const id = await makeOutside();
  assert.ok((await listB()).some((t) => t.id === id));
  await deleteOutside(id);
  await simAdmin(h, '/_sim/faults', { errorRate: 1 });
  try {
    assert.ok((await listB()).some((t) => t.id === id), 'kept while the network fails');
    assert.equal((await stored(id))?.deleted_at, null);
  } finally {
    await simAdmin(h, '/_sim/faults', { errorRate: 0 });
  }
  assert.ok(!(await listB()).some((t) => t.id === id), 'removed once a complete listing says so');
});

test('a template_category_update webhook sets the stored category', async () => {
  const id = await makeOutside();
  await listB();
  await simAdmin(h, `/_sim/waba-templates/${id}/category`, { category: 'MARKETING' });
  await eventually(async () => (await stored(id))?.category === 'MARKETING');
});

test('a message_template_components_update webhook replaces the stored components', async () => {
  const id = await makeOutside();
  await listB();
  const edited = outsideComponents('Hello {{1}}, your parcel is on its way.');
  await simAdmin(h, `/_sim/waba-templates/${id}/components`, { components: edited });
  const row = await eventually(async () => {
    const r = await stored(id);
    return (r?.components as Array<{ text?: string }>)[0].text === edited[0].text ? r : undefined;
  });
  assert.deepEqual(row.network_components, edited);
});

test('a status webhook for a template made outside imports it', async () => {
  const id = await makeOutside(uniqueName('review'), { status: 'PENDING' });
  assert.equal(await stored(id), undefined);
  await simAdmin(h, `/_sim/templates/${id}`, { status: 'APPROVED' });
  await eventually(async () => (await stored(id))?.status === 'APPROVED');
});

test('another company never sees the WABA’s templates', async () => {
  const id = await makeOutside();
  await listB();
  const list = await listB(OTHER_CHANNEL_ID, h.b.token);
  assert.ok(!list.some((t) => t.id === id));
  const get = await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${OTHER_CHANNEL_ID}`, { token: h.b.token });
  assert.equal(get.status, 404);
});

test('a channel added without the service reaching the network is synced when first seen', async () => {
  const id = await makeOutside();
  const c = await createCompany(h.store.db, 'Company C');
  // As `tms channel add` stores it: no network call (a plaintext token still opens).
  await insertChannel(h.store.db, { id: '110000000000099', company_id: c.companyId, waba_id: SIM_WABA_ID, access_token: SIM_ACCESS_TOKEN });
  const sync = await eventually(
    () => h.store.db.selectFrom('template_syncs').selectAll().where('company_id', '=', c.companyId).where('synced_at', 'is not', null).executeTakeFirst(),
    10_000,
  );
  assert.equal(sync.waba_id, SIM_WABA_ID);
  assert.equal((await stored(id))?.company_id, c.companyId);
});

test('a channel held by a refused token is not synced until the mark is cleared', async () => {
  const c = await createCompany(h.store.db, 'Company D');
  await simAdmin(h, '/_sim/tokens', { add: 'token-held' });
  await simAdmin(h, '/_sim/tokens', { expire: 'token-held' });
  // Stored already held (as after a refused send), in one transaction so the sweep never sees it unmarked.
  await h.store.db.transaction().execute(async (tx) => {
    await insertChannel(tx, { id: '110000000000098', company_id: c.companyId, waba_id: SIM_WABA_ID, access_token: 'token-held' });
    await markChannelAuthFailed(tx, '110000000000098', 'ACCESS_TOKEN_INVALID: expired', new Date(Date.now() + 60_000));
  });
  const syncOf = () => h.store.db.selectFrom('template_syncs').selectAll().where('company_id', '=', c.companyId).executeTakeFirst();
  // The sweep runs every 2 s: two passes go by.
  await new Promise((r) => setTimeout(r, 5000));
  assert.equal((await simAdmin(h, '/_sim/tokens')).refused['token-held'] ?? 0, 0);
  assert.equal(await syncOf(), undefined);
  // The sweep does not even pick it (so it does not fail and log on every pass).
  assert.ok(!(await listChannelsNeverSynced(h.store.db, 60, 100)).some((r) => r.company_id === c.companyId));
  await simAdmin(h, '/_sim/tokens', { add: 'token-held' });
  await clearChannelAuthFailure(h.store.db, '110000000000098');
  const sync = await eventually(async () => (await syncOf())?.synced_at ?? undefined, 10_000);
  assert.ok(sync);
});
