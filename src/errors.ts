/**
 * The error catalogue: every error the service answers with has a stable code here, an HTTP status and a
 * default message. `docs/errors.md` documents each code (a test fails when one is missing there).
 * Domain and store code throw `AppError`; the HTTP error handler maps it to the family's envelope.
 */
export const ERROR_CATALOGUE = {
  VALIDATION_FAILED: { status: 400, message: 'The request is invalid.' },
  TEMPLATE_INVALID: { status: 400, message: 'The template breaks a rule of the network or of the service.' },
  TEMPLATE_NAME_INVALID: { status: 400, message: 'Template names are lower-case letters, digits and _, at most 512 characters.' },
  PARAMETERS_INVALID: { status: 400, message: 'The message parameters do not match the template.' },
  INVALID_JSON: { status: 400, message: 'The request body is not valid JSON.' },
  FILE_INVALID: { status: 400, message: 'The uploaded file cannot be read as a recipient list.' },
  MAPPING_INVALID: { status: 400, message: "The column mapping does not fit the file's header row or the template." },
  RATE_CARD_INVALID: { status: 400, message: 'The rate card has a bad currency, date, market, category or price.' },
  UNAUTHORIZED: { status: 401, message: 'A valid bearer token is required.' },
  WEBHOOK_SIGNATURE_INVALID: { status: 401, message: 'The X-Hub-Signature-256 header is missing or wrong.' },
  WEBHOOK_VERIFY_FAILED: { status: 403, message: 'The webhook verification token does not match.' },
  NOT_FOUND: { status: 404, message: 'The resource was not found.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such route.' },
  CHANNEL_NOT_FOUND: { status: 404, message: 'The channel was not found.' },
  WEBHOOK_ENDPOINT_NOT_FOUND: { status: 404, message: 'The webhook endpoint was not found.' },
  WEBHOOK_DELIVERY_NOT_FOUND: { status: 404, message: 'The webhook delivery was not found.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'The method is not allowed on this route.' },
  CONFLICT: { status: 409, message: 'The request conflicts with the current state.' },
  CHANNEL_EXISTS: { status: 409, message: 'A channel with this phone number id already exists.' },
  TEMPLATE_NAME_TAKEN: { status: 409, message: 'The template name is used on this channel or was deleted in the last 30 days.' },
  BULK_SEND_FINISHED: { status: 409, message: 'The bulk send has already finished.' },
  BULK_SEND_NOT_STARTED: { status: 409, message: 'The bulk send is SCHEDULED and has not started; stop it instead.' },
  BULK_SEND_NOT_FINISHED: { status: 409, message: 'Only a finished (COMPLETED or STOPPED) bulk send can be retried.' },
  NO_ROWS_TO_RETRY: { status: 409, message: 'The bulk send has no failed row that can be retried.' },
  WEBHOOK_ENDPOINT_DISABLED: { status: 409, message: 'The webhook endpoint is disabled; enable it before replaying a delivery.' },
  WEBHOOK_ENDPOINT_LIMIT: { status: 409, message: 'The company already has the most webhook endpoints allowed (10).' },
  IDEMPOTENCY_KEY_REUSED: { status: 409, message: 'This Idempotency-Key was used with another request (method, route or body) in the last 24 hours.' },
  IDEMPOTENCY_KEY_IN_PROGRESS: { status: 409, message: 'The first request with this Idempotency-Key is still running; retry shortly.' },
  REQUEST_TIMEOUT: { status: 408, message: 'The request body stopped arriving; the request was cut off.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request content type is not supported.' },
  FILE_TYPE_UNSUPPORTED: { status: 415, message: 'The uploaded file is not a CSV (UTF-8) or XLSX file.' },
  NETWORK_REJECTED: { status: 422, message: 'The messaging network refused the request.' },
  NAME_NOT_CHECKED: { status: 422, message: 'Check the template name on this channel (check-name) within the last hour before creating it.' },
  TEMPLATE_NOT_APPROVED: { status: 422, message: 'Only APPROVED templates can be sent.' },
  RECIPIENT_OPTED_OUT: { status: 422, message: "The recipient is on the company's opt-out list." },
  CHANNEL_BLOCKED: { status: 422, message: 'The channel cannot send now (status FLAGGED, RESTRICTED, BANNED or DELETED, or quality RED).' },
  MEDIA_REQUIRED: { status: 422, message: 'A template with an IMAGE, VIDEO or DOCUMENT header needs a file_handle.' },
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry later.' },
  TIER_LIMIT_REACHED: { status: 429, message: "The channel's messaging tier allows no more new recipients in the rolling 24 hours." },
  INTERNAL_ERROR: { status: 500, message: 'Internal error.' },
  NETWORK_ERROR: { status: 502, message: 'The messaging network answered with an error.' },
  NETWORK_UNAVAILABLE: { status: 503, message: 'The messaging network is unavailable.' },
  SERVICE_BUSY: { status: 503, message: 'The service is receiving as many request bodies as it takes at once; retry shortly.' },
  CHANNEL_AUTH_FAILED: { status: 503, message: "The network refuses the channel's access token (expired, revoked, without permission) or its locked account." },
  NETWORK_TIMEOUT: { status: 504, message: 'The messaging network did not answer in time.' },
} as const satisfies Record<string, { status: number; message: string }>;

/** A stable error code from the catalogue. */
export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** All catalogue codes, for documentation checks. */
export const ERROR_CODES = Object.keys(ERROR_CATALOGUE) as ErrorCode[];

/** One element of an envelope's `errors` array. */
export interface ErrorElement {
  code: string;
  message: string;
  field?: string;
}

/** An error with a catalogue code, an optional field path and extra elements. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly field?: string;
  readonly details: ErrorElement[];
  /** Seconds for a Retry-After header (429/503). */
  readonly retryAfter?: number;

  constructor(
    code: ErrorCode,
    message?: string,
    options: { field?: string; details?: ErrorElement[]; retryAfter?: number; status?: number } = {},
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'AppError';
    this.code = code;
    this.status = options.status ?? ERROR_CATALOGUE[code].status;
    this.field = options.field;
    this.details = options.details ?? [];
    this.retryAfter = options.retryAfter;
  }

  /** The envelope's `errors` array for this error. */
  elements(): ErrorElement[] {
    if (this.details.length > 0) return this.details;
    const element: ErrorElement = { code: this.code, message: this.message };
    if (this.field !== undefined) element.field = this.field;
    return [element];
  }
}

/** Shorthand for a 400 naming the bad field. */
export function invalid(field: string, message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, { field });
}
