/**
 * Input rules shared by every family route, on top of the route schemas: a route that declares no query
 * takes none (an unknown query field is refused like an unknown body field), and no string may hold NUL
 * (U+0000), which PostgreSQL text and jsonb cannot store — refused here as 400 instead of failing in SQL.
 */
import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { invalid } from '../errors.js';

const NoQuery = Type.Object({}, { additionalProperties: false });

/** Parsed JSON, query and params objects (whatever their prototype), not a streamed body or raw bytes. */
function isParsed(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null && !(value instanceof Stream) && !Buffer.isBuffer(value);
}

/** The field path of the first string (value or key) holding NUL in a parsed value, if any. */
export function nulField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (!isParsed(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return at.replace(/\u0000/g, '\\u0000');
    const found = nulField(item, at);
    if (found) return found;
  }
  return undefined;
}

/** Throws a 400 naming the field when a string holds NUL. */
export function refuseNul(value: unknown, path = ''): void {
  const field = nulField(value, path);
  if (field) throw invalid(field, `${field} must not contain the NUL character (U+0000)`);
}

/** Applies the rules to every route of this (encapsulated) scope. */
export function applyInputRules(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (!route.schema?.querystring) route.schema = { ...route.schema, querystring: NoQuery };
  });
  app.addHook('preValidation', async (request) => {
    refuseNul(request.params);
    refuseNul(request.query);
    refuseNul(request.body);
  });
}
