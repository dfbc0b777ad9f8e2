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
  { $id: 'ErrorEnvelope' },
);

/** Family B success envelope around `fields` (e.g. `{data: ...}` or `{items: ...}`). */
export function familyBSchema<T extends Record<string, TSchema>>(fields: T) {
  return Type.Object({
    success: Type.Literal(true),
    message: Type.String(),
    status_code: Type.Integer(),
    trace_id: Type.String(),
    errors: Type.Array(ErrorElementSchema),
    ...fields,
  });
}

/** Family B success body. */
export function familyB<T extends object>(request: FastifyRequest, fields: T) {
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
