/**
 * The house rules for the OpenAPI document, as one function that lists every problem (empty = fine):
 * every operation has a summary, a description and tags; a 2xx response whose schema is concrete (no open
 * object, no schema that accepts anything, unless marked `x-free-form`); concrete request bodies; an example
 * for the request body, the 2xx response and every parameter, each valid against its schema; and security by
 * family: family A/B routes need the bearer token, every other route declares its own (`security: []` for the
 * webhook receiver and health). Used by test/http/openapi-document.test.ts and `npm run openapi:check`.
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats from 'ajv-formats';

// ajv-formats is CommonJS: under NodeNext its function is the default import's `default`.
const addFormats = formats.default;

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Paths that must carry the bearer token (the interface's families). */
export const BEARER_PREFIXES = ['/agent-app/message-template/', '/api/v1/'];
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function resolve(doc: Json, schema: Json): Json {
  let s = schema;
  for (let i = 0; i < 20 && s && typeof s === 'object' && typeof s.$ref === 'string'; i++) {
    const path = s.$ref.replace(/^#\//, '').split('/').map((p: string) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
    s = path.reduce((node: Json, key: string) => node?.[key], doc);
  }
  return s;
}

const COMBINERS = ['anyOf', 'oneOf', 'allOf'];
const SHAPE_KEYS = ['type', 'enum', 'const', '$ref', 'not', ...COMBINERS];

/** Where `schema` is open (accepts any value, or an object with undeclared members). */
export function openSpots(doc: Json, schema: Json, at: string, seen = new Set<Json>()): string[] {
  if (schema === true || schema === undefined) return [`${at}: accepts anything`];
  if (schema === false || typeof schema !== 'object' || schema === null) return [];
  if (schema['x-free-form'] === true) return [];
  if (typeof schema.$ref === 'string') {
    const target = resolve(doc, schema);
    if (seen.has(target)) return [];
    seen.add(target);
    return openSpots(doc, target, `${at}→${schema.$ref.split('/').pop()}`, seen);
  }
  if (!SHAPE_KEYS.some((k) => k in schema)) return [`${at}: accepts anything (no type)`];
  const out: string[] = [];
  for (const k of COMBINERS) (schema[k] ?? []).forEach((m: Json, i: number) => out.push(...openSpots(doc, m, `${at}.${k}[${i}]`, seen)));
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('object')) {
    const props = schema.properties ?? {};
    const extra = schema.additionalProperties;
    const anyExtra = extra === undefined || (typeof extra === 'object' && Object.keys(extra).length === 0);
    if (extra === true) out.push(`${at}: additionalProperties: true`);
    else if (Object.keys(props).length === 0 && anyExtra) out.push(`${at}: an object without properties`);
    for (const [name, sub] of Object.entries(props)) out.push(...openSpots(doc, sub, `${at}.${name}`, seen));
    if (extra && typeof extra === 'object') out.push(...openSpots(doc, extra, `${at}.*`, seen));
  }
  if (types.includes('array')) {
    if (schema.items === undefined && schema.prefixItems === undefined) out.push(`${at}: an array without items`);
    else if (schema.items !== undefined) out.push(...openSpots(doc, schema.items, `${at}[]`, seen));
    (schema.prefixItems ?? []).forEach((m: Json, i: number) => out.push(...openSpots(doc, m, `${at}[${i}]`, seen)));
  }
  return out;
}

/** Examples given for a media or parameter object (and its schema). */
function examplesOf(doc: Json, holder: Json): unknown[] {
  const out: unknown[] = [];
  if (holder?.example !== undefined) out.push(holder.example);
  if (holder?.examples && typeof holder.examples === 'object') out.push(...Object.values(holder.examples).map((e: Json) => e?.value));
  const schema = resolve(doc, holder?.schema);
  if (schema?.example !== undefined) out.push(schema.example);
  if (Array.isArray(schema?.examples)) out.push(...schema.examples);
  return out;
}

/** Every operation of the document with its path and method. */
export function operations(doc: Json): Array<{ path: string; method: string; op: Json }> {
  const out: Array<{ path: string; method: string; op: Json }> = [];
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
  }
  return out;
}

/** Every rule broken by the document, as `METHOD path: problem` lines. */
export function checkDocument(doc: Json): string[] {
  const problems: string[] = [];
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi-document', components: doc.components ?? {} });
  const validExample = (schema: Json, example: unknown, where: string, report: (m: string) => void) => {
    if (!schema) return;
    let validate;
    try {
      validate = ajv.compile(JSON.parse(JSON.stringify(schema).replace(/"#\/components\//g, '"openapi-document#/components/')));
    } catch (error) {
      return report(`${where}: schema does not compile (${(error as Error).message})`);
    }
    if (!validate(example)) report(`${where}: example does not match its schema: ${ajv.errorsText(validate.errors)}`);
  };

  for (const { path, method, op } of operations(doc)) {
    const fail = (m: string) => problems.push(`${method.toUpperCase()} ${path}: ${m}`);
    if (!op.summary?.trim()) fail('no summary');
    if (!op.description?.trim()) fail('no description');
    if (!Array.isArray(op.tags) || op.tags.length === 0) fail('no tags');

    const family = BEARER_PREFIXES.some((p) => path.startsWith(p));
    const security = op.security ?? doc.security;
    if (family && !(Array.isArray(security) && security.some((s: Json) => s && 'bearer' in s))) fail('a family route without the bearer security');
    if (!family && op.security === undefined) fail('a route outside the families must declare its security (security: [] when it takes no token)');

    const ok = Object.entries<Json>(op.responses ?? {}).filter(([code]) => /^2/.test(code));
    if (ok.length === 0) fail('no 2xx response');
    for (const [code, response] of ok) {
      const content = Object.entries<Json>(response.content ?? {});
      if (content.length === 0 && code !== '204') fail(`response ${code} has no content schema`);
      for (const [type, media] of content) {
        for (const spot of openSpots(doc, media.schema, `response ${code} ${type}`)) fail(spot);
        const examples = examplesOf(doc, media);
        if (examples.length === 0) fail(`response ${code} ${type}: no example`);
        examples.forEach((e, i) => validExample(media.schema, e, `response ${code} ${type} example ${i + 1}`, fail));
      }
    }
    if (op.requestBody) {
      // One example for the body is enough when it comes in several content types (a CSV text or a multipart file).
      let exampled = 0;
      const content = Object.entries<Json>(op.requestBody.content ?? {});
      for (const [type, media] of content) {
        for (const spot of openSpots(doc, media.schema, `request body ${type}`)) fail(spot);
        const examples = examplesOf(doc, media);
        exampled += examples.length;
        if (type === 'application/json') examples.forEach((e, i) => validExample(media.schema, e, `request body example ${i + 1}`, fail));
      }
      if (exampled === 0) fail(`request body ${content.map(([type]) => type).join(', ')}: no example`);
    }
    for (const p of op.parameters ?? []) {
      const examples = examplesOf(doc, p);
      if (examples.length === 0) fail(`parameter ${p.in} ${p.name}: no example`);
      examples.forEach((e, i) => validExample(p.schema, e, `parameter ${p.name} example ${i + 1}`, fail));
    }
  }
  return problems;
}
