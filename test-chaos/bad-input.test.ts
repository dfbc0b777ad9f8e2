/**
 * Bad input on every operation of the OpenAPI document (`GET /docs/json`), property-based: each request is
 * a valid request of company A (real channel, APPROVED template, bulk send and message ids) with at least
 * one defect drawn from the operation's own request schema — a missing required field, an unknown field,
 * a wrong type, a string or array over its bounds, a number out of range — or a value the service must
 * refuse (ids that do not exist, names and numbers that break the rules, garbage components and rows),
 * or a body that is not JSON, not an object, of another content type or over the size limit. Strings are
 * drawn from hostile sets (injections, emoji, RTL, control characters, 100k characters).
 *
 * Every answer must be 4xx in the error envelope with catalogue codes, and the database must hold exactly
 * what it held before. Webhooks, the multipart media upload and the streaming bulk starts have their own
 * properties below. Runs per property: 25 in the short form CI runs, 200 with TMS_CHAOS_FULL=1, or TMS_CHAOS_RUNS;
 * TMS_CHAOS_SEED replays a failure with the seed fast-check printed.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { normalizePhone } from '../src/domain/phone.js';
import { OTHER_CHANNEL_ID, TEST_APP_SECRET, startHarness, type Harness } from '../test/support/harness.js';
import { phones, v1Rows } from '../test/support/bulk.js';
import { sendParams, sendableComponents } from '../test/support/sending.js';
import { apiV1Body, uniqueName } from '../test/support/templates.js';
import { SIM_CHANNELS } from '../src/network/simulator/constants.js';
import {
  PNG,
  answered,
  RUNS,
  assertRefused,
  fcParams,
  multipart,
  nastyString,
  seedCompanyA,
  show,
  snapshot,
  upload,
  storedWebhookBodies,
  webhookEventCount,
  type Answer,
  type Part,
  type Seeded,
} from './fuzz-support.js';

/** The JSON Schema subset the route schemas use. */
interface Schema {
  pattern?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
  patternProperties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  $ref?: string;
}

interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema: Schema;
}

/** One operation of the OpenAPI document. */
interface Operation {
  method: string;
  path: string;
  key: string;
  query: Param[];
  pathParams: Param[];
  body?: Schema;
  multipart: boolean;
}

type Json = unknown;
type Key = string | number;

/** A request: path parameters, query (a value may repeat), and a JSON value or raw bytes as body. */
interface Req {
  path: Record<string, string>;
  query: Record<string, string | string[]>;
  body?: { json: Json } | { raw: string | Buffer; contentType?: string };
  /** Path parameters and query text sent as they are, not percent-encoded (broken encodings). */
  raw?: { path?: Record<string, string>; query?: string };
  notes: string[];
}

let h: Harness;
let seeded: Seeded;
let baseline: Record<string, unknown>;
let ops: Operation[];
/** Every id of either company: a value meant not to exist must not be one of these. */
let realIds: Set<string>;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  seeded = await seedCompanyA(h);
  realIds = new Set([
    ...SIM_CHANNELS.map((c) => c.id),
    OTHER_CHANNEL_ID,
    seeded.templateId,
    seeded.wizardId,
    seeded.fileHandle,
    ...seeded.messageIds,
  ]);
  const doc = await h.call('GET', '/docs/json', { token: null });
  assert.equal(doc.status, 200);
  ops = operations(doc.body);
  baseline = await snapshot(h);
});
after(() => h.close());

// ---------------------------------------------------------------------------------------------------
// The OpenAPI document

function resolve(schema: Schema, doc: { components?: { schemas?: Record<string, Schema> } }): Schema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.split('/').pop()!;
  return doc.components?.schemas?.[name] ?? schema;
}

function operations(doc: any): Operation[] { // eslint-disable-line @typescript-eslint/no-explicit-any
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Record<string, any>>(doc.paths)) { // eslint-disable-line @typescript-eslint/no-explicit-any
    for (const [method, op] of Object.entries<any>(item)) { // eslint-disable-line @typescript-eslint/no-explicit-any
      const params: Param[] = (op.parameters ?? []).map((p: Param) => ({ ...p, schema: resolve(p.schema, doc) }));
      const json = op.requestBody?.content?.['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path}`,
        query: params.filter((p) => p.in === 'query'),
        pathParams: params.filter((p) => p.in === 'path'),
        body: json ? resolve(json, doc) : undefined,
        multipart: (op.consumes ?? []).includes('multipart/form-data') || Boolean(op.requestBody?.content?.['multipart/form-data']),
      });
    }
  }
  return out;
}

/** Operations with their own properties below (not token-authenticated, multipart, or no input at all). */
const OWN_PROPERTY = new Set([
  'POST /webhooks/whatsapp', 'GET /webhooks/whatsapp', 'POST /api/v1/media', 'GET /health', 'GET /livez', 'GET /readyz', 'GET /metrics',
  // Multipart additions: their bad files and fields are tested in test/http/file-start.test.ts and
  // test/http/opt-outs.test.ts (not yet by a property here).
  'POST /agent-app/message-template/send-wizard/start-file', 'POST /api/v1/opt-outs/import',
]);

// ---------------------------------------------------------------------------------------------------
// Valid requests of company A (the defects are added to these)

const A = '/agent-app/message-template';
const V2_HEADERS = ['ROW', 'PHONE', 'BODY.1', 'BODY.2', 'BUTTONS.0'];

