/**
 * The tenant isolation matrix: every operation that takes an id (channel_id, template ids, message ids,
 * send_wizard_id / id, file handle) is called by company B with company A's id and with an id that does not
 * exist. The two answers must be the same but for trace_id and the id's own text (404 and the same code and
 * field; the message lookup simply finds nothing), B's lists never show A's ids, and A's resources are
 * exactly as they were after B's attempts (B's delete and stop do nothing). The matrix is checked against the
 * OpenAPI document, so a new operation that takes an id fails this suite until it is added here.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { updateChannelHealth } from '../src/store/channels.js';
import { insertTemplate } from '../src/store/templates.js';
import { phones, v1Rows } from '../test/support/bulk.js';
import { OTHER_CHANNEL_ID, startHarness, type Harness } from '../test/support/harness.js';
import { sendParams, sendableComponents } from '../test/support/sending.js';
import { apiV1Body, uniqueName, validComponents } from '../test/support/templates.js';
import { PNG, seedCompanyA, settle, show, upload, type Answer, type Seeded } from './fuzz-support.js';

const A = '/agent-app/message-template';
const B_CHANNEL = OTHER_CHANNEL_ID;
const B_TEMPLATE_ID = '990000000000777';

let h: Harness;
let a: Seeded & { runningWizardId: string };
let allOfA: string[];
/** Company A's client webhook endpoint (an addition; its URL never answers, so deliveries only retry). */
let endpointOfA: string;
/** The BSUID the network gave one of A's recipients, and a BSUID on A's opt-out list. */
let userIdOfA: string;
const OPTED_OUT_OF_A = 'US.99887766554433';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { channelMaxAgeMs: 24 * 3600_000 });
  // B's channel is not on the simulated network: give it a fresh, healthy reading so B's calls get past the
  // channel to the id under test (instead of failing at the network for A's id and a missing id alike).
  await updateChannelHealth(h.store.db, B_CHANNEL, { status: 'CONNECTED', quality_rating: 'GREEN', messaging_limit_tier: 'TIER_UNLIMITED', display_phone_number: '+1 555-990-0001', verified_name: 'B' }, true);
  // B has a template of its own, so its lists are not empty.
  await insertTemplate(h.store.db, {
    id: B_TEMPLATE_ID,
    company_id: h.b.companyId,
    channel_id: B_CHANNEL,
    waba_id: '990000000000000',
    name: 'b_own_template',
    language: 'en_US',
    category: 'MARKETING',
    status: 'APPROVED',
    components: sendableComponents(),
    allow_category_change: false,
  });
  const seeded = await seedCompanyA(h);
  // A bulk send that stays RUNNING: its last rows are due days from now, so B's stop has something to stop.
  const start = await h.call('POST', `${A}/send-wizard/start`, {
    body: { message_template_id: seeded.templateId, rows: v1Rows(phones(3, '9055511')), total_time: 30 * 24 * 3600, channel_id: seeded.channelId },
  });
  assert.equal(start.status, 200, show(start.body));
  a = { ...seeded, runningWizardId: start.body.data.send_wizard_id };
  const endpoint = await h.call('POST', '/api/v1/webhook-endpoints', { body: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } });
  assert.equal(endpoint.status, 200, show(endpoint.body));
  endpointOfA = endpoint.body.data.id;
  const optOut = await h.call('POST', '/api/v1/opt-outs', { body: { user_id: OPTED_OUT_OF_A } });
  assert.equal(optOut.status, 200, show(optOut.body));
  await settle(h);
  const records = await h.call('POST', '/api/v1/messages', { body: { message_ids: a.messageIds } });
  userIdOfA = records.body.items.map((r: { user_id: string | null }) => r.user_id).find(Boolean);
  assert.ok(userIdOfA, `the network gave none of A's recipients a BSUID: ${show(records.body)}`);
  allOfA = [...Object.values(SIM_CHANNEL_IDS), a.templateId, a.wizardId, a.runningWizardId, a.fileHandle, endpointOfA, userIdOfA, OPTED_OUT_OF_A, ...a.messageIds];
});
after(() => h.close());

/** An id shaped like `id` (digits for digits, letters for letters, the rest kept) that nothing has. */
function missingLike(id: string): string {
  const pick = (chars: string) => chars[randomInt(chars.length)];
  for (;;) {
    const out = id.replace(/[0-9]/g, () => pick('123456789')).replace(/[a-z]/g, () => pick('abcdefghijklmnopqrstuvwxyz')).replace(/[A-Z]/g, () => pick('ABCDEFGHIJKLMNOPQRSTUVWXYZ'));
    if (out !== id && !allOfA.includes(out)) return out;
  }
}

