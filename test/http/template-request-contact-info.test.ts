/**
 * The REQUEST_CONTACT_INFO button (asks the user to share their phone number): accepted in the creates of both
 * families as the network takes it (`{"type": "REQUEST_CONTACT_INFO"}`, nothing else), refused with a field when
 * customised, kept in place by the WABA sync, and sent without parameters.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_ACCESS_TOKEN, SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { singleSend, untilStatus } from '../support/sending.js';
import { apiV1Body, uniqueName } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template';

before(async () => {
  h = await startHarness({}, { templateStatusMaxAgeMs: 0 });
});
after(() => h.close());

/** Body with one variable, then a URL button with a variable after the contact button (so indexes matter). */
function components(contact: Record<string, unknown> = { type: 'REQUEST_CONTACT_INFO' }) {
  return [
    { type: 'BODY', text: 'Hi {{1}}, share your number for delivery updates.', example: { body_text: [['Ayse']] } },
    { type: 'BUTTONS', buttons: [contact, { type: 'URL', text: 'Track', url: 'https://t.example/{{1}}', example: ['abc'] }] },
  ];
}

/** The template's buttons as the network holds them. */
async function networkButtons(id: string): Promise<unknown[]> {
  const res = await fetch(`${h.simulatorUrl}/${id}?fields=components`, { headers: { authorization: `Bearer ${SIM_ACCESS_TOKEN}` } });
  const body = (await res.json()) as { components: Array<{ type: string; buttons?: unknown[] }> };
  return body.components.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
}

test('family B create takes the button and the network gets exactly {type: REQUEST_CONTACT_INFO}', async () => {
  const name = uniqueName('ask');
  await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  const res = await h.call('POST', '/api/v1/message-templates', { body: apiV1Body(channel, name, { components: components() }) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const buttons = await networkButtons(res.body.data.id);
  assert.deepEqual(buttons[0], { type: 'REQUEST_CONTACT_INFO' });
});

test('family A v1 and v2 (lower case) creates take the button and store it upper case', async () => {
  const v1 = await h.call('POST', `${A}/template`, {
    body: { name: uniqueName('ask'), category: 'MARKETING', language: 'en', components: components(), allow_category_change: true, channel_id: channel },
  });
  assert.equal(v1.status, 200, JSON.stringify(v1.body));
  const lower = components({ type: 'request_contact_info' }).map((c) => ({ ...c, type: c.type.toLowerCase() }));
  const v2 = await h.call('POST', `${A}/templatev2`, {
    body: { message_template: { name: uniqueName('ask'), category: 'MARKETING', language: 'en', components: lower }, channel_id: channel },
  });
  assert.equal(v2.status, 200, JSON.stringify(v2.body));
  const got = await h.call('GET', `${A}/template/get-by-id?template_id=${v2.body.data.id}&channel_id=${channel}`);
  assert.deepEqual(got.body.data.message_template.components[1].buttons[0], { type: 'REQUEST_CONTACT_INFO' });
});

test('a labelled REQUEST_CONTACT_INFO button is 400 naming the field, and nothing is stored', async () => {
  const before = await h.store.db.selectFrom('templates').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const res = await h.call('POST', `${A}/template`, {
    body: { name: uniqueName('ask'), category: 'MARKETING', language: 'en', components: components({ type: 'REQUEST_CONTACT_INFO', text: 'Share' }), allow_category_change: true, channel_id: channel },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_INVALID');
  assert.equal(res.body.errors[0].field, 'components[1].buttons[0].text');
  const after = await h.store.db.selectFrom('templates').select(h.store.db.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(after.n), Number(before.n));
});

test('a template made in the WABA with the button is synced with it in place and sends (URL parameter at index 1)', async () => {
  const name = uniqueName('outside_ask');
  const { id } = await simAdmin(h, '/_sim/waba-templates', { name, language: 'en_US', category: 'UTILITY', components: components() });
  const list = await h.call('GET', `/api/v1/message-templates?channel_id=${channel}`);
  const synced = list.body.items.find((t: { id: string }) => t.id === id);
  assert.deepEqual(synced.components[1].buttons.map((b: { type: string }) => b.type), ['REQUEST_CONTACT_INFO', 'URL']);
  const res = await singleSend(h, {
    channel_id: channel, phone_number: '905551250101', message_template_id: id,
    message_template: [
      { type: 'BODY', parameters: ['Ayse'] },
      { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: 'abc' }] },
    ],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilStatus(h, res.body.data.message_id, ['BACKEND_SEEN', 'BACKEND_SENT', 'BACKEND_DELIVERED']);
});