function validRequests(s: Seeded): Record<string, Omit<Req, 'notes'>> {
  const channel = { channel_id: s.channelId };
  const none = { path: {}, query: {} };
  const json = (body: Json) => ({ ...none, body: { json: body } });
  return {
    [`GET ${A}/template/waba-status`]: { path: {}, query: channel },
    [`POST ${A}/template`]: json({ name: uniqueName('chaos'), category: 'MARKETING', language: 'en_US', components: sendableComponents(), allow_category_change: false, channel_id: s.channelId }),
    [`GET ${A}/template`]: { path: {}, query: channel },
    [`DELETE ${A}/template`]: json({ id: s.templateId }),
    [`POST ${A}/templatev2`]: json({
      message_template: { name: uniqueName('chaos'), category: 'MARKETING', language: 'en_US', components: sendableComponents() },
      channel_id: s.channelId,
      media_names: { [s.fileHandle]: 'seed.png' },
    }),
    [`GET ${A}/template/get-by-id`]: { path: {}, query: { template_id: s.templateId, channel_id: s.channelId } },
    [`POST ${A}/single-messagev2`]: json({ channel_id: s.channelId, phone_number: '905551234567', message_template_id: s.templateId, full_name: 'Ayse', message_template: sendParams() }),
    [`POST ${A}/send-wizard/start`]: json({ message_template_id: s.templateId, rows: v1Rows(phones(3, '9055588')), total_time: 0, channel_id: s.channelId }),
    [`POST ${A}/send-wizard/startv2`]: json({
      message_template_id: s.templateId,
      rows: phones(3, '9055589').map((p, i) => [i + 1, p, `Name${i}`, `CODE${i}`, `p${i}`]),
      total_time: 0,
      channel_id: s.channelId,
      param_headers: V2_HEADERS,
    }),
    [`POST ${A}/send-wizard/stop`]: json({ send_wizard_id: s.wizardId, channel_id: s.channelId }),
    [`POST ${A}/send-wizard/reports`]: json({ page: 1, page_size: 20, channel_id: s.channelId }),
    [`POST ${A}/send-wizard/reports/detail`]: json({ data: { page: 1, page_size: 20 }, id: s.wizardId }),
    'GET /api/v1/message-templates/waba-status': { path: {}, query: channel },
    'GET /api/v1/channels': none,
    'POST /api/v1/message-templates/check-name': json({ channel_id: s.channelId, name: uniqueName('chaos') }),
    'POST /api/v1/message-templates': json(apiV1Body(s.channelId, uniqueName('chaos'))),
    'GET /api/v1/message-templates': { path: {}, query: channel },
    'GET /api/v1/message-templates/languages': none,
    'GET /api/v1/message-templates/categories': none,
    'GET /api/v1/message-templates/{message_template_id}': { path: { message_template_id: s.templateId }, query: channel },
    'DELETE /api/v1/message-templates/{message_template_id}': { path: { message_template_id: s.templateId }, query: {} },
    'POST /api/v1/messages': json({ message_ids: s.messageIds }),
  };
}

/** A valid value for a schema nobody listed above (new operations are still fuzzed from their schema). */
function fromSchema(schema: Schema, key: string | undefined, s: Seeded): Json {
  if (key === 'channel_id') return s.channelId;
  if (key && /template_id$/.test(key)) return s.templateId;
  if (key && /wizard_id$/.test(key)) return s.wizardId;
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type ?? (schema.anyOf ? undefined : 'string');
  if (!type && schema.anyOf) return fromSchema(schema.anyOf[0], key, s);
  if (type === 'object') {
    const out: Record<string, Json> = {};
    for (const k of schema.required ?? []) out[k] = fromSchema(schema.properties?.[k] ?? {}, k, s);
    return out;
  }
  if (type === 'array') return Array.from({ length: schema.minItems ?? 0 }, () => fromSchema(schema.items ?? {}, undefined, s));
  if (type === 'integer' || type === 'number') return schema.minimum ?? 1;
  if (type === 'boolean') return false;
  if (type === 'null') return null;
  return 'x'.repeat(Math.max(1, schema.minLength ?? 1));
}

function validRequest(op: Operation, s: Seeded): Omit<Req, 'notes'> {
  const listed = validRequests(s)[op.key];
  if (listed) return listed;
  const path = Object.fromEntries(op.pathParams.map((p) => [p.name, String(fromSchema(p.schema, p.name, s))]));
  const query = Object.fromEntries(op.query.filter((p) => p.required).map((p) => [p.name, String(fromSchema(p.schema, p.name, s))]));
  return { path, query, ...(op.body ? { body: { json: fromSchema(op.body, undefined, s) } } : {}) };
}

// ---------------------------------------------------------------------------------------------------
// Defects drawn from the schema

function typesOf(schema: Schema): Set<string> {
  const types = new Set<string>();
  if (schema.anyOf) for (const branch of schema.anyOf) for (const t of typesOf(branch)) types.add(t);
  if (schema.type) for (const t of Array.isArray(schema.type) ? schema.type : [schema.type]) types.add(t);
  if (schema.nullable || schema.enum?.includes(null)) types.add('null');
  if (types.has('number')) types.add('integer');
  if (types.size === 0 && !schema.anyOf) for (const t of ['string', 'number', 'integer', 'boolean', 'null', 'object', 'array']) types.add(t);
  return types;
}

/** Nested garbage: hostile strings, odd numbers, deep and wide structures. */
const garbage: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    nastyString(),
    fc.integer(),
    fc.constantFrom(-1, 0, 2 ** 31, 2 ** 53 + 1, -(2 ** 63), 1e308, -1e-308, 0.5),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(nastyString(), fc.constantFrom('type', 'text', 'format', 'buttons', 'cards', 'parameters', 'example')), tie('value'), { maxKeys: 4 }),
  ),
})).value;

/** A structure nested 500 to 3,000 levels deep. */
const deep: fc.Arbitrary<Json> = fc.tuple(fc.integer({ min: 500, max: 3000 }), fc.boolean()).map(([depth, arrays]) => {
  let value: Json = 'bottom';
  for (let i = 0; i < depth; i++) value = arrays ? [value] : { a: value };
  return value;
});

/** A value whose JSON type the schema does not allow. */
function wrongType(schema: Schema): fc.Arbitrary<Json> | undefined {
  const allowed = typesOf(schema);
  const candidates: fc.Arbitrary<Json>[] = [];
  if (!allowed.has('string')) candidates.push(nastyString());
  if (!allowed.has('integer')) candidates.push(fc.integer());
  if (!allowed.has('number')) candidates.push(fc.constantFrom(0.5, -1.25, 1e308, -1e-7));
  if (!allowed.has('boolean')) candidates.push(fc.boolean());
  if (!allowed.has('null')) candidates.push(fc.constant(null));
  if (!allowed.has('object')) candidates.push(fc.dictionary(nastyString(), garbage, { minKeys: 0, maxKeys: 3 }));
  if (!allowed.has('array')) candidates.push(fc.array(garbage, { maxLength: 5 }), deep);
  return candidates.length ? fc.oneof(...candidates) : undefined;
}

