/** Maps every failure (catalogue errors, schema validation, body parsing, unknown) to the error envelope. */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError, ERROR_CATALOGUE, type ErrorCode, type ErrorElement } from '../errors.js';
import { errorBody } from './envelope.js';

/** `/components/1/buttons/0/url` → `components[1].buttons[0].url`. */
export function toFieldPath(pointer: string, extra?: string): string {
  const parts = pointer.split('/').filter(Boolean).map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra) parts.push(extra);
  return parts.reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '');
}

interface AjvIssue {
  instancePath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
}

function validationElements(issues: AjvIssue[], context: string | undefined): ErrorElement[] {
  const seen = new Set<string>();
  const elements: ErrorElement[] = [];
  for (const issue of issues) {
    const extra =
      issue.keyword === 'required'
        ? String(issue.params.missingProperty)
        : issue.keyword === 'additionalProperties'
          ? String(issue.params.additionalProperty)
          : undefined;
    const field = toFieldPath(issue.instancePath, extra) || context || 'body';
    const message =
      issue.keyword === 'required'
        ? `${field} is required`
        : issue.keyword === 'additionalProperties'
          ? `${field} is not a known field`
          : `${field} ${issue.message ?? 'is invalid'}`;
    const key = `${field}|${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    elements.push({ code: 'VALIDATION_FAILED', message, field });
  }
  return elements;
}

/** Fastify's own errors → catalogue code, and the field and message to use where the error's own would not do. */
const FASTIFY_ERRORS: Record<string, { code: ErrorCode; field?: string; message?: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'PAYLOAD_TOO_LARGE', message: ERROR_CATALOGUE.PAYLOAD_TOO_LARGE.message },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'UNSUPPORTED_MEDIA_TYPE' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { code: 'VALIDATION_FAILED' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'VALIDATION_FAILED' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'INVALID_JSON' },
  // Router errors, reported through the `frameworkErrors` option.
  FST_ERR_BAD_URL: { code: 'VALIDATION_FAILED', field: 'path', message: 'The URL path is not valid percent-encoding.' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'VALIDATION_FAILED', field: 'path', message: 'A path parameter is longer than 100 characters.' },
};

/** The catalogue code of a 4xx status, for errors of fastify and its plugins that have no code of ours. */
function codeOfStatus(status: number): ErrorCode {
  const code = (Object.keys(ERROR_CATALOGUE) as ErrorCode[]).find((c) => ERROR_CATALOGUE[c].status === status);
  return code ?? 'VALIDATION_FAILED';
}

function send(request: FastifyRequest, reply: FastifyReply, status: number, message: string, errors: ErrorElement[]) {
  return reply.status(status).send(errorBody(request, status, message, errors));
}

/** Maps any error to the envelope (the app's error handler, and fastify's `frameworkErrors` for router errors). */
export function handleError(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.retryAfter !== undefined) reply.header('retry-after', String(Math.ceil(error.retryAfter)));
    return send(request, reply, error.status, error.message, error.elements());
  }
  const fe = error as FastifyError & { validation?: AjvIssue[]; validationContext?: string };
  if (fe.validation) {
    const errors = validationElements(fe.validation, fe.validationContext);
    return send(request, reply, 400, errors[0]?.message ?? 'The request is invalid.', errors);
  }
  if (error instanceof SyntaxError || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return send(request, reply, 400, ERROR_CATALOGUE.INVALID_JSON.message, [
      { code: 'INVALID_JSON', message: ERROR_CATALOGUE.INVALID_JSON.message, field: 'body' },
    ]);
  }
  const mapped = fe.code ? FASTIFY_ERRORS[fe.code] : undefined;
  if (mapped || (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500)) {
    const code: ErrorCode = mapped?.code ?? codeOfStatus(fe.statusCode!);
    const status = ERROR_CATALOGUE[code].status;
    const message = mapped?.message ?? error.message;
    return send(request, reply, status, message, [{ code, message, field: mapped?.field ?? 'body' }]);
  }
  request.log.error({ err: error }, 'unhandled error');
  return send(request, reply, 500, ERROR_CATALOGUE.INTERNAL_ERROR.message, [
    { code: 'INTERNAL_ERROR', message: ERROR_CATALOGUE.INTERNAL_ERROR.message },
  ]);
}

/** Installs the error and not-found handlers on an app. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(handleError);

  app.setNotFoundHandler((request, reply) => {
    const message = `No route ${request.method} ${request.url.split('?')[0]}`;
    return send(request, reply, 404, message, [{ code: 'ROUTE_NOT_FOUND', message }]);
  });
}
