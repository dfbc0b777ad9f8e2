import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import createClient from 'openapi-fetch';
import type { components, paths } from '../../web/src/generated/api.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { uniqueName } from '../support/templates.js';

// The TypeScript client generated from the OpenAPI document (web/src/generated/api.d.ts, openapi-typescript) used
// with openapi-fetch against the running service over loopback HTTP: every request and answer below is
// type-checked by `npm run typecheck` against the document, and the answers are checked here at run time.

let h: Harness;
let api: ReturnType<typeof createClient<paths>>;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  api = createClient<paths>({ baseUrl: h.appUrl, headers: { authorization: `Bearer ${h.a.token}` } });
});
after(() => h.close());

const components: components['schemas']['TemplateComponentInput'][] = [
  { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} sale', example: { header_text: ['summer'] } },
  { type: 'BODY', text: 'Hello {{1}}, your code {{2}} is ready.', example: { body_text: [['Ayse', 'SAVE10']] } },
  { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com/p/{{1}}', example: ['https://shop.example.com/p/summer'] }] },
];

/** Creates a template through the client and waits (through the client) until the network approved it. */
async function approvedTemplate(): Promise<string> {
  const created = await api.POST('/agent-app/message-template/template', {
    body: { name: uniqueName('client'), category: 'MARKETING', language: 'en_US', components, channel_id: channel },
  });
  assert.equal(created.response.status, 200, JSON.stringify(created.error));
  const id = created.data!.data.id;
  await eventually(async () => {
    const got = await api.GET('/agent-app/message-template/template/get-by-id', { params: { query: { template_id: id, channel_id: channel } } });
    return got.data?.data.message_template.status === 'APPROVED';
  }, 30_000);
  return id;
}

test('the generated client creates a template, sends one message and reads its status', async () => {
  const templateId = await approvedTemplate();
  const sent = await api.POST('/agent-app/message-template/single-messagev2', {
    body: {
      channel_id: channel,
      phone_number: '905551230014',
      message_template_id: templateId,
      full_name: 'Ayse',
      message_template: [
        { type: 'header', parameters: [{ type: 'text', text: 'winter' }] },
        { type: 'BODY', parameters: ['Ayse', { type: 'text', text: 'CODE42' }] },
        { type: 'button', sub_type: 'url', index: 0, parameters: ['winter-sale'] },
      ],
    },
  });
  assert.equal(sent.response.status, 200, JSON.stringify(sent.error));
  const messageId = sent.data!.data.message_id;
  let last: unknown;
  const record = await eventually(async () => {
    const found = await api.POST('/api/v1/messages', { body: { message_ids: [messageId] } });
    const item = found.data?.items[0];
    last = item;
    return item && ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'].includes(item.status) ? item : undefined;
  }, 30_000).catch((error) => assert.fail(`${error}: ${JSON.stringify(last)}`));
  // Nullable fields are `X | null` in the generated types.
  const failed: string | null = record.failed_time;
  assert.equal(failed, null);
  assert.equal(record.full_name, 'Ayse');
  assert.equal(record.webhook_response?.id, record.ext_id);
});

test('the generated client starts a bulk send and reads its reports', async () => {
  const templateId = await approvedTemplate();
  const started = await api.POST('/agent-app/message-template/send-wizard/startv2', {
    body: {
      message_template_id: templateId,
      channel_id: channel,
      total_time: 0,
      param_headers: ['id', 'phone', 'HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0'],
      rows: [
        [1, '905551230015', 'spring', 'Ali', 'C1', 'spring-sale'],
        [2, '905551230016', 'spring', 'Veli', 'C2', 'spring-sale'],
      ],
    },
  });
  assert.equal(started.response.status, 200, JSON.stringify(started.error));
  // The start answers a started bulk send or, with dry_run, a check: the generated union makes the client tell them apart.
  const data = started.data!.data;
  assert.ok('send_wizard_id' in data, JSON.stringify(data));
  const wizardId = data.send_wizard_id;
  assert.equal(data.summary, 2);

  const listed = await api.POST('/agent-app/message-template/send-wizard/reports', { body: { channel_id: channel, page: 1, page_size: 50 } });
  const item = listed.data!.items.find((i) => i.send_wizard_id === wizardId);
  assert.ok(item);
  const reason: string | null = item.paused_reason;
  assert.equal(reason, null);

  const detail = await eventually(async () => {
    const d = await api.POST('/agent-app/message-template/send-wizard/reports/detail', { body: { id: wizardId, data: { page: 1, page_size: 10 } } });
    const rows = d.data?.data.report_details ?? [];
    return rows.length === 2 && rows.every((r) => r.backend_sended_time !== undefined) ? d.data : undefined;
  }, 15_000);
  assert.deepEqual(detail.data.report_details.map((r) => r.row_id), [1, 2]);
  assert.equal(detail.pagination.total, 2);
});

test('the generated client reads family B answers and the error envelope', async () => {
  const channels = await api.GET('/api/v1/channels');
  const first = channels.data!.items.find((c) => c.id === channel);
  const overridden: number | null = first!.throughput_override_mps;
  assert.equal(overridden, null);

  const missing = await api.GET('/api/v1/message-templates/{message_template_id}', {
    params: { path: { message_template_id: 'missing' }, query: { channel_id: channel } },
  });
  assert.equal(missing.response.status, 404);
  const error: components['schemas']['ErrorEnvelope'] | undefined = missing.error;
  assert.equal(error?.errors[0].code, 'NOT_FOUND');
});

test('the generated client uploads a media file as multipart/form-data', async () => {
  const png = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(512).fill(7)])], { type: 'image/png' });
  const uploaded = await api.POST('/api/v1/media', {
    body: { channel_id: channel, file: 'summer.png' },
    bodySerializer: (body) => {
      const form = new FormData();
      form.append('channel_id', body.channel_id);
      form.append('file', png, body.file);
      return form;
    },
  });
  assert.equal(uploaded.response.status, 200, JSON.stringify(uploaded.error));
  assert.equal(uploaded.data!.data.file_type, 'image/png');
  assert.ok(uploaded.data!.data.file_handle.length > 0);
});