/** Values of every other type, for a query or path parameter whose schema is a string. */
const WRONG_TYPED_TEXTS: Json[] = [true, false, null, 0, -1, 0.5, 1e308, 2 ** 64, {}, { a: 1 }, [1, 'x'], [[[]]]];

/**
 * Whether a value stays a wrong type once it is query or path text: an array there is the parameter repeated, so an
 * empty one is the parameter left out and a one-item array is that item alone (a good value when the item is).
 */
function isWrongAsText(value: Json): boolean {
  return !Array.isArray(value) || value.length >= 2;
}

/** Whether the text a query or path parameter would carry for `value` is a valid value of a string schema. */
function textFitsString(schema: Schema, value: Json): boolean {
  if (!typesOf(schema).has('string')) return false;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(text)) return false;
  if (schema.enum !== undefined && !schema.enum.includes(text)) return false;
  return text.length >= (schema.minLength ?? 0) && text.length <= (schema.maxLength ?? Infinity);
}

/** One defect: a description and the change it makes. */
interface Defect {
  note: string;
  apply(req: Req): void;
}

type Place = 'body' | 'query' | 'path';

function getAt(root: Json, at: Key[]): Json {
  let value = root;
  for (const k of at) value = (value as Record<Key, Json>)?.[k];
  return value;
}

function setAt(req: Req, place: Place, at: Key[], value: Json | typeof REMOVE): void {
  if (place !== 'body') {
    const target = place === 'query' ? req.query : req.path;
    const text = Array.isArray(value) ? value.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))) : typeof value === 'string' ? value : JSON.stringify(value);
    if (value === REMOVE) delete target[at[0] as string];
    else Object.defineProperty(target, at[0] as string, { value: text, enumerable: true, writable: true, configurable: true });
    return;
  }
  const body = req.body as { json: Json };
  if (!body || !('json' in body)) return;
  if (at.length === 0) {
    body.json = value === REMOVE ? undefined : value;
    return;
  }
  const parent = getAt(body.json, at.slice(0, -1)) as Record<Key, Json>;
  // An earlier defect may have replaced this part of the body already: the request is bad either way.
  if (typeof parent !== 'object' || parent === null) return;
  const last = at[at.length - 1];
  if (value === REMOVE) {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (last === '__proto__') {
    Object.defineProperty(parent, last, { value, enumerable: true, writable: true, configurable: true });
  } else {
    parent[last] = value;
  }
}
const REMOVE = Symbol('remove');

function pathText(place: Place, at: Key[]): string {
  return `${place}:${at.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('') || '<root>'}`;
}

/** Keys no schema knows, including the ones that poison prototypes. */
const unknownKey = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'evil', '$where', 'channel_id ', 'Channel_Id', ''),
  nastyString().filter((k) => k.length < 200),
);

/** Every defect the schema allows at `at` (and below). */
function schemaDefects(place: Place, schema: Schema, value: Json, at: Key[], present: boolean, required: boolean): fc.Arbitrary<Defect>[] {
  const out: fc.Arbitrary<Defect>[] = [];
  const where = pathText(place, at);
  const set = (note: string, arb: fc.Arbitrary<Json>) =>
    out.push(arb.map((v) => ({ note: `${note} at ${where}: ${show(v, 120)}`, apply: (r: Req) => setAt(r, place, at, v) })));
  if (present && required) out.push(fc.constant({ note: `missing required ${where}`, apply: (r: Req) => setAt(r, place, at, REMOVE) }));
  const wrong = wrongType(schema);
  // A query or path value is text: a "wrong type" (an integer, say) whose text the string schema accepts is a good value.
  // A random value filtered by that test could loop for ever (a plain string schema fits every text), so
  // query and path take fixed wrong-typed values decided here, and none when every one of them fits.
  if (wrong && place === 'body') set('wrong type', wrong);
  else if (wrong && typesOf(schema).has('string')) {
    const misfits = WRONG_TYPED_TEXTS.filter((v) => !textFitsString(schema, v));
    if (misfits.length) set('wrong type', fc.constantFrom(...misfits));
  } else if (wrong) set('wrong type', wrong.filter(isWrongAsText));
  const types = typesOf(schema);
  const only = (t: string) => types.size === 1 && types.has(t);
  if (types.has('string') && schema.maxLength !== undefined && !types.has('number')) {
    set('too long', fc.tuple(fc.constantFrom('x', 'ü', '🙂', '\u202e', "'"), fc.integer({ min: schema.maxLength + 1, max: Math.max(schema.maxLength + 1, 100_000) })).map(([c, n]) => c.repeat(n)));
  }
  if (types.has('string') && !types.has('number') && (schema.minLength ?? 0) > 0) set('too short', fc.constant(''));
  if ((types.has('integer') || types.has('number')) && !types.has('string')) {
    if (schema.minimum !== undefined) set('below minimum', fc.constantFrom(schema.minimum - 1, -(2 ** 53), -1e308));
    if (schema.maximum !== undefined) set('above maximum', fc.constantFrom(schema.maximum + 1, 2 ** 53 + 2, 1e308));
    if (only('integer')) set('not an integer', fc.constantFrom(0.5, 1.000001, 2.5e-8));
  }
  if (only('array')) {
    if (schema.maxItems !== undefined && schema.maxItems <= 5000) {
      const item = Array.isArray(value) && value.length ? value[0] : 'x';
      set('too many items', fc.integer({ min: schema.maxItems + 1, max: schema.maxItems + 50 }).map((n) => Array.from({ length: n }, () => structuredClone(item))));
    }
    if ((schema.minItems ?? 0) > 0) set('too few items', fc.constant([]));
  }
  if (only('object') && schema.additionalProperties === false && present) {
    out.push(
      fc.tuple(unknownKey.filter((k) => !(schema.properties && k in schema.properties)), garbage).map(([k, v]) => ({
        note: `unknown field ${show(k, 60)} at ${where}: ${show(v, 80)}`,
        apply: (r: Req) => setAt(r, place, [...at, k], v),
      })),
    );
  }
  if (!present) return out;
  if (schema.properties && value && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, sub] of Object.entries(schema.properties)) {
      out.push(...schemaDefects(place, sub, (value as Record<string, Json>)[k], [...at, k], k in (value as object), (schema.required ?? []).includes(k)));
    }
  }
  if (schema.patternProperties && value && typeof value === 'object') {
    const sub = Object.values(schema.patternProperties)[0];
    for (const k of Object.keys(value as object).slice(0, 2)) out.push(...schemaDefects(place, sub, (value as Record<string, Json>)[k], [...at, k], true, false));
  }
  if (schema.items && Array.isArray(value)) {
    value.slice(0, 2).forEach((item, i) => out.push(...schemaDefects(place, schema.items!, item, [...at, i], true, false)));
  }
  return out;
}

