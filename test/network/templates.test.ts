import assert from 'node:assert/strict';
import { after, before, beforeEach, test } from 'node:test';
import { isValidWebhookSignature } from '../../src/domain/webhook-signature.js';
import type { CreateTemplateInput } from '../../src/network/port.js';
import { SIM_WABA_ID } from '../../src/network/simulator/index.js';
import {
  AUTH, assertSameShape, credsOf, eventually, fixture, httpJson, networkErrorOf, startSim, WebhookReceiver, type SimSetup,
} from './helpers.js';

const SECRET = 'templates-secret';
const creds = credsOf();
let s: SimSetup;
let receiver: WebhookReceiver;

before(async () => {
  receiver = new WebhookReceiver();
  s = await startSim({ webhookUrl: await receiver.start(), appSecret: SECRET });
});
after(async () => {
  await s.close();
  await receiver.close();
});
beforeEach(async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/reset`);
  receiver.received.length = 0;
});

function draft(name: string, extra: Partial<CreateTemplateInput> = {}): CreateTemplateInput {
  return {
    name,
    language: 'en_US',
    category: 'MARKETING',
    components: [{ type: 'BODY', text: 'Hello {{1}}, your order is ready.', example: { body_text: [['Ann']] } }],
    ...extra,
  };
}

async function statusUpdates(count: number) {
  await eventually(() => receiver.changes('message_template_status_update').length >= count);
  return receiver.changes('message_template_status_update').map((c) => c.value);
}

test('a created template is PENDING and answers like the real creation', async () => {
  const created = await s.net.createTemplate(creds, draft('order_ready'));
  assert.equal(created.status, 'PENDING');
  assert.equal(created.category, 'MARKETING');
  assertSameShape(created, fixture('graph_create_template_response__ruby-sdk-vcr'));
  assert.equal((await s.net.getTemplate(creds, created.id)).status, 'PENDING');
});

test('a template is APPROVED after the review delay', async () => {
  const { id } = await s.net.createTemplate(creds, draft('approve_me'));
  await eventually(async () => (await s.net.getTemplate(creds, id)).status === 'APPROVED');
  const t = await s.net.getTemplate(creds, id);
  assert.equal(t.rejected_reason, 'NONE');
  assert.equal(t.name, 'approve_me');
});

test('approval arrives as a signed message_template_status_update shaped like the fixture', async () => {
  const { id } = await s.net.createTemplate(creds, draft('approved_by_hook', { category: 'UTILITY' }));
  const [value] = await statusUpdates(1);
  const hook = receiver.received[0];
  assert.ok(isValidWebhookSignature(hook.raw, hook.headers['x-hub-signature-256'] as string, SECRET));
  assertSameShape(hook.body, fixture('webhook_template_status_approved__meta-docs'));
  assert.deepEqual(value, {
    event: 'APPROVED', message_template_id: Number(id), message_template_name: 'approved_by_hook',
    message_template_language: 'en-US', reason: 'NONE', message_template_category: 'UTILITY',
  });
});

test('a name containing reject is REJECTED with INVALID_FORMAT and rejection_info', async () => {
  const { id } = await s.net.createTemplate(creds, draft('please_reject_this'));
  const [value] = await statusUpdates(1);
  assertSameShape(receiver.received[0].body, fixture('webhook_template_status_rejected_invalid_format__meta-docs'));
  assert.equal(value.event, 'REJECTED');
  assert.equal(value.reason, 'INVALID_FORMAT');
  const t = await s.net.getTemplate(creds, id);
  assert.equal(t.status, 'REJECTED');
  assert.equal(t.rejected_reason, 'INVALID_FORMAT');
});

test('a deleted name is blocked for 30 days with subcode 2388023', async () => {
  await s.net.createTemplate(creds, draft('short_lived'));
  await s.net.deleteTemplate(creds, { name: 'short_lived' });
  const err = await networkErrorOf(s.net.createTemplate(creds, draft('short_lived', { language: 'pt_BR' })));
  assert.equal(err.kind, 'graph');
  assert.equal(err.code, 100);
  assert.equal(err.graph?.error_subcode, 2388023);
  assert.equal(err.graph?.error_user_title, 'Message template language is being deleted');
  await httpJson('POST', `${s.rootUrl}/_sim/clock`, { advance_ms: 30 * 86_400_000 });
  assert.equal((await s.net.createTemplate(creds, draft('short_lived'))).status, 'PENDING');
});

test('the same name in the same language is refused; another language is accepted', async () => {
  await s.net.createTemplate(creds, draft('twice'));
  const err = await networkErrorOf(s.net.createTemplate(creds, draft('twice')));
  assert.equal(err.code, 100);
  assert.equal(err.graph?.error_subcode, 2388024);
  assert.equal((await s.net.createTemplate(creds, draft('twice', { language: 'es' }))).status, 'PENDING');
});

test('the 101st creation within an hour is refused with the WABA rate limit 80007', async () => {
  for (let i = 0; i < 100; i++) await s.net.createTemplate(creds, draft(`bulk_${i}`));
  const err = await networkErrorOf(s.net.createTemplate(creds, draft('bulk_100')));
  assert.equal(err.kind, 'graph');
  assert.equal(err.code, 80007);
  assert.equal(err.httpStatus, 400);
  await httpJson('POST', `${s.rootUrl}/_sim/clock`, { advance_ms: 3_600_000 });
  assert.equal((await s.net.createTemplate(creds, draft('bulk_100'))).status, 'PENDING');
});

test('creation checks the name, category, language and BODY like the network', async () => {
  const bad: CreateTemplateInput[] = [
    draft('Has Spaces'),
    draft('ok_name', { category: 'PROMO' }),
    draft('ok_name', { language: 'xx_XX' }),
    draft('ok_name', { components: [{ type: 'FOOTER', text: 'Bye' }] }),
    draft('ok_name', { components: [{ type: 'BODY', text: 'Hi {{1}} there' }] }),
    draft('ok_name', { components: [{ type: 'BODY', text: 'x'.repeat(1025) }] }),
  ];
  for (const input of bad) {
    const err = await networkErrorOf(s.net.createTemplate(creds, input));
    assert.equal(err.kind, 'graph');
    assert.equal(err.code, 100, JSON.stringify(input));
    assert.equal(err.httpStatus, 400);
  }
  const listed = await s.net.listTemplates(creds);
  assert.equal(listed.data.length, 0);
});

test('the list pages with the after cursor and filters by name', async () => {
  for (const name of ['alpha_one', 'alpha_two', 'beta_one']) await s.net.createTemplate(creds, draft(name));
  const first = await s.net.listTemplates(creds, { limit: 2 });
  assert.deepEqual(first.data.map((t) => t.name), ['beta_one', 'alpha_two']);
  assert.equal(first.paging.hasMore, true);
  const second = await s.net.listTemplates(creds, { limit: 2, after: first.paging.after ?? undefined });
  assert.deepEqual(second.data.map((t) => t.name), ['alpha_one']);
  assert.equal(second.paging.hasMore, false);
  const filtered = await s.net.listTemplates(creds, { name: 'alpha' });
  assert.deepEqual(filtered.data.map((t) => t.name).sort(), ['alpha_one', 'alpha_two']);
});

test('the raw list and get answers have the real shapes', async () => {
  const { id } = await s.net.createTemplate(creds, draft('shape_check'));
  await s.net.createTemplate(creds, draft('shape_check_two', {
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Welcome title' },
      { type: 'BODY', text: 'Hello {{1}}, welcome to our {{2}} test.', example: { body_text: [['Ann', 'shop']] } },
    ],
  }));
  const list = await httpJson('GET', `${s.url}/${SIM_WABA_ID}/message_templates?fields=name,components,language,status,category&limit=1`, undefined, AUTH);
  const real = fixture('graph_list_templates_with_paging__java-sdk') as { data: Record<string, unknown>[] };
  const { previous_category: _ignored, ...item } = real.data[0];
  assertSameShape(list.json, { ...real, data: [item] }, ['paging.next']);
  const one = await httpJson('GET', `${s.url}/${id}`, undefined, AUTH);
  assertSameShape(one.json, fixture('graph_get_template_by_id__ruby-sdk-vcr'));
});

test('deleting one language by hsm_id keeps the other languages', async () => {
  const en = await s.net.createTemplate(creds, draft('multi'));
  const es = await s.net.createTemplate(creds, draft('multi', { language: 'es' }));
  await s.net.deleteTemplate(creds, { name: 'multi', templateId: en.id });
  const left = await s.net.listTemplates(creds, { name: 'multi' });
  assert.deepEqual(left.data.map((t) => t.id), [es.id]);
  const err = await networkErrorOf(s.net.getTemplate(creds, en.id));
  assert.equal(err.graph?.error_subcode, 33);
});

test('deleting a name that does not exist is a Graph 100 error', async () => {
  const err = await networkErrorOf(s.net.deleteTemplate(creds, { name: 'never_made' }));
  assert.equal(err.kind, 'graph');
  assert.equal(err.code, 100);
});
