import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { signWebhookBody } from '../../src/domain/webhook-signature.js';
import { startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';

// A JSON body nested thousands of levels deep is refused before anything walks it, on every JSON route.

let h: Harness;

before(async () => {
  h = await startHarness();
});
after(() => h.close());

/** Every operation that takes a JSON body (path parameters filled by an id nobody has). */
function jsonBodyRoutes(): Array<{ method: string; url: string }> {
  const spec = (h.app.http as unknown as { swagger(): { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> } }).swagger();
  const out: Array<{ method: string; url: string }> = [];
  for (const [path, operations] of Object.entries(spec.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      // The webhook is signed; it has its own test below.
      if (!operation.requestBody?.content?.['application/json'] || path === '/webhooks/whatsapp') continue;
      out.push({ method: method.toUpperCase(), url: path.replace(/\{[^}]+\}/g, '123456789012345') });
    }
  }
  return out;
}

const DEEP_ARRAY = '['.repeat(8000) + ']'.repeat(8000);
const DEEP_OBJECT = `{"rows":${'{"a":'.repeat(8000)}1${'}'.repeat(8000)}}`;

test('a JSON body nested 8,000 deep is a 400 naming the body on every JSON route', async () => {
  const routes = jsonBodyRoutes();
  assert.ok(routes.length >= 20, `only ${routes.length} JSON routes found`);
  const failures: string[] = [];
  for (const route of routes) {
    for (const payload of [DEEP_ARRAY, DEEP_OBJECT]) {
      const headers: Record<string, string> = { authorization: `Bearer ${h.a.token}`, 'content-type': 'application/json' };
      const res = await h.app.http.inject({ method: route.method as 'POST', url: route.url, headers, payload });
      const body = res.json();
      if (res.statusCode !== 400 || body.errors?.[0]?.code !== 'VALIDATION_FAILED' || body.errors?.[0]?.field !== 'body') {
        failures.push(`${route.method} ${route.url}: ${res.statusCode} ${res.body.slice(0, 160)}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

test('a signed webhook body nested 8,000 deep is a 400 and nothing is stored', async () => {
  const payload = `{"object":"whatsapp_business_account","entry":${DEEP_ARRAY}}`;
  const res = await h.app.http.inject({
    method: 'POST',
    url: '/webhooks/whatsapp',
    headers: { 'content-type': 'application/json', 'x-hub-signature-256': signWebhookBody(payload, TEST_APP_SECRET) },
    payload,
  });
  assert.equal(res.statusCode, 400, res.body);
  assert.equal(res.json().errors[0].field, 'body');
  const stored = await h.store.db.selectFrom('webhook_events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  assert.equal(Number(stored.n), 0);
});