/** A hostile value that cannot be a real id, a template name, a language, a category or a phone number. */
const notAnId = () => nastyString().filter((s) => !realIds.has(s));
const SEMANTIC: Record<string, () => fc.Arbitrary<Json>> = {
  channel_id: notAnId,
  message_template_id: notAnId,
  template_id: notAnId,
  send_wizard_id: notAnId,
  name: () => nastyString().filter((s) => !/^[a-z0-9_]{1,512}$/.test(s)),
  language: () => nastyString().filter((s) => !/^[A-Za-z_-]{1,16}$/.test(s)),
  category: () => nastyString().filter((s) => !/^[A-Za-z_]{1,64}$/.test(s)),
  phone_number: () => nastyString().filter((s) => !normalizePhone(s).ok),
  components: () =>
    fc.array(
      fc.tuple(nastyString().filter((t) => !/^(header|body|footer|buttons|carousel)$/i.test(t.trim())), fc.dictionary(nastyString(), garbage, { maxKeys: 3 })).map(([type, rest]) => ({ ...rest, type })),
      { minLength: 1, maxLength: 4 },
    ),
  message_template: () =>
    fc.oneof(
      fc.constant([]),
      fc.array(fc.tuple(nastyString().filter((t) => !/^(header|body|buttons|button|carousel)$/i.test(t.trim())), garbage).map(([type, parameters]) => ({ type, parameters })), { minLength: 1, maxLength: 3 }),
    ),
};
/** Fields named `id` are ids in these operations. */
const ID_FIELD_OPS = new Set([`DELETE ${A}/template`, `POST ${A}/send-wizard/reports/detail`]);

/** Garbage rows for the starts: each variant breaks at least one row. */
function garbageRows(op: Operation, rows: Json[]): fc.Arbitrary<Json> {
  const v2 = op.path.endsWith('startv2');
  const badRow = v2
    ? fc.oneof(
        wrongType({ type: 'array' })!,
        fc.array(garbage, { maxLength: 3 }),
        fc.tuple(fc.constantFrom('1', 1.5, null, -0.5), fc.constant('905551234567')).map(([n, p]) => [n, p, 'a', 'b', 'c']),
        fc.tuple(fc.integer({ min: 1, max: 99 }), SEMANTIC.phone_number()).map(([n, p]) => [n, p, 'a', 'b', 'c']),
        fc.tuple(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 2, max: 4 }), fc.oneof(fc.dictionary(nastyString(), garbage), fc.array(garbage), fc.boolean())).map(([n, k, cell]) => {
          const row: Json[] = [n, '905551234567', 'a', 'b', 'c'];
          row[k] = cell;
          return row;
        }),
      )
    : fc.oneof(
        wrongType({ type: 'object' })!,
        fc.record({ id: fc.constantFrom('1', 1.5, true), phone_number: fc.constant('905551234567') }),
        fc.record({ phone_number: SEMANTIC.phone_number() }),
        fc.record({ phone_number: fc.constant('905551234567'), params: fc.oneof(nastyString(), fc.array(fc.oneof(fc.dictionary(nastyString(), garbage), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 })) }),
        fc.tuple(unknownKey.filter((k) => !['id', 'phone_number', 'full_name', 'url_button_param', 'url_button_param2', 'text_header_param', 'copy_code_param', 'params'].includes(k)), garbage).map(([k, v]) => {
          const row: Record<string, Json> = { phone_number: '905551234567', params: ['a', 'b'], url_button_param: 'x' };
          Object.defineProperty(row, k, { value: v, enumerable: true, writable: true, configurable: true });
          return row;
        }),
      );
  return fc.tuple(badRow, fc.nat({ max: rows.length })).map(([row, at]) => [...rows.slice(0, at), row, ...rows.slice(at)]);
}

function semanticDefects(op: Operation, base: Omit<Req, 'notes'>): fc.Arbitrary<Defect>[] {
  const out: fc.Arbitrary<Defect>[] = [];
  const add = (place: Place, at: Key[], arb: fc.Arbitrary<Json>, note: string) =>
    out.push(arb.map((v) => ({ note: `${note} at ${pathText(place, at)}: ${show(v, 120)}`, apply: (r: Req) => setAt(r, place, at, v) })));
  for (const k of Object.keys(base.query)) if (SEMANTIC[k]) add('query', [k], SEMANTIC[k](), 'refused value');
  for (const k of Object.keys(base.path)) add('path', [k], notAnId(), 'missing id');
  const json = base.body && 'json' in base.body ? base.body.json : undefined;
  const walk = (value: Json, at: Key[]) => {
    if (!value || typeof value !== 'object' || Array.isArray(value)) return;
    for (const [k, v] of Object.entries(value)) {
      if (op.path.includes('/send-wizard/start') && k === 'rows') add('body', [...at, k], garbageRows(op, v as Json[]), 'garbage rows');
      else if (SEMANTIC[k] && !(k === 'message_template' && Array.isArray(v) === false)) add('body', [...at, k], SEMANTIC[k](), 'refused value');
      else if (k === 'id' && ID_FIELD_OPS.has(op.key)) add('body', [...at, k], notAnId(), 'missing id');
      else walk(v, [...at, k]);
    }
  };
  walk(json, []);
  return out;
}

const WRONG_CONTENT_TYPES = [
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'image/png',
  'application/javascript',
  'application/jsonx',
  'json',
];

