/**
 * Response envelopes. Family B wraps everything in `{success, message, status_code, trace_id, errors}`;
 * family A answers `{success, data}` / `{success, items, pagination}` and, on failure, the same error
 * fields as family B, so one client parser handles both.
 */
import { Type, type TSchema } from 'typebox';
import type { FastifyRequest } from 'fastify';
import type { ErrorElement } from '../errors.js';

/** The error element schema. */
export const ErrorElementSchema = Type.Object({
  code: Type.String(),
  message: Type.String(),
  field: Type.Optional(Type.String()),
});

/** The failure body of both families. */
export const ErrorEnvelopeSchema = Type.Object(
  {
    success: Type.Literal(false),
    message: Type.String(),
    status_code: Type.Integer(),
    trace_id: Type.String(),
    errors: Type.Array(ErrorElementSchema),
  },
  {
    $id: 'ErrorEnvelope',
    description: 'A failure, in both families: one element per problem, each with a stable code (docs/errors.md) and the field path',
    examples: [{
      success: false,
      message: 'channel_id is required',
      status_code: 400,
      trace_id: '7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e',
      errors: [{ code: 'VALIDATION_FAILED', message: 'channel_id is required', field: 'channel_id' }],
    }],
  },
);

/** The /api/v1 success envelope around `fields` (e.g. `{data: ...}` or `{items: ...}`). */
export function apiV1Schema<T extends Record<string, TSchema>>(fields: T, options: { examples?: unknown[]; description?: string } = {}) {
  // Field examples let the document compose a whole answer's example from the example of `data` / `items`.
  return Type.Object({
    success: Type.Literal(true),
    message: Type.String({ examples: [''] }),
    status_code: Type.Integer({ examples: [200] }),
    trace_id: Type.String({ examples: ['7b0c3c1e-5d0a-4a44-9f0e-2f3c1b1f6d7e'] }),
    errors: Type.Array(ErrorElementSchema, { examples: [[]] }),
    ...fields,
  }, options);
}

/** The /api/v1 success body (the envelope around `fields`). */
export function apiV1Body<T extends object>(request: FastifyRequest, fields: T) {
  return { success: true as const, message: '', status_code: 200, trace_id: request.id, errors: [], ...fields };
}

/** The failure body for an error. */
export function errorBody(request: FastifyRequest, status: number, message: string, errors: ErrorElement[]) {
  return { success: false as const, message, status_code: status, trace_id: request.id, errors };
}

/** Standard error responses for a route schema: 4xx/5xx all carry the error envelope. */
export const ERROR_RESPONSES = {
  '4xx': Type.Ref('ErrorEnvelope'),
  '5xx': Type.Ref('ErrorEnvelope'),
} as const;
