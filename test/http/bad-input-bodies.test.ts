import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { signWebhookBody } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';

// Every route that takes a body, taken from the OpenAPI document (so a new route is covered without editing
// this file), answers an empty, wrong-type or truncated body with a 4xx in the error envelope — never a 5xx.

let h: Harness;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
});
after(() => h.close());

/**
 * Every operation whose method can carry a body, with path parameters filled by an id nobody has. An operation that
 * takes no input at all (no request body, no path parameter, e.g. DELETE /api/v1/rate-card) has nothing to refuse.
 */
function bodyRoutes(): Array<{ method: string; url: string }> {
  const spec = (h.app.http as unknown as { swagger(): { paths: Record<string, Record<string, { requestBody?: unknown }>> } }).swagger();
  const out: Array<{ method: string; url: string }> = [];
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const method of Object.keys(operations)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      if (!operations[method].requestBody && !path.includes('{')) continue;
      out.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '123456789012345') });
    }
  }
  return out;
}

/** The bad bodies: [name, payload or undefined for none, content type or undefined for none]. */
const BAD_BODIES: Array<[string, string | undefined, string | undefined]> = [
  ['no body, no content type', undefined, undefined],
  ['empty body as application/json', '', 'application/json'],
  ['empty body as application/json; charset=utf-8', '', 'application/json; charset=utf-8'],
  ['null', 'null', 'application/json'],
  ['an array', '[]', 'application/json'],
  ['a string', '"x"', 'application/json'],
  ['a number', '1', 'application/json'],
  ['a truncated object', '{', 'application/json'],
  ['a truncated field', '{"channel_id": "1100', 'application/json'],
];

function assertEnvelope(label: string, status: number, text: string) {
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(text);
  } catch {
    assert.fail(`${label}: not JSON: ${text.slice(0, 200)}`);
  }
  assert.ok(status >= 400 && status < 500, `${label}: ${status} ${text.slice(0, 300)}`);
  assert.equal(body.success, false, label);
  assert.equal(body.status_code, status, label);
  assert.equal(typeof body.message, 'string', label);
  assert.equal(typeof body.trace_id, 'string', label);
  const errors = body.errors as Array<{ code?: unknown }>;
  assert.ok(Array.isArray(errors) && errors.length > 0 && typeof errors[0].code === 'string', `${label}: ${text.slice(0, 300)}`);
}

test('the table covers the body routes of both families and the webhook', () => {
  const urls = bodyRoutes().map((r) => `${r.method} ${r.url}`);
  for (const expected of [
    'POST /agent-app/message-template/send-wizard/start',
    'POST /agent-app/message-template/send-wizard/startv2',
    'POST /agent-app/message-template/single-messagev2',
    'DELETE /agent-app/message-template/template',
    'POST /api/v1/message-templates',
    'POST /api/v1/messages',
    'DELETE /api/v1/message-templates/123456789012345',
    'POST /webhooks/whatsapp',
  ]) assert.ok(urls.includes(expected), `${expected} is missing from ${urls.join(', ')}`);
});

test('every body route answers an empty, wrong-type or truncated body with 4xx in its envelope', async () => {
  const failures: string[] = [];
  for (const route of bodyRoutes()) {
    for (const [name, payload, contentType] of BAD_BODIES) {
      const headers: Record<string, string> = { authorization: `Bearer ${h.a.token}` };
      if (contentType) headers['content-type'] = contentType;
      // The webhook checks its signature first: sign the bad body so the body itself is what is judged.
      if (route.url === '/webhooks/whatsapp') headers['x-hub-signature-256'] = signWebhookBody(payload ?? '', TEST_APP_SECRET);
      const res = await h.app.http.inject({ method: route.method as 'POST', url: route.url, headers, ...(payload === undefined ? {} : { payload }) });
      try {
        assertEnvelope(`${route.method} ${route.url} with ${name}`, res.statusCode, res.body);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('a bulk start (v1 and v2) without a body is a 400 naming the body, not a 500', async () => {
  for (const path of ['start', 'startv2']) {
    const res = await h.call('POST', `/agent-app/message-template/send-wizard/${path}`);
    assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errors[0].code, 'VALIDATION_FAILED');
    assert.equal(res.body.errors[0].field, 'body');
  }
});

test('DELETE with content-type application/json and no body deletes the template', async () => {
  const id = await approvedTemplate(h, SIM_CHANNEL_IDS.main);
  const res = await h.call('DELETE', `/api/v1/message-templates/${id}`, { headers: { 'content-type': 'application/json' } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.success, true);
  const gone = await h.call('GET', `/api/v1/message-templates/${id}?channel_id=${SIM_CHANNEL_IDS.main}`);
  assert.equal(gone.status, 404, JSON.stringify(gone.body));
});

test('an empty JSON body on a route that needs one is the same 400 as no body at all', async () => {
  const none = await h.call('POST', '/api/v1/messages');
  const empty = await h.call('POST', '/api/v1/messages', { headers: { 'content-type': 'application/json' } });
  assert.equal(empty.status, 400);
  assert.deepEqual(empty.body.errors, none.body.errors);
});