function bodyDefects(base: Omit<Req, 'notes'>): fc.Arbitrary<Defect>[] {
  if (!base.body || !('json' in base.body)) return [];
  const text = JSON.stringify(base.body.json);
  const raw = (note: string, arb: fc.Arbitrary<{ raw: string | Buffer; contentType?: string }>) =>
    arb.map((b) => ({ note: `${note}: ${b.contentType ?? '(no content type)'} ${show(b.raw, 160)}`, apply: (r: Req) => (r.body = b) }));
  return [
    raw('wrong content type', fc.constantFrom(...WRONG_CONTENT_TYPES).map((contentType) => ({ raw: text, contentType }))),
    raw('no content type', fc.constant({ raw: text })),
    raw('truncated JSON', fc.integer({ min: 1, max: text.length - 1 }).map((n) => ({ raw: text.slice(0, n), contentType: 'application/json' }))),
    raw(
      'not JSON',
      fc
        .oneof(
          fc.constantFrom('{', '}', '{"a":}', "{'a':1}", '{"a":1,}', 'NaN', 'undefined', '\ufeff{"a"', '--', '<xml/>', `${text}}`, `${text}garbage`, `${text}${text}`, `[${text}`),
          nastyString().filter((s) => { try { JSON.parse(s); return false; } catch { return true; } }),
          fc.uint8Array({ minLength: 1, maxLength: 64 }).map((b) => Buffer.from(b).toString('latin1')),
        )
        .map((s) => ({ raw: s, contentType: 'application/json' })),
    ),
    raw('not an object', fc.constantFrom('null', '0', '-1.5', '"text"', 'true', '[]', `[${text}]`, '[[[]]]').map((s) => ({ raw: s, contentType: 'application/json' }))),
    raw('empty body', fc.constantFrom('', ' ', '\n\t ').map((s) => ({ raw: s, contentType: 'application/json' }))),
    raw(
      'over the size limit',
      fc.integer({ min: 1_100_000, max: 1_300_000 }).map((n) => ({ raw: `{"padding":"${'x'.repeat(n)}",${text.slice(1)}`, contentType: 'application/json' })),
    ),
  ];
}

function queryDefects(op: Operation, base: Omit<Req, 'notes'>): fc.Arbitrary<Defect>[] {
  const out: fc.Arbitrary<Defect>[] = [];
  // Every route of the two families refuses query fields it does not know, with or without a query schema.
  out.push(
    fc.tuple(unknownKey.filter((k) => k.length > 0 && !op.query.some((p) => p.name === k)), nastyString()).map(([k, v]) => ({
      note: `unknown query field ${show(k, 60)}=${show(v, 60)}`,
      apply: (r: Req) => Object.defineProperty(r.query, k, { value: v, enumerable: true, writable: true, configurable: true }),
    })),
  );
  const broken = fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AF', '%ED%A0%80', '%FF%FE', '%u0041');
  out.push(broken.map((text) => ({ note: `broken percent-encoding in the query: ${text}`, apply: (r: Req) => (r.raw = { ...r.raw, query: `${text}=${text}` }) })));
  for (const p of op.pathParams) {
    out.push(broken.map((text) => ({ note: `broken percent-encoding in path parameter ${p.name}: ${text}`, apply: (r: Req) => (r.raw = { ...r.raw, path: { [p.name]: `x${text}` } }) })));
  }
  for (const p of op.query) {
    if (base.query[p.name] !== undefined) {
      out.push(fc.tuple(nastyString(), nastyString()).map(([a, b]) => ({ note: `repeated query field ${p.name}`, apply: (r: Req) => (r.query[p.name] = [String(r.query[p.name]), a, b]) })));
    }
  }
  return out;
}

/** Every defect of an operation, weighted: schema defects, refused values, body-level defects. */
function defects(op: Operation, base: Omit<Req, 'notes'>): fc.Arbitrary<Defect[]> {
  const bodySchema: fc.Arbitrary<Defect>[] = op.body && base.body && 'json' in base.body ? schemaDefects('body', op.body, base.body.json, [], true, false) : [];
  const querySchema = op.query.flatMap((p) => schemaDefects('query', p.schema, base.query[p.name], [p.name], base.query[p.name] !== undefined, Boolean(p.required)));
  const pathSchema = op.pathParams.flatMap((p) => schemaDefects('path', p.schema, base.path[p.name], [p.name], true, Boolean(p.required)));
  const schema = [...bodySchema, ...querySchema, ...pathSchema, ...queryDefects(op, base)];
  const semantic = semanticDefects(op, base);
  const whole = bodyDefects(base);
  const groups: { weight: number; arbitrary: fc.Arbitrary<Defect[]> }[] = [];
  if (schema.length) {
    groups.push({ weight: 6, arbitrary: fc.oneof(...schema).map((d) => [d]) });
    groups.push({ weight: 1, arbitrary: fc.array(fc.oneof(...schema), { minLength: 2, maxLength: 3 }) });
  }
  if (semantic.length) groups.push({ weight: 4, arbitrary: fc.oneof(...semantic).map((d) => [d]) });
  if (whole.length) groups.push({ weight: 2, arbitrary: fc.oneof(...whole).map((d) => [d]) });
  assert.ok(groups.length > 0, `${op.key}: no defect can be drawn from its schema`);
  return fc.oneof(...groups);
}

/** Hostile strings in free-text fields of the valid request (the defects come after, so it stays bad). */
function noise(base: Omit<Req, 'notes'>): fc.Arbitrary<Defect[]> {
  const leaves: Key[][] = [];
  const walk = (value: Json, at: Key[]) => {
    if (typeof value === 'string' && ['full_name', 'text', 'url_button_param'].includes(String(at[at.length - 1]))) leaves.push(at);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) walk(v, [...at, Array.isArray(value) ? Number(k) : k]);
  };
  if (base.body && 'json' in base.body) walk(base.body.json, []);
  if (leaves.length === 0) return fc.constant([]);
  return fc.array(
    fc.tuple(fc.constantFrom(...leaves), nastyString()).map(([at, v]) => ({ note: `noise at ${pathText('body', at)}`, apply: (r: Req) => setAt(r, 'body', at, v) })),
    { maxLength: 2 },
  );
}

function badRequests(op: Operation): fc.Arbitrary<Req> {
  const base = validRequest(op, seeded);
  return fc.tuple(noise(base), defects(op, base)).map(([quiet, loud]) => {
    const req: Req = { ...structuredClone(base), notes: [] };
    for (const d of [...quiet, ...loud]) {
      d.apply(req);
      req.notes.push(d.note);
    }
    return req;
  });
}

// ---------------------------------------------------------------------------------------------------
// Sending

