/**
 * Input rules shared by every family route, on top of the route schemas: a route that declares no query
 * takes none (an unknown query field is refused like an unknown body field), no string may hold NUL
 * (U+0000), which PostgreSQL text and jsonb cannot store — refused here as 400 instead of failing in SQL —
 * a JSON body may nest at most MAX_JSON_DEPTH levels (measured on the text before parsing, so no recursive walk
 * meets a body nested thousands deep), and an empty `application/json` body counts as no body.
 */
import type { FastifyInstance } from 'fastify';
import { jsonNestsDeeperThan, TOO_DEEP_MESSAGE } from '../domain/json-depth.js';
import { nulField, shown } from '../domain/nul.js';
import { invalid } from '../errors.js';

export { nulField };

/** Throws a 400 naming the field when a string holds NUL. */
export function refuseNul(value: unknown, path = ''): void {
  const field = nulField(value, path);
  if (field) throw invalid(field, `${field} must not contain the NUL character (U+0000)`);
}

/**
 * An empty body sent as `application/json` is no body (clients send that header on a DELETE without one):
 * the route's schema then decides, like for a request without content type. Anything else is parsed by
 * fastify's own JSON parser (prototype poisoning refused), so bad JSON stays a 400 INVALID_JSON; a body nested
 * too deep is refused before it is parsed.
 */
function acceptEmptyJsonBody(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    if (jsonNestsDeeperThan(body as string)) return done(invalid('body', TOO_DEEP_MESSAGE), undefined);
    parse(request, body as string, done);
  });
}

/** Applies the rules to every route of this (encapsulated) scope (registered after this call), before its schemas are checked. */
export function applyInputRules(app: FastifyInstance): void {
  acceptEmptyJsonBody(app);
  app.addHook('preValidation', async (request) => {
    if (!request.routeOptions.schema?.querystring) {
      const [unknown] = Object.keys(request.query as object);
      if (unknown !== undefined) throw invalid(shown(unknown), `${shown(unknown)} is not a known field`);
    }
    // A route with a body schema needs a body, also where the body is a stream checked by the service
    // (bulk starts skip the schema validator): no body, or an empty JSON one, is a 400, never a 500.
    // A multipart body is read part by part by its route (file imports and uploads), so it is never parsed here.
    const multipart = /^multipart\/form-data/i.test(String(request.headers['content-type'] ?? ''));
    if (request.routeOptions.schema?.body && request.body === undefined && !multipart) throw invalid('body', 'body is required');
    refuseNul(request.params);
    refuseNul(request.query);
    refuseNul(request.body);
  });
}