/** What company A's rows are: B's attempts must leave them exactly so. */
async function companyARows(): Promise<Record<string, unknown>> {
  await settle(h);
  const db = h.store.db;
  const company = h.a.companyId;
  const rows = async (query: RawBuilder<{ k: string }>) => (await query.execute(db)).rows.map((r) => r.k).sort();
  return {
    templates: await rows(sql<{ k: string }>`select id || ':' || status || ':' || coalesce(deleted_at::text, 'live') || ':' || updated_at::text as k from templates where company_id = ${company}`),
    wizards: await rows(sql<{ k: string }>`select id || ':' || status || ':' || summary || ':' || cancelled_count || ':' || updated_at::text as k from send_wizards where company_id = ${company}`),
    messages: await rows(sql<{ k: string }>`select id || ':' || status || ':' || version as k from messages where company_id = ${company}`),
    media: await rows(sql<{ k: string }>`select file_handle as k from media_uploads where company_id = ${company}`),
    name_checks: await rows(sql<{ k: string }>`select channel_id || ':' || name as k from template_name_checks where company_id = ${company}`),
    channels: await rows(sql<{ k: string }>`select id || ':' || company_id || ':' || marketing_messages_enabled as k from channels where company_id = ${company}`),
    opt_outs: await rows(sql<{ k: string }>`select coalesce(phone_number, '') || ':' || coalesce(user_id, '') as k from opt_outs where company_id = ${company}`),
  };
}

/** One call of the matrix: `run(id)` calls the operation as company B with `id` in the place under test. */
interface Case {
  op: string;
  place: string;
  /** A's id in that place. */
  id: () => string;
  run: (id: string) => Promise<Answer>;
  /** The status both answers must have (undefined: any 4xx/5xx, as long as both are the same). */
  status?: number;
  /** The code and field both answers must name (for 4xx). */
  code?: string;
  field?: string;
  /** For a 200 that writes B's own row (with its own times): what of the answer must be the same for both ids. */
  compare?: (res: Answer) => unknown;
}

const asB = (method: string, url: string, body?: unknown) => h.call(method, url, { token: h.b.token, body });
const q = encodeURIComponent;

function imageHeaderComponents(handle: string) {
  return [{ type: 'HEADER', format: 'IMAGE', example: { header_handle: [handle] } }, ...validComponents().slice(1)];
}