function url(op: Operation, req: Req): string {
  const path = op.path.replace(/\{(\w+)\}/g, (_, name: string) => req.raw?.path?.[name] ?? encodeURIComponent(req.path[name] ?? ''));
  const pairs: string[] = [];
  for (const [k, v] of Object.entries(req.query)) for (const one of Array.isArray(v) ? v : [v]) pairs.push(`${encodeURIComponent(k)}=${encodeURIComponent(one)}`);
  if (req.raw?.query !== undefined) pairs.push(req.raw.query);
  return pairs.length ? `${path}?${pairs.join('&')}` : path;
}

async function send(op: Operation, req: Req, token: string | null = h.a.token): Promise<Answer> {
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  let payload: string | Buffer | undefined;
  if (req.body && 'json' in req.body) {
    headers['content-type'] = 'application/json';
    payload = req.body.json === undefined ? '' : JSON.stringify(req.body.json);
  } else if (req.body) {
    if (req.body.contentType !== undefined) headers['content-type'] = req.body.contentType;
    payload = req.body.raw;
  }
  const response = await answered(h.app.http.inject({ method: op.method as 'GET', url: url(op, req), headers, ...(payload === undefined ? {} : { payload }) }), () => describe(op, req));
  let body: unknown = response.body;
  try {
    body = response.json();
  } catch {
    /* not JSON */
  }
  return { status: response.statusCode, body, headers: response.headers };
}

function describe(op: Operation, req: Req): string {
  const body = req.body === undefined ? '' : 'json' in req.body ? show(req.body.json, 400) : `${req.body.contentType ?? '-'} ${show(req.body.raw, 200)}`;
  return `${op.key} [${req.notes.join(' | ')}]\n  url: ${show(url(op, req), 300)}\n  body: ${body}`;
}

/** The database must hold what it held before the request (checked per request, so one write fails one run). */
async function assertUnchanged(before: Record<string, unknown>, context: string): Promise<void> {
  assert.deepEqual(await snapshot(h), before, `the database changed after ${context}`);
}

// ---------------------------------------------------------------------------------------------------
// Properties

test('every operation of the OpenAPI document refuses bad input with a 4xx envelope and writes nothing', async (t) => {
  const fuzzed = ops.filter((op) => !OWN_PROPERTY.has(op.key));
  assert.ok(fuzzed.length >= 20, `expected the service's operations, got ${fuzzed.map((o) => o.key).join(', ')}`);
  for (const op of ops) assert.ok(!op.multipart || OWN_PROPERTY.has(op.key), `${op.key} takes multipart and has no property of its own`);
  for (const op of fuzzed) {
    await t.test(op.key, async (st) => {
      const seen = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(badRequests(op), async (req) => {
          const before = await snapshot(h);
          const res = await send(op, req);
          assertRefused(res, describe(op, req));
          await assertUnchanged(before, describe(op, req));
          const key = `${res.status} ${res.body.errors[0].code}`;
          seen.set(key, (seen.get(key) ?? 0) + 1);
        }),
        fcParams(),
      );
      assert.deepEqual(await snapshot(h), baseline, `the database is not what it was before the bad input on ${op.key}`);
      // How deep the defects went (a property that only ever meets the schema check would show one line).
      st.diagnostic([...seen].sort().map(([k, n]) => `${k} ×${n}`).join(', '));
    });
  }
});

test('a NUL character in any string field is refused, never a 500', async (t) => {
  for (const op of ops.filter((o) => !OWN_PROPERTY.has(o.key))) {
    const base = validRequest(op, seeded);
    const places: [Place, Key[]][] = [
      ...Object.keys(base.query).map((k): [Place, Key[]] => ['query', [k]]),
      ...Object.keys(base.path).map((k): [Place, Key[]] => ['path', [k]]),
    ];
    const walk = (value: Json, at: Key[]) => {
      if (typeof value === 'string') places.push(['body', at]);
      else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value).slice(0, 6)) walk(v, [...at, Array.isArray(value) ? Number(k) : k]);
    };
    if (base.body && 'json' in base.body) walk(base.body.json, []);
    if (op.key === `POST ${A}/templatev2`) places.push(['body', ['media_names', 'handle\u0000']]);
    if (places.length === 0) continue;
    await t.test(op.key, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...places), fc.constantFrom('\u0000', 'a\u0000b', '110000000000001\u0000', '\u0000'.repeat(5)), async ([place, at], nul) => {
          const req: Req = { ...structuredClone(base), notes: [`NUL at ${pathText(place, at)}`] };
          const key = at[at.length - 1];
          if (typeof key === 'string' && key.includes('\u0000')) setAt(req, place, at, 'x');
          else setAt(req, place, at, nul);
          const before = await snapshot(h);
          const res = await send(op, req);
          assertRefused(res, describe(op, req));
          await assertUnchanged(before, describe(op, req));
        }),
        fcParams(Math.min(RUNS, places.length * 4)),
      );
    });
  }
  await t.test('POST /api/v1/media', async () => {
    const file: Part = { name: 'file', value: PNG, filename: 'a.png', type: 'image/png' };
    for (const parts of [
      [{ name: 'channel_id', value: `${seeded.channelId}\u0000` }, file],
      [{ name: 'channel_id', value: seeded.channelId }, { ...file, filename: 'a\u0000.png' }],
    ]) {
      const before = await snapshot(h);
      const res = await upload(h, parts, h.a.token);
      const context = `POST /api/v1/media with NUL in ${show(parts.map((p) => [p.name, p.filename]))}`;
      assertRefused(res, context, [400]);
      await assertUnchanged(before, context);
    }
  });
});

