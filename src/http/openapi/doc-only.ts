/**
 * Documentation that must not change validation. Some inputs are validated loosely on purpose (template
 * components, send parameters: the domain rules check them and name the exact failing path with a stable
 * code), some are not JSON (multipart media, the raw signed webhook body). For those the document shows a
 * concrete schema while the route keeps validating exactly as before:
 *
 *  - `docSchema(name)` marks a node of a route schema (`$comment: "openapi:<name>"`, an annotation Ajv and the
 *    serializer ignore); the document shows the registered concrete schema there instead;
 *  - `documented({...})` (spread into a route's `config`) replaces or adds parts of one operation in the
 *    document only: a body for a route that parses its own, extra headers, response examples.
 */
import type { FastifySchema } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { SendComponentDoc } from './send-components.js';
import { StoredTemplateComponentDoc, TemplateComponentDoc } from './template-components.js';
import { WebhookResponseDoc } from './webhook-payloads.js';

const PREFIX = 'openapi:';

/** Concrete documented schemas by name. */
const DOC_SCHEMAS: Record<string, TSchema> = {
  TemplateComponentInput: TemplateComponentDoc,
  TemplateComponent: StoredTemplateComponentDoc,
  SendComponent: SendComponentDoc,
  WebhookResponse: WebhookResponseDoc,
};

/** Schema options marking a node as documented by the named concrete schema. */
export function docSchema(name: keyof typeof DOC_SCHEMAS & string): { $comment: string } {
  return { $comment: `${PREFIX}${name}` };
}

/** Marks `webhook_response` (free-form at the serializer, documented as the network's status object). */
export const WEBHOOK_RESPONSE_DOC = docSchema('WebhookResponse');

/** A deep copy of `schema` with every marked node replaced by its documented schema (the original is not touched). */
export function substituteDocSchemas(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(substituteDocSchemas);
  if (typeof schema !== 'object' || schema === null) return schema;
  const node = schema as Record<string, unknown>;
  if (typeof node.$comment === 'string' && node.$comment.startsWith(PREFIX)) {
    const doc = DOC_SCHEMAS[node.$comment.slice(PREFIX.length)];
    if (!doc) throw new Error(`no documented schema named ${node.$comment}`);
    // Keep the node's own description when the documented schema has none here.
    return { ...(typeof node.description === 'string' ? { description: node.description } : {}), ...(doc as object) };
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = substituteDocSchemas(value);
  return out;
}

/** What `documented` can add to or replace in one operation's document. */
export interface DocOverrides {
  /** Replaces the request body in the document (the route validates its own). */
  body?: TSchema;
  /** Content types of that body. */
  consumes?: string[];
  /** Headers added to the operation's parameters (document only: not validated by the schema). */
  headers?: TSchema;
  /** Response schemas replacing the route's per status code in the document. */
  response?: Record<string, TSchema>;
}

/**
 * An example given for a whole querystring, params or headers object (`examples: [{channel_id: …}]`) shown on
 * each parameter that has none of its own (the document lists parameters one by one); else one composed from
 * the parameter's schema (its enum, const or default).
 */
function spreadParameterExamples(schema: Record<string, unknown>): void {
  for (const part of ['querystring', 'params', 'headers']) {
    const object = schema[part] as { properties?: Record<string, Record<string, unknown>>; examples?: unknown[] } | undefined;
    if (!object?.properties) continue;
    const example = object.examples?.[0];
    for (const [name, property] of Object.entries(object.properties)) {
      if (property.examples !== undefined) continue;
      const given = typeof example === 'object' && example !== null ? (example as Record<string, unknown>)[name] : undefined;
      const value = given ?? composeExample(property);
      if (value !== undefined) object.properties[name] = { ...property, examples: [value] };
    }
  }
}

type Node = Record<string, unknown>;

/**
 * An example of a schema composed from the examples of its parts (`examples`, `const`, `default`, `enum`),
 * or undefined when a required part has none. Optional parts without one are left out; an array whose items
 * have none is empty; a union takes its first member that has one (so a nullable field without one is null).
 */
export function composeExample(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return undefined;
  const s = schema as Node;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if ('const' in s) return s.const;
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  if (s.type === 'null') return null;
  for (const key of ['anyOf', 'oneOf'] as const) {
    if (!Array.isArray(s[key])) continue;
    for (const member of s[key] as unknown[]) {
      const value = composeExample(member);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (s.type === 'array') {
    const item = composeExample(s.items);
    return item === undefined ? [] : [item];
  }
  if (s.type === 'object' && s.properties && typeof s.properties === 'object') {
    const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
    const out: Node = {};
    for (const [name, property] of Object.entries(s.properties as Record<string, unknown>)) {
      const value = composeExample(property);
      if (value === undefined && required.has(name)) return undefined;
      if (value !== undefined) out[name] = value;
    }
    return out;
  }
  return undefined;
}

/** A 2xx answer without an example of its own gets one composed from its parts' examples (e.g. the envelope around `data`). */
function composeResponseExamples(schema: Node): void {
  const response = schema.response as Record<string, Node> | undefined;
  for (const [code, answer] of Object.entries(response ?? {})) {
    if (!/^2/.test(code) || typeof answer !== 'object' || answer === null || answer.examples !== undefined || answer.content !== undefined) continue;
    const example = composeExample(answer);
    if (example !== undefined) response![code] = { ...answer, examples: [example] };
  }
}

/** The transform both the global option and `documented` apply: marked nodes, then the route's overrides. */
export function documentSchema(schema: FastifySchema | undefined, overrides: DocOverrides = {}): FastifySchema {
  const base = (substituteDocSchemas(schema ?? {}) as Record<string, unknown>);
  spreadParameterExamples(base);
  const out: Record<string, unknown> = { ...base };
  if (overrides.body) out.body = substituteDocSchemas(overrides.body);
  if (overrides.consumes) out.consumes = overrides.consumes;
  if (overrides.headers) out.headers = substituteDocSchemas(overrides.headers);
  if (overrides.response) out.response = { ...(base.response as object), ...(substituteDocSchemas(overrides.response) as object) };
  composeResponseExamples(out);
  return out as FastifySchema;
}

/** Route `config` documenting parts of the operation differently from what the route validates. */
export function documented(overrides: DocOverrides) {
  return {
    swaggerTransform: ({ schema, url }: { schema: FastifySchema; url: string }) => ({ schema: documentSchema(schema, overrides), url }),
  };
}

/** The optional `Idempotency-Key` header of sends, starts and template creates (checked by http/idempotency.ts). */
export const IDEMPOTENCY_HEADER_DOC = Type.Object({
  'Idempotency-Key': Type.Optional(Type.String({
    minLength: 1,
    maxLength: 255,
    description: 'addition: 1–255 printable ASCII characters. A retry with the same key and body within 24 h gets the first answer (Idempotent-Replayed: true) and runs nothing; another body under the key is 409 IDEMPOTENCY_KEY_REUSED.',
    examples: ['order-86019-send'],
  })),
});
