/**
 * Named parameters end to end: templates with {{first_name}} are created NAMED in both families, sent with
 * parameter_name by single send, start (v1) and startv2 (BODY.<name> columns, or the position), and the
 * simulator enforces the network's rules for both formats.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_ACCESS_TOKEN, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { untilWizard } from '../support/bulk.js';
import { approvedTemplate, singleSend, untilStatus } from '../support/sending.js';
import { uniqueName } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template';
const BODY = 'Hi {{first_name}}, order {{order_id}} ships today.';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
});
after(() => h.close());

/** Header `{{day}}`, body first_name + order_id (positional-style examples), URL button `{{1}}`. */
function namedComponents() {
  return [
    { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text: ['Monday'] } },
    { type: 'BODY', text: BODY, example: { body_text: [['Pablo', '86019']] } },
    { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Track', url: 'https://t.example.com/{{1}}', example: ['A1'] }] },
  ];
}

/** The template as the network stores it (Graph GET). */
async function atNetwork(id: string) {
  const res = await fetch(`${h.simulatorUrl}/${id}?fields=parameter_format,components,status`, { headers: { authorization: `Bearer ${SIM_ACCESS_TOKEN}` } });
  assert.equal(res.status, 200);
  return res.json() as Promise<{ parameter_format: string; components: Array<Record<string, any>>; status: string }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function untilApproved(id: string) {
  await eventually(async () => (await h.store.db.selectFrom('templates').select('status').where('id', '=', id).executeTakeFirst())?.status === 'APPROVED', 10_000);
}

/** Sends straight to the simulator's Graph messages edge. */
async function graphSend(templateName: string, components: unknown[], to: string) {
  const res = await fetch(`${h.simulatorUrl}/${channel}/messages`, {
    method: 'POST',
    headers: { authorization: `Bearer ${SIM_ACCESS_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messaging_product: 'whatsapp', to, type: 'template', template: { name: templateName, language: { code: 'en_US' }, components } }),
  });
  return { status: res.status, body: (await res.json()) as { error?: { code: number; error_data?: { details: string } } } };
}

async function received(phone: string) {
  const got = await eventually(async () => {
    const r = await simAdmin(h, `/_sim/received?to=${encodeURIComponent(phone)}`);
    return r.messages.length > 0 ? r : undefined;
  }, 15_000);
  return got.messages[0].components as Array<{ type: string; parameters: Array<Record<string, unknown>> }>;
}

const namedSend = (first = 'Pablo') => [
  { type: 'header', parameters: [{ type: 'text', parameter_name: 'day', text: 'Friday' }] },
  { type: 'body', parameters: [{ type: 'text', parameter_name: 'order_id', text: '86019' }, { type: 'text', parameter_name: 'first_name', text: first }] },
  { type: 'BUTTONS', buttons: [{ parameters: ['A1'] }] },
];

let namedId: string;
let namedName: string;
async function namedTemplate(): Promise<string> {
  namedId ??= await approvedTemplate(h, channel, namedComponents() as never);
  namedName ??= (await h.store.db.selectFrom('templates').select('name').where('id', '=', namedId).executeTakeFirstOrThrow()).name;
  return namedId;
}

test('family A v1 creates a {{name}} template as NAMED with named examples at the network', async () => {
  const id = await namedTemplate();
  const t = await atNetwork(id);
  assert.equal(t.parameter_format, 'NAMED');
  assert.deepEqual(t.components[0].example, { header_text_named_params: [{ param_name: 'day', example: 'Monday' }] });
  assert.deepEqual(t.components[1].example, { body_text_named_params: [{ param_name: 'first_name', example: 'Pablo' }, { param_name: 'order_id', example: '86019' }] });
});

test('family A v2 (lower-case types, named examples) creates a NAMED template that gets APPROVED', async () => {
  const res = await h.call('POST', `${A}/templatev2`, { body: { channel_id: channel, message_template: {
    name: uniqueName('named_v2'), category: 'MARKETING', language: 'en_US',
    components: [{ type: 'body', text: BODY, example: { body_text_named_params: [{ param_name: 'order_id', example: '1' }, { param_name: 'first_name', example: 'Ali' }] } }],
  } } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilApproved(res.body.data.id);
  assert.equal((await atNetwork(res.body.data.id)).parameter_format, 'NAMED');
});

test('family B creates a NAMED template after check-name', async () => {
  const name = uniqueName('named_b');
  const check = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  assert.equal(check.status, 200);
  const res = await h.call('POST', '/api/v1/message-templates', { body: {
    name, category: 'MARKETING', language: 'en_US', allow_category_change: false, channel_id: channel,
    components: [{ type: 'BODY', text: BODY, example: { body_text: [['Ali', '7']] } }],
  } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilApproved(res.body.data.id);
  const t = await atNetwork(res.body.data.id);
  assert.equal(t.parameter_format, 'NAMED');
  assert.deepEqual(t.components[0].example.body_text_named_params.map((p: { param_name: string }) => p.param_name), ['first_name', 'order_id']);
});

test('mixing named and positional parameters in one template is 400 naming the component', async () => {
  const res = await h.call('POST', `${A}/template`, { body: {
    name: uniqueName('mixed'), category: 'MARKETING', language: 'en_US', channel_id: channel,
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text: ['Mon'] } },
      { type: 'BODY', text: 'Hi {{1}}, welcome.', example: { body_text: [['a']] } },
    ],
  } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'TEMPLATE_INVALID');
  assert.equal(res.body.errors[0].field, 'components[1].text');
});

test('a single send of a NAMED template reaches the phone with parameter_name on each text parameter', async () => {
  const id = await namedTemplate();
  const phone = '905557710013';
  const res = await singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: id, message_template: namedSend() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilStatus(h, res.body.data.message_id, ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN']);
  const got = await received(`+${phone}`);
  assert.deepEqual(got[0], { type: 'header', parameters: [{ type: 'text', text: 'Friday', parameter_name: 'day' }] });
  assert.deepEqual(got[1].parameters.map((p) => p.parameter_name), ['order_id', 'first_name']);
});

test('a single send of a NAMED template without parameter_name is 400 naming the parameter', async () => {
  const id = await namedTemplate();
  const send = namedSend();
  send[1] = { type: 'body', parameters: ['86019', 'Pablo'] as never };
  const res = await singleSend(h, { channel_id: channel, phone_number: '905557710023', message_template_id: id, message_template: send });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
  assert.equal(res.body.errors[0].field, 'message_template[1].parameters[0].parameter_name');
});

test('start (v1) fills a NAMED template from params in order of first appearance and text_header_param', async () => {
  const id = await namedTemplate();
  const phone = '905557710033';
  const res = await h.call('POST', `${A}/send-wizard/start`, { body: { message_template_id: id, channel_id: channel, total_time: 0,
    rows: [{ id: 1, phone_number: phone, params: ['Ayse', 'A-9'], text_header_param: 'Sunday', url_button_param: 'a9' }] } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(h, channel, res.body.data.send_wizard_id, ['COMPLETED']);
  const got = await received(`+${phone}`);
  assert.deepEqual(got[0].parameters, [{ type: 'text', text: 'Sunday', parameter_name: 'day' }]);
  assert.deepEqual(got[1].parameters, [{ type: 'text', text: 'Ayse', parameter_name: 'first_name' }, { type: 'text', text: 'A-9', parameter_name: 'order_id' }]);
});

test('startv2 takes BODY.<name> and HEADER.<name> columns, and the position BODY.2 for the second name', async () => {
  const id = await namedTemplate();
  const headers = ['ROW', 'PHONE', 'HEADER.day', 'BODY.first_name', 'BODY.2', 'BUTTONS.0'];
  const phone = '905557710043';
  const res = await h.call('POST', `${A}/send-wizard/startv2`, { body: { message_template_id: id, channel_id: channel, total_time: 0,
    param_headers: headers, rows: [[1, phone, 'Monday', 'Mehmet', 'B-2', 'b2']] } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(h, channel, res.body.data.send_wizard_id, ['COMPLETED']);
  const got = await received(`+${phone}`);
  assert.deepEqual(got[0].parameters, [{ type: 'text', text: 'Monday', parameter_name: 'day' }]);
  assert.deepEqual(got[1].parameters, [{ type: 'text', text: 'Mehmet', parameter_name: 'first_name' }, { type: 'text', text: 'B-2', parameter_name: 'order_id' }]);
});

test('startv2 with a column naming no parameter of the template is 400 on that header', async () => {
  const id = await namedTemplate();
  const res = await h.call('POST', `${A}/send-wizard/startv2`, { body: { message_template_id: id, channel_id: channel, total_time: 0,
    param_headers: ['ROW', 'PHONE', 'HEADER.day', 'BODY.first_name', 'BODY.last_name', 'BUTTONS.0'], rows: [[1, '905557710053', 'a', 'b', 'c', 'd']] } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'param_headers[4]');
  assert.match(res.body.errors[0].message, /BODY\.order_id/);
});

test('startv2 without a named column is 400 naming the missing column', async () => {
  const id = await namedTemplate();
  const res = await h.call('POST', `${A}/send-wizard/startv2`, { body: { message_template_id: id, channel_id: channel, total_time: 0,
    param_headers: ['ROW', 'PHONE', 'HEADER.day', 'BODY.first_name', 'BUTTONS.0'], rows: [[1, '905557710063', 'a', 'b', 'd']] } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'param_headers');
  assert.match(res.body.errors[0].message, /BODY\.order_id/);
});

test('the simulator refuses a NAMED send without parameter_name (100) and with an unknown name (132018)', async () => {
  await namedTemplate();
  const header = { type: 'header', parameters: [{ type: 'text', parameter_name: 'day', text: 'x' }] };
  const button = { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'a' }] };
  const missing = await graphSend(namedName, [header, { type: 'body', parameters: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, button], '+905557710073');
  assert.equal(missing.status, 400);
  assert.equal(missing.body.error?.code, 100);
  assert.match(missing.body.error?.error_data?.details ?? '', /Parameter name is missing or empty/);
  const unknown = await graphSend(namedName, [header, { type: 'body', parameters: [
    { type: 'text', parameter_name: 'first_name', text: 'a' }, { type: 'text', parameter_name: 'orderid', text: 'b' },
  ] }, button], '+905557710073');
  assert.equal(unknown.status, 400);
  assert.equal(unknown.body.error?.code, 132018);
});

test('the simulator refuses parameter_name on a POSITIONAL template (100)', async () => {
  const id = await approvedTemplate(h, channel, [{ type: 'BODY', text: 'Hello {{1}}, welcome.', example: { body_text: [['Ayse']] } }] as never);
  const { name } = await h.store.db.selectFrom('templates').select('name').where('id', '=', id).executeTakeFirstOrThrow();
  const res = await graphSend(name, [{ type: 'body', parameters: [{ type: 'text', parameter_name: 'first_name', text: 'a' }] }], '+905557710083');
  assert.equal(res.status, 400);
  assert.equal(res.body.error?.code, 100);
  const ok = await graphSend(name, [{ type: 'body', parameters: [{ type: 'text', text: 'a' }] }], '+905557710083');
  assert.equal(ok.status, 200);
});

test('the simulator refuses a NAMED creation with positional examples and a POSITIONAL one with named variables', async () => {
  const create = (body: Record<string, unknown>) => fetch(`${h.simulatorUrl}/${SIM_WABA_ID}/message_templates`, {
    method: 'POST', headers: { authorization: `Bearer ${SIM_ACCESS_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: uniqueName('sim'), language: 'en_US', category: 'MARKETING', ...body }),
  });
  const namedWithBodyText = await create({ parameter_format: 'NAMED', components: [{ type: 'BODY', text: BODY, example: { body_text: [['a', 'b']] } }] });
  assert.equal(namedWithBodyText.status, 400);
  const positionalWithNames = await create({ components: [{ type: 'BODY', text: BODY, example: { body_text: [['a', 'b']] } }] });
  assert.equal(positionalWithNames.status, 400);
  const wrongNames = await create({ parameter_format: 'NAMED', components: [{ type: 'BODY', text: BODY, example: { body_text_named_params: [
    { param_name: 'first_name', example: 'a' }, { param_name: 'order', example: 'b' },
  ] } }] });
  assert.equal(wrongNames.status, 400);
  const ok = await create({ parameter_format: 'NAMED', components: [{ type: 'BODY', text: BODY, example: { body_text_named_params: [
    { param_name: 'first_name', example: 'a' }, { param_name: 'order_id', example: 'b' },
  ] } }] });
  assert.equal(ok.status, 200);
});