test('the streaming starts refuse truncated JSON, rows that are not arrays, garbage rows and huge cells', async (t) => {
  for (const variant of ['start', 'startv2']) {
    const op = ops.find((o) => o.key === `POST ${A}/send-wizard/${variant}`)!;
    const base = validRequest(op, seeded);
    const valid = (base.body as { json: Record<string, Json> }).json;
    const text = JSON.stringify(valid);
    const rawBody = (note: string, arb: fc.Arbitrary<string>) => arb.map((raw): Req => ({ path: {}, query: {}, body: { raw, contentType: 'application/json' }, notes: [note] }));
    const withRows = (note: string, arb: fc.Arbitrary<Json>) => arb.map((rows): Req => ({ path: {}, query: {}, body: { json: { ...valid, rows } }, notes: [note] }));
    const rows = valid.rows as Json[];
    const hugeCell = fc.tuple(fc.integer({ min: 0, max: rows.length - 1 }), fc.integer({ min: 2049, max: 100_000 }), fc.constantFrom('x', '🙂', 'ü')).map(([i, n, c]) => {
      const copy = structuredClone(rows) as Json[];
      const row = copy[i] as Record<string, Json> | Json[];
      if (Array.isArray(row)) row[2] = c.repeat(n);
      else row.full_name = c.repeat(n);
      return copy;
    });
    const cases = fc.oneof(
      rawBody('truncated JSON', fc.integer({ min: 1, max: text.length - 1 }).map((n) => text.slice(0, n))),
      rawBody('truncated inside the rows', fc.integer({ min: text.indexOf('"rows"') + 8, max: text.indexOf(']]') > 0 ? text.indexOf(']]') : text.indexOf('}]') }).map((n) => text.slice(0, n))),
      rawBody('trailing garbage', fc.constantFrom('}', 'x', ',{}', ' {"rows":[]}', '\u0000').map((g) => text + g)),
      rawBody('two objects', fc.constant(`${text} ${text}`)),
      withRows('rows not an array', fc.oneof(fc.dictionary(nastyString(), garbage, { maxKeys: 3 }), nastyString(), fc.integer(), fc.constant(null), fc.boolean())),
      withRows('rows of garbage', fc.array(garbage, { minLength: 1, maxLength: 30 })),
      withRows('garbage row among good ones', garbageRows(op, rows)),
      withRows('deep row', deep.map((d) => [...rows, d])),
      withRows('huge cell', hugeCell),
      withRows('no rows', fc.constant([])),
      rawBody('a row hidden in __proto__', fc.constant(text.replace('"rows":[', variant === 'start' ? '"rows":[{"__proto__":{"phone_number":"905551234511","params":["a","b"],"url_button_param":"x"}},' : '"rows":[{"__proto__":[1,"905551234511","a","b","c"]},'))),
      rawBody('__proto__ field', fc.constant(`{"__proto__":${JSON.stringify({ channel_id: valid.channel_id })},${text.slice(1).replace(`"channel_id":"${valid.channel_id}",`, '').replace(`,"channel_id":"${valid.channel_id}"`, '')}`)),
    );
    await t.test(variant, async () => {
      await fc.assert(
        fc.asyncProperty(cases, async (req) => {
          const before = await snapshot(h);
          const res = await send(op, req);
          assertRefused(res, describe(op, req));
          await assertUnchanged(before, describe(op, req));
        }),
        fcParams(),
      );
    });
  }
});

test('the media upload refuses missing files, wrong field names, broken multipart and files that are not what they say', async () => {
  assert.ok(ops.some((o) => o.key === 'POST /api/v1/media'), 'POST /api/v1/media is in the document');
  const goodFile: Part = { name: 'file', value: PNG, filename: 'a.png', type: 'image/png' };
  interface Upload {
    parts: Part[];
    notes: string[];
    contentType?: string;
    truncateAt?: number;
  }
  type Change = (u: Upload) => string;
  const onPart = (name: string, change: (p: Part) => Part): Change => (u) => ((u.parts = u.parts.map((p) => (p.name === name ? change(p) : p))), '');
  const partName = (n: string) => !n.includes('"') && !/[\r\n]/.test(n);
  const defect: fc.Arbitrary<Change> = fc.oneof(
    fc.constant<Change>((u) => ((u.parts = u.parts.filter((p) => p.name !== 'channel_id')), 'no channel_id')),
    notAnId().map((id): Change => (u) => onPart('channel_id', (p) => ({ ...p, value: id }))(u) + `channel_id ${show(id, 60)}`),
    fc.constant<Change>((u) => ((u.parts = u.parts.filter((p) => p.name !== 'file')), 'no file')),
    fc.oneof(nastyString(), fc.constantFrom('files', 'File', 'upload', 'file[]', 'channel_id')).filter((n) => n !== 'file' && partName(n)).map(
      (name): Change => (u) => onPart('file', (p) => ({ ...p, name }))(u) + `file part named ${show(name, 60)}`,
    ),
    // Two more, so that another defect's "no file" cannot leave exactly one.
    fc.constant<Change>((u) => (u.parts.push({ ...goodFile, filename: 'b.png' }, { ...goodFile, filename: 'c.png' }), 'more than one file')),
    fc.tuple(fc.oneof(fc.constantFrom('extra', 'file_handle', 'name', 'Channel_Id'), nastyString().filter((n) => partName(n) && n !== 'channel_id' && n !== 'file')), nastyString()).map(
      ([name, value]): Change => (u) => (u.parts.push({ name, value }), `unknown field ${show(name, 40)}`),
    ),
    fc.uint8Array({ minLength: 0, maxLength: 300 }).filter((b) => b[0] !== 0x89).map(
      (bytes): Change => (u) => onPart('file', (p) => ({ ...p, value: Buffer.from(bytes) }))(u) + `file bytes are not a PNG (${bytes.length})`,
    ),
    fc.constantFrom('image/gif', 'text/plain', 'application/octet-stream', 'image/svg+xml', 'application/x-msdownload', 'video/quicktime').map(
      (type): Change => (u) => onPart('file', (p) => ({ ...p, type }))(u) + `file type ${type}`,
    ),
    fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/form-data; boundary=other', 'application/json', 'text/plain', 'multipart/mixed; boundary=x').map(
      (contentType): Change => (u) => ((u.contentType = contentType), `content type ${contentType}`),
    ),
    fc.integer({ min: 10, max: 400 }).map((n): Change => (u) => ((u.truncateAt = n), `truncated at ${n} bytes`)),
    fc.constant<Change>((u) => {
      for (let i = 0; i < 8; i++) u.parts.unshift({ name: `f${i}`, value: 'x' });
      return 'too many fields';
    }),
  );
  const uploads = fc.tuple(fc.array(defect, { minLength: 1, maxLength: 3 }), fc.option(nastyString().filter(partName))).map(([changes, filename]) => {
    const u: Upload = {
      parts: [{ name: 'channel_id', value: seeded.channelId }, { ...goodFile, ...(filename === null ? {} : { filename }) }],
      notes: filename === null ? [] : [`file name ${show(filename, 40)}`],
    };
    for (const change of changes) u.notes.push(change(u));
    return u;
  });
  await fc.assert(
    fc.asyncProperty(uploads, async (u) => {
      const payload = u.truncateAt === undefined ? undefined : multipart(u.parts).payload.subarray(0, u.truncateAt);
      const before = await snapshot(h);
      const res = await upload(h, u.parts, h.a.token, u.contentType, payload);
      const context = `POST /api/v1/media [${u.notes.join(' | ')}] parts: ${u.parts.map((p) => `${show(p.name, 40)}=${show(p.value, 40)}`).join(', ')}`;
      assertRefused(res, context);
      await assertUnchanged(before, context);
    }),
    fcParams(),
  );
});

