/**
 * The OpenAPI document's options for @fastify/swagger: OpenAPI 3.1 (JSON Schema 2020-12, so a nullable field
 * reads `anyOf: [X, {type: null}]`, which generators turn into `X | null`), bearer auth by default (the
 * webhook receiver and service routes say `security: []`), named shared schemas, tags, and the doc-only
 * substitutions of doc-only.ts. Served at /docs (Swagger UI) and /docs/json.
 */
import type { SwaggerOptions } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { documentSchema } from './doc-only.js';

/** The document's tags, in display order. */
export const OPENAPI_TAGS = [
  { name: '/agent-app/message-template', description: 'Templates, single and bulk sends and their reports: answers `{success, data}` or `{success, items, pagination}`; failures in the shared error envelope.' },
  { name: '/api/v1', description: 'Templates, channels, message records, opt-outs, statistics and client webhooks: every answer in the `{success, message, status_code, trace_id, errors}` envelope.' },
  { name: 'webhooks', description: 'The network\'s webhooks in (Meta calls these, signed with the app secret; no bearer token).' },
  { name: 'service', description: 'Service routes without a bearer token (health).' },
];

/** @fastify/swagger options. */
export function openapiOptions(version: string): SwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Template Messaging Service',
        version,
        description:
          'WhatsApp template messaging: templates, single and bulk sends, channel health and message status. ' +
          'Two groups of routes, /agent-app/message-template and /api/v1, on the same data; both take `Authorization: Bearer <token>` ' +
          '(`tms company create` / `tms token create`). Every failure answers the error envelope with a stable `errors[].code` ' +
          '(docs/errors.md). Send parameter and bulk column formats: docs/send-parameters.md. ' +
          'Field names: the interface fixes the names of its routes\' fields and they stay as written (the reports list\'s `created_at` ' +
          'in epoch milliseconds, `delivered_count`/`sent_count`/`seen_count` for WhatsApp\'s sent/delivered/read, `total_time` in seconds, ' +
          '`quality_score` beside family B\'s `quality_rating`); fields marked `addition` follow one convention: every time an ISO 8601 string ' +
          '(an instant `…_at`), durations `…_seconds`, counts of rows `…_count`, rolling windows `…_24h`, a row\'s number `row` and its client id `row_id` ' +
          '(docs/api-names.md).',
      },
      tags: OPENAPI_TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A company API token (shown once by `tms company create` or `tms token create`).' },
          metricsBearer: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN (operators), not a company token' },
        },
      },
      security: [{ bearer: [] }],
    },
    // Shared schemas keep their $id as their name in components.schemas (not def-0, def-1, …).
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url }) => ({ schema: documentSchema(schema as FastifySchema), url }),
  };
}