const CASES: Case[] = [
  // channel_id: A's channel
  { op: `GET ${A}/template/waba-status`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `${A}/template/waba-status?channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'GET /api/v1/message-templates/waba-status', place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `/api/v1/message-templates/waba-status?channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `GET ${A}/template`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `${A}/template?channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'GET /api/v1/message-templates', place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `/api/v1/message-templates?channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `GET ${A}/template/get-by-id`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `${A}/template/get-by-id?template_id=${q(a.templateId)}&channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'GET /api/v1/message-templates/{message_template_id}', place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `/api/v1/message-templates/${q(a.templateId)}?channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/template`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/template`, { name: uniqueName('iso'), category: 'MARKETING', language: 'en_US', components: validComponents(), channel_id: id }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/templatev2`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/templatev2`, { message_template: { name: uniqueName('iso'), category: 'MARKETING', language: 'en_US', components: validComponents() }, channel_id: id }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'POST /api/v1/message-templates/check-name', place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', '/api/v1/message-templates/check-name', { channel_id: id, name: uniqueName('iso') }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'POST /api/v1/message-templates', place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', '/api/v1/message-templates', apiV1Body(id, uniqueName('iso'))), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/single-messagev2`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/single-messagev2`, { channel_id: id, phone_number: '905551110013', message_template_id: a.templateId, message_template: sendParams() }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/send-wizard/start`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/send-wizard/start`, { message_template_id: a.templateId, rows: v1Rows(phones(2, '9055512')), total_time: 0, channel_id: id }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/send-wizard/startv2`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/send-wizard/startv2`, { message_template_id: a.templateId, rows: [[1, '905551200013', 'x', 'y', 'z']], total_time: 0, channel_id: id, param_headers: ['ROW', 'PHONE', 'BODY.1', 'BODY.2', 'BUTTONS.0'] }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/send-wizard/stop`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/send-wizard/stop`, { send_wizard_id: a.runningWizardId, channel_id: id }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: `POST ${A}/send-wizard/reports`, place: 'channel_id', id: () => a.channelId, run: (id) => asB('POST', `${A}/send-wizard/reports`, { page: 1, page_size: 20, channel_id: id }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'POST /api/v1/media', place: 'channel_id', id: () => a.channelId, run: (id) => upload(h, [{ name: 'channel_id', value: id }, { name: 'file', value: PNG, filename: 'iso.png', type: 'image/png' }], h.b.token), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  // template ids, on B's own channel
  { op: `GET ${A}/template/get-by-id`, place: 'template_id', id: () => a.templateId, run: (id) => asB('GET', `${A}/template/get-by-id?template_id=${q(id)}&channel_id=${B_CHANNEL}`), status: 404, code: 'NOT_FOUND', field: 'template_id' },
  { op: 'GET /api/v1/message-templates/{message_template_id}', place: 'message_template_id', id: () => a.templateId, run: (id) => asB('GET', `/api/v1/message-templates/${q(id)}?channel_id=${B_CHANNEL}`), status: 404, code: 'NOT_FOUND', field: 'template_id' },
  { op: `DELETE ${A}/template`, place: 'id', id: () => a.templateId, run: (id) => asB('DELETE', `${A}/template`, { id }), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: 'DELETE /api/v1/message-templates/{message_template_id}', place: 'message_template_id', id: () => a.templateId, run: (id) => asB('DELETE', `/api/v1/message-templates/${q(id)}`), status: 404, code: 'NOT_FOUND', field: 'message_template_id' },
  { op: `POST ${A}/single-messagev2`, place: 'message_template_id', id: () => a.templateId, run: (id) => asB('POST', `${A}/single-messagev2`, { channel_id: B_CHANNEL, phone_number: '905551110023', message_template_id: id, message_template: sendParams() }), status: 404, code: 'NOT_FOUND', field: 'message_template_id' },
  { op: `POST ${A}/send-wizard/start`, place: 'message_template_id', id: () => a.templateId, run: (id) => asB('POST', `${A}/send-wizard/start`, { message_template_id: id, rows: v1Rows(phones(2, '9055513')), total_time: 0, channel_id: B_CHANNEL }), status: 404, code: 'NOT_FOUND', field: 'message_template_id' },
  { op: `POST ${A}/send-wizard/startv2`, place: 'message_template_id', id: () => a.templateId, run: (id) => asB('POST', `${A}/send-wizard/startv2`, { message_template_id: id, rows: [[1, '905551300013', 'x', 'y', 'z']], total_time: 0, channel_id: B_CHANNEL, param_headers: ['ROW', 'PHONE', 'BODY.1', 'BODY.2', 'BUTTONS.0'] }), status: 404, code: 'NOT_FOUND', field: 'message_template_id' },
  // bulk sends
  { op: `POST ${A}/send-wizard/stop`, place: 'send_wizard_id', id: () => a.runningWizardId, run: (id) => asB('POST', `${A}/send-wizard/stop`, { send_wizard_id: id, channel_id: B_CHANNEL }), status: 404, code: 'NOT_FOUND', field: 'send_wizard_id' },
  { op: `POST ${A}/send-wizard/stop`, place: 'send_wizard_id (finished)', id: () => a.wizardId, run: (id) => asB('POST', `${A}/send-wizard/stop`, { send_wizard_id: id, channel_id: B_CHANNEL }), status: 404, code: 'NOT_FOUND', field: 'send_wizard_id' },
  { op: `POST ${A}/send-wizard/reports/detail`, place: 'id', id: () => a.wizardId, run: (id) => asB('POST', `${A}/send-wizard/reports/detail`, { data: { page: 1, page_size: 20 }, id }), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: `POST ${A}/send-wizard/reports/detail`, place: 'id (running)', id: () => a.runningWizardId, run: (id) => asB('POST', `${A}/send-wizard/reports/detail`, { data: { page: 1, page_size: 20 }, id }), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: `GET ${A}/send-wizard/reports/detail/export`, place: 'id', id: () => a.wizardId, run: (id) => asB('GET', `${A}/send-wizard/reports/detail/export?id=${q(id)}&format=csv`), status: 404, code: 'NOT_FOUND', field: 'id' },
  // bulk-send lifecycle (additions): B's pause, resume and retry of A's bulk sends find nothing and change nothing
  { op: `POST ${A}/send-wizard/pause`, place: 'send_wizard_id', id: () => a.runningWizardId, run: (id) => asB('POST', `${A}/send-wizard/pause`, { send_wizard_id: id, channel_id: B_CHANNEL }), status: 404, code: 'NOT_FOUND', field: 'send_wizard_id' },
  { op: `POST ${A}/send-wizard/resume`, place: 'send_wizard_id', id: () => a.runningWizardId, run: (id) => asB('POST', `${A}/send-wizard/resume`, { send_wizard_id: id, channel_id: B_CHANNEL }), status: 404, code: 'NOT_FOUND', field: 'send_wizard_id' },
  { op: `POST ${A}/send-wizard/retry`, place: 'send_wizard_id', id: () => a.wizardId, run: (id) => asB('POST', `${A}/send-wizard/retry`, { send_wizard_id: id, channel_id: B_CHANNEL }), status: 404, code: 'NOT_FOUND', field: 'send_wizard_id' },
  { op: 'POST /api/v1/send-wizards/{id}/pause', place: 'id', id: () => a.runningWizardId, run: (id) => asB('POST', `/api/v1/send-wizards/${q(id)}/pause`, {}), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: 'POST /api/v1/send-wizards/{id}/resume', place: 'id', id: () => a.runningWizardId, run: (id) => asB('POST', `/api/v1/send-wizards/${q(id)}/resume`, {}), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: 'POST /api/v1/send-wizards/{id}/retry', place: 'id', id: () => a.wizardId, run: (id) => asB('POST', `/api/v1/send-wizards/${q(id)}/retry`, {}), status: 404, code: 'NOT_FOUND', field: 'id' },
  // client webhook endpoints (addition): A's endpoint is invisible to B
  { op: 'GET /api/v1/webhook-endpoints/{id}', place: 'id', id: () => endpointOfA, run: (id) => asB('GET', `/api/v1/webhook-endpoints/${q(id)}`), status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND', field: 'id' },
  { op: 'PATCH /api/v1/webhook-endpoints/{id}', place: 'id', id: () => endpointOfA, run: (id) => asB('PATCH', `/api/v1/webhook-endpoints/${q(id)}`, { enabled: false }), status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND', field: 'id' },
  { op: 'DELETE /api/v1/webhook-endpoints/{id}', place: 'id', id: () => endpointOfA, run: (id) => asB('DELETE', `/api/v1/webhook-endpoints/${q(id)}`), status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND', field: 'id' },
  { op: 'GET /api/v1/webhook-endpoints/{id}/deliveries', place: 'id', id: () => endpointOfA, run: (id) => asB('GET', `/api/v1/webhook-endpoints/${q(id)}/deliveries`), status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND', field: 'id' },
  { op: 'POST /api/v1/webhook-endpoints/{id}/deliveries/{delivery_id}/replay', place: 'id', id: () => endpointOfA, run: (id) => asB('POST', `/api/v1/webhook-endpoints/${q(id)}/deliveries/1/replay`, {}), status: 404, code: 'WEBHOOK_ENDPOINT_NOT_FOUND', field: 'id' },
  // messages: unknown and other companies' ids are simply absent
  { op: 'POST /api/v1/messages', place: 'message_ids', id: () => a.messageIds[0], run: (id) => asB('POST', '/api/v1/messages', { message_ids: [id] }), status: 200 },
  { op: 'GET /api/v1/messages', place: 'user_id', id: () => userIdOfA, run: (id) => asB('GET', `/api/v1/messages?user_id=${q(id)}`), status: 200 },
  // opt-outs: B's list is B's own; A's entries are not in it, and B's add writes only B's entry
  { op: 'GET /api/v1/opt-outs', place: 'user_id', id: () => OPTED_OUT_OF_A, run: (id) => asB('GET', `/api/v1/opt-outs?user_id=${q(id)}`), status: 200 },
  {
    op: 'POST /api/v1/opt-outs',
    place: 'user_id',
    id: () => OPTED_OUT_OF_A,
    run: (id) => asB('POST', '/api/v1/opt-outs', { user_id: id }),
    status: 200,
    compare: (res) => ({ status: res.status, created: res.body.data?.created, source: res.body.data?.opt_out?.source }),
  },
  // statistics and channel settings (additions)
  { op: 'GET /api/v1/overview', place: 'channel_id', id: () => a.channelId, run: (id) => asB('GET', `/api/v1/overview?channel_id=${q(id)}`), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  { op: 'GET /api/v1/send-wizards/{id}/timeline', place: 'id', id: () => a.wizardId, run: (id) => asB('GET', `/api/v1/send-wizards/${q(id)}/timeline`), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: `POST ${A}/send-wizard/reports/skipped`, place: 'id', id: () => a.wizardId, run: (id) => asB('POST', `${A}/send-wizard/reports/skipped`, { data: { page: 1, page_size: 20 }, id }), status: 404, code: 'NOT_FOUND', field: 'id' },
  { op: 'PUT /api/v1/channels/{channel_id}/marketing-messages', place: 'channel_id', id: () => a.channelId, run: (id) => asB('PUT', `/api/v1/channels/${q(id)}/marketing-messages`, { enabled: true }), status: 404, code: 'CHANNEL_NOT_FOUND', field: 'channel_id' },
  // file handles
  {
    op: 'POST /api/v1/message-templates',
    place: 'file_handle',
    id: () => a.fileHandle,
    run: async (id) => {
      const name = uniqueName('iso');
      const checked = await asB('POST', '/api/v1/message-templates/check-name', { channel_id: B_CHANNEL, name });
      assert.equal(checked.status, 200, show(checked.body));
      return asB('POST', '/api/v1/message-templates', apiV1Body(B_CHANNEL, name, { components: [{ type: 'HEADER', format: 'IMAGE' }, ...validComponents().slice(1)], file_handle: id }));
    },
    status: 400,
    code: 'VALIDATION_FAILED',
    field: 'file_handle',
  },
  {
    op: `POST ${A}/template`,
    place: 'components[0].example.header_handle[0]',
    id: () => a.fileHandle,
    run: (id) => asB('POST', `${A}/template`, { name: uniqueName('iso'), category: 'MARKETING', language: 'en_US', components: imageHeaderComponents(id), channel_id: B_CHANNEL }),
    // Family A creates do not check who uploaded a header_handle (family B's file_handle is checked): B's
    // channel is not on the simulated network, so both answers are the network's refusal of B's channel.
  },
  {
    op: `POST ${A}/templatev2`,
    place: 'media_names',
    id: () => a.fileHandle,
    run: (id) => asB('POST', `${A}/templatev2`, { message_template: { name: uniqueName('iso'), category: 'MARKETING', language: 'en_US', components: imageHeaderComponents(id) }, channel_id: B_CHANNEL, media_names: { [id]: 'iso.png' } }),
  },
];

/** The answer without its trace_id and with the ids' own text replaced, for comparing two answers. */
function comparable(res: Answer, ids: string[]): unknown {
  const strip = (value: unknown): unknown => {
    if (typeof value === 'string') return ids.reduce((text, id) => text.split(id).join('<id>'), value);
    if (Array.isArray(value)) return value.map(strip);
    if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'trace_id').map(([k, v]) => [k, strip(v)]));
    return value;
  };
  return { status: res.status, body: strip(res.body) };
}

/** The operations of the OpenAPI document that take an id somewhere in their input. */
function operationsTakingIds(doc: any): string[] { // eslint-disable-line @typescript-eslint/no-explicit-any
  const idLike = (name: string) => /(^|_)ids?$|^file_handle$|^media_names$/.test(name);
  const namesIn = (schema: any): string[] => { // eslint-disable-line @typescript-eslint/no-explicit-any
    if (!schema || typeof schema !== 'object') return [];
    const own = Object.keys(schema.properties ?? {});
    return [...own, ...Object.values(schema.properties ?? {}).flatMap(namesIn), ...(schema.items ? namesIn(schema.items) : [])];
  };
  const out: string[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const [method, op] of Object.entries<any>(item)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      const names = [...(op.parameters ?? []).map((p: { name: string }) => p.name), ...namesIn(op.requestBody?.content?.['application/json']?.schema)];
      // The webhook receiver is not a company's resource (the matrix below never covers /webhooks/).
      if (names.some(idLike) && !path.startsWith('/webhooks/')) out.push(`${method.toUpperCase()} ${path}`);
    }
  }
  // The media upload's multipart fields (channel_id, file) are not in the document's request schemas.
  if (doc.paths['/api/v1/media']?.post) out.push('POST /api/v1/media');
  return out.sort();
}

test('the matrix covers every operation of the OpenAPI document that takes an id', async () => {
  const doc = await h.call('GET', '/docs/json', { token: null });
  assert.equal(doc.status, 200);
  const covered = new Set(CASES.map((c) => c.op));
  const missing = operationsTakingIds(doc.body).filter((op) => !covered.has(op));
  assert.deepEqual(missing, [], 'operations that take an id but have no isolation case');
  // Not a company's resource: the webhook handshake and events.
  for (const op of covered) assert.ok(!op.includes('/webhooks/'), op);
});

test("company B gets the same answer for company A's ids as for ids that do not exist, and A's resources stay as they were", async (t) => {
  const before = await companyARows();
  for (const c of CASES) {
    await t.test(`${c.op} — ${c.place}`, async () => {
      const theirs = c.id();
      const missing = missingLike(theirs);
      const withTheirs = await c.run(theirs);
      const withMissing = await c.run(missing);
      const context = `${c.op} ${c.place}\n  A's id ${theirs} → ${withTheirs.status} ${show(withTheirs.body)}\n  missing ${missing} → ${withMissing.status} ${show(withMissing.body)}`;
      const view = c.compare ?? ((res: Answer) => comparable(res, [res === withTheirs ? theirs : missing]));
      assert.deepEqual(view(withTheirs), view(withMissing), `answers differ: ${context}`);
      if (c.status === undefined) assert.ok(withTheirs.status >= 400, context);
      else assert.equal(withTheirs.status, c.status, context);
      if (c.status === undefined) {
        assert.equal(withTheirs.body.success, false, context);
      } else if (c.status === 200 && c.compare) {
        assert.equal(withTheirs.body.success, true, context);
      } else if (c.status === 200) {
        assert.deepEqual(withTheirs.body.items, [], context);
      } else {
        assert.equal(withTheirs.body.success, false, context);
        assert.equal(withTheirs.body.status_code, c.status, context);
        assert.equal(withTheirs.body.errors[0].code, c.code, context);
        assert.equal(withTheirs.body.errors[0].field, c.field, context);
      }
      assert.ok(!JSON.stringify(withTheirs.body).includes(h.a.companyId), `A's company id leaked: ${context}`);
    });
  }
  assert.deepEqual(await companyARows(), before, "company A's resources changed after company B's attempts");
});

test("company B's lists never show company A's ids", async () => {
  const answers = [
    await asB('GET', '/api/v1/channels'),
    await asB('GET', `${A}/template?channel_id=${B_CHANNEL}`),
    await asB('GET', `/api/v1/message-templates?channel_id=${B_CHANNEL}`),
    await asB('POST', `${A}/send-wizard/reports`, { page: 1, page_size: 500, channel_id: B_CHANNEL }),
    await asB('POST', '/api/v1/messages', { message_ids: a.messageIds }),
  ];
  for (const res of answers) assert.equal(res.status, 200, show(res.body));
  assert.deepEqual(answers[0].body.items.map((c: { id: string }) => c.id), [B_CHANNEL]);
  assert.deepEqual(answers[1].body.items.map((t: { id: string }) => t.id), [B_TEMPLATE_ID]);
  assert.deepEqual(answers[2].body.items.map((t: { id: string }) => t.id), [B_TEMPLATE_ID]);
  assert.deepEqual(answers[3].body.items, []);
  assert.deepEqual(answers[4].body.items, []);
  for (const res of answers) {
    const text = JSON.stringify(res.body);
    for (const id of [...allOfA, h.a.companyId]) assert.ok(!text.includes(id), `B's answer shows A's id ${id}: ${show(res.body)}`);
  }
});

test("after B's delete and stop, A's template and bulk send are still A's to use", async () => {
  const template = await h.call('GET', `/api/v1/message-templates/${a.templateId}?channel_id=${a.channelId}`);
  assert.equal(template.status, 200, show(template.body));
  assert.equal(template.body.data.message_template.status, 'APPROVED');
  const running = await h.call('POST', `${A}/send-wizard/reports`, { body: { page: 1, page_size: 500, channel_id: a.channelId } });
  assert.equal(running.body.items.find((w: { send_wizard_id: string }) => w.send_wizard_id === a.runningWizardId)?.status, 'RUNNING');
  const stop = await h.call('POST', `${A}/send-wizard/stop`, { body: { send_wizard_id: a.runningWizardId, channel_id: a.channelId } });
  assert.equal(stop.status, 200, show(stop.body));
  assert.equal(stop.body.data.status, 'STOPPED');
  assert.ok(stop.body.data.cancelled_count >= 1, show(stop.body));
  const sent = await h.call('POST', '/api/v1/messages', { body: { message_ids: a.messageIds } });
  assert.equal(sent.body.items.length, a.messageIds.length);
});
