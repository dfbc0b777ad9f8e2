/**
 * Input rules shared by every family route, on top of the route schemas: a route that declares no query
 * takes none (an unknown query field is refused like an unknown body field), and no string may hold NUL
 * (U+0000), which PostgreSQL text and jsonb cannot store — refused here as 400 instead of failing in SQL.
 */
import { Stream } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { invalid } from '../errors.js';

const NUL = '\u0000';

/** A field name as the error names it: NUL written out. */
function shown(name: string): string {
  return name.split(NUL).join('\\u0000');
}

/** Parsed JSON, query and params objects (whatever their prototype), not a streamed body or raw bytes. */
function isParsed(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null && !(value instanceof Stream) && !Buffer.isBuffer(value);
}

/** The field path of the first string (value or key) holding NUL in a parsed value, if any. */
export function nulField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'body' : undefined;
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
    if (key.includes(NUL)) return shown(at);
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

/** Applies the rules to every route of this (encapsulated) scope, before its schemas are checked. */
export function applyInputRules(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.schema?.querystring) {
      const [unknown] = Object.keys(request.query as object);
      if (unknown !== undefined) throw invalid(shown(unknown), `${shown(unknown)} is not a known field`);
    }
    refuseNul(request.params);
    refuseNul(request.query);
    refuseNul(request.body);
  });
}