test('webhook POSTs with a missing, random or forged signature are refused and never stored', async () => {
  const events = await webhookEventCount(h);
  const hmac = (secret: string, body: string | Buffer) => createHmac('sha256', secret).update(body).digest('hex');
  const event = fc.record({
    object: fc.constantFrom('whatsapp_business_account', 'page'),
    entry: fc.array(fc.record({ id: fc.constant('100000000000001'), changes: fc.array(fc.record({ field: fc.constantFrom('messages', 'phone_number_quality_update'), value: garbage }), { maxLength: 2 }) }), { maxLength: 2 }),
  });
  const body = fc.oneof(event.map((e) => JSON.stringify(e)), garbage.map((g) => JSON.stringify(g) ?? 'null'), nastyString(), fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b).toString('latin1')));
  const signature = (raw: string) =>
    fc.oneof(
      fc.constant(undefined),
      fc.stringMatching(/^[0-9a-f]{64}$/).map((x) => `sha256=${x}`),
      fc.constant(`sha256=${hmac('not-the-app-secret', raw)}`),
      fc.constant(`sha256=${hmac(TEST_APP_SECRET, raw + ' ')}`),
      fc.constant(`sha1=${hmac(TEST_APP_SECRET, raw)}`),
      fc.constant(hmac(TEST_APP_SECRET, raw)),
      fc.constant(`sha256=${hmac(TEST_APP_SECRET, raw).slice(0, 62)}`),
      fc.constant(`sha256=${hmac(TEST_APP_SECRET, raw)}00`),
      fc.constant(''),
      nastyString().filter((s) => !/[\r\n]/.test(s) && /^[\t\x20-\x7e]*$/.test(s)),
    );
  // Correctly signed bodies that are not events: 400, also never stored.
  const signedGarbage = fc
    .oneof(nastyString(), fc.constantFrom('{}', '[]', 'null', '{"entry":{}}', '{"entry":"x"}', '{"object":"whatsapp_business_account"}'))
    .filter((s) => {
      try {
        const v = JSON.parse(s);
        return !(v && typeof v === 'object' && Array.isArray(v.entry));
      } catch {
        return true;
      }
    })
    .map((raw) => ({ raw, sig: `sha256=${hmac(TEST_APP_SECRET, raw)}` as string | undefined, note: 'signed, not an event' }));
  const forged = body.chain((raw) => signature(raw).map((sig) => ({ raw, sig, note: 'forged or missing signature' })));
  await fc.assert(
    fc.asyncProperty(fc.oneof({ weight: 4, arbitrary: forged }, { weight: 1, arbitrary: signedGarbage }), fc.constantFrom('application/json', 'text/plain', 'application/octet-stream'), async (w, contentType) => {
      const before = await snapshot(h);
      const response = await answered(
        h.app.http.inject({
          method: 'POST',
          url: '/webhooks/whatsapp',
          headers: { 'content-type': contentType, ...(w.sig === undefined ? {} : { 'x-hub-signature-256': w.sig }) },
          payload: w.raw,
        }),
        () => `POST /webhooks/whatsapp ${show(w.raw, 100)}`,
      );
      let parsed: unknown = response.body;
      try {
        parsed = response.json();
      } catch {
        /* not JSON */
      }
      const context = `POST /webhooks/whatsapp [${w.note}] signature ${show(w.sig, 80)} body ${show(w.raw, 200)}`;
      assertRefused({ status: response.statusCode, body: parsed, headers: response.headers }, context, [400, 401, 403]);
      assert.equal(await webhookEventCount(h), events, `a webhook event was stored: ${context}`);
      assert.equal(await storedWebhookBodies(h, Buffer.from(w.raw, 'latin1').toString('utf8')), 0, `the body was stored: ${context}`);
      await assertUnchanged(before, context);
    }),
    fcParams(),
  );
});

test('the webhook handshake with a wrong or missing verify token is 403 in the envelope', async () => {
  const op = ops.find((o) => o.key === 'GET /webhooks/whatsapp')!;
  const value = fc.option(nastyString().filter((s) => s !== 'test-verify'), { nil: undefined });
  await fc.assert(
    fc.asyncProperty(fc.record({ mode: fc.option(fc.oneof(fc.constant('subscribe'), nastyString()), { nil: undefined }), token: value, challenge: value }), async (q) => {
      const query: Record<string, string> = {};
      if (q.mode !== undefined) query['hub.mode'] = q.mode;
      if (q.token !== undefined) query['hub.verify_token'] = q.token;
      if (q.challenge !== undefined) query['hub.challenge'] = q.challenge;
      const req: Req = { path: {}, query, notes: ['handshake'] };
      const before = await snapshot(h);
      const res = await send(op, req, null);
      assertRefused(res, describe(op, req), [403]);
      await assertUnchanged(before, describe(op, req));
    }),
    fcParams(),
  );
});

test('health, the probes and the metrics answer any query without a 5xx and write nothing', async () => {
  for (const key of ['GET /health', 'GET /livez', 'GET /readyz', 'GET /metrics']) await healthProperty(key);
});

async function healthProperty(key: string) {
  const op = ops.find((o) => o.key === key)!;
  assert.ok(op, `${key} is in the document`);
  await fc.assert(
    fc.asyncProperty(fc.dictionary(unknownKey.filter((k) => k.length > 0), nastyString(), { maxKeys: 3 }), async (query) => {
      const req: Req = { path: {}, query, notes: ['query'] };
      const before = await snapshot(h);
      const res = await send(op, req, null);
      if (res.status !== 200) assertRefused(res, describe(op, req));
      await assertUnchanged(before, describe(op, req));
    }),
    fcParams(),
  );
}
