import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { validate, compileErrors } from '@readme/openapi-parser';
import { checkDocument, operations } from '../support/openapi-check.js';
import { startHarness, type Harness } from '../support/harness.js';
import { generateClientTypes, GENERATED_TYPES_PATH } from '../support/openapi-doc.js';

// The document served at /docs/json: valid OpenAPI 3.1, every operation documented by the house rules
// (test/support/openapi-check.ts), and the committed client types generated from exactly this document.

let h: Harness;
let doc: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
let found: string[];

before(async () => {
  h = await startHarness();
  const res = await h.call('GET', '/docs/json', { token: null });
  assert.equal(res.status, 200);
  doc = res.body;
  found = checkDocument(doc);
});
after(() => h.close());

/** The problems of one rule (lines containing `needle`). */
function problems(needle: RegExp): string[] {
  return found.filter((p) => needle.test(p));
}

test('the document is valid OpenAPI 3.1 for a standard validator', async () => {
  assert.equal(doc.openapi, '3.1.0');
  const result = await validate(structuredClone(doc) as never);
  assert.ok(result.valid, result.valid ? '' : compileErrors(result));
});

test('every operation has a summary, a description and tags', () => {
  assert.deepEqual(problems(/no summary|no description|no tags/), []);
});

test('every 2xx response and request body schema is concrete', () => {
  assert.deepEqual(problems(/accepts anything|additionalProperties: true|without properties|without items|no content schema|no 2xx/), []);
});

test('every operation has request and response examples that match their schemas', () => {
  assert.deepEqual(problems(/example/), []);
});

test('family routes need the bearer token; the webhook receiver and health declare none', () => {
  assert.deepEqual(problems(/security/), []);
  for (const method of ['get', 'post']) assert.deepEqual(doc.paths['/webhooks/whatsapp'][method].security, [], method);
  assert.deepEqual(doc.paths['/health'].get.security, []);
  const signature = doc.paths['/webhooks/whatsapp'].post.parameters.find((p: { name: string }) => p.name === 'x-hub-signature-256');
  assert.equal(signature?.in, 'header');
  assert.equal(signature?.required, true);
});

test('the checker reports an undocumented operation with an open body', () => {
  const bad = {
    ...doc,
    paths: { '/api/v1/bad': { post: { requestBody: { content: { 'application/json': { schema: { type: 'object' } } } }, responses: { 200: { description: 'x' } }, security: [] } } },
  };
  const found = checkDocument(bad).join('\n');
  for (const expected of ['no summary', 'no tags', 'an object without properties', 'request body application/json: no example', 'response 200 has no content schema', 'bearer']) {
    assert.ok(found.includes(expected), `${expected} in:\n${found}`);
  }
});

test('template components, send parameters and the media upload are documented concretely', () => {
  const schemas = doc.components.schemas;
  type Kind = { enum: string[] };
  const kinds = (s: { anyOf: Array<{ properties: { type: { anyOf: Kind[] } } }> }) => new Set(s.anyOf.map((m) => m.properties.type.anyOf[0].enum[0]));
  assert.deepEqual([...kinds(schemas.TemplateComponentInput)].sort(), ['BODY', 'BUTTONS', 'CAROUSEL', 'FOOTER', 'HEADER']);
  assert.deepEqual([...kinds(schemas.SendComponent)].sort(), ['body', 'button', 'buttons', 'carousel', 'header']);
  const media = doc.paths['/api/v1/media'].post.requestBody.content['multipart/form-data'].schema;
  assert.equal(media.properties.file.format, 'binary');
  assert.deepEqual(media.required.sort(), ['channel_id', 'file']);
  const single = doc.paths['/agent-app/message-template/single-messagev2'].post.requestBody.content['application/json'].schema;
  assert.equal(single.properties.message_template.items.$ref, '#/components/schemas/SendComponent');
});

test('internal routes (the Swagger UI) are left out', () => {
  assert.deepEqual(Object.keys(doc.paths).filter((p) => p.startsWith('/docs')), []);
  assert.ok(operations(doc).length >= 26);
});

test('the committed client types are what the document generates (npm run openapi)', async () => {
  const committed = await readFile(GENERATED_TYPES_PATH, 'utf8');
  assert.equal(committed, await generateClientTypes(doc), 'web/src/generated/api.d.ts is stale: run `npm run openapi` and commit it');
});

test('nullable fields generate `X | null` in the client types', async () => {
  const types = await readFile(GENERATED_TYPES_PATH, 'utf8');
  assert.match(types, /refreshed_at: string \| null;/);
  assert.match(types, /throughput_override_mps: number \| null;/);
  assert.match(types, /paused_reason: string \| null;/);
});
