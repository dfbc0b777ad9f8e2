/**
 * The console's only way to the service: the public API with the signed-in token. Both route families
 * answer failures with `{success:false, message, status_code, trace_id, errors:[{code, message, field?}]}`.
 */
import { clearToken, getToken, setNotice } from './session';
import { navigate } from './router';
import type { FieldError, Me } from './api-types';

export type { FieldError };

/** A failed API call: HTTP status, the first error code, the message and every field error. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly errors: FieldError[];
  readonly traceId: string | null;

  constructor(status: number, code: string, message: string, errors: FieldError[] = [], traceId: string | null = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.traceId = traceId;
  }

  /** The errors whose field is `field` or lies under it (`rows[3]` matches `rows[3].phone_number`). */
  fieldErrors(field: string): FieldError[] {
    return this.errors.filter((e) => e.field !== undefined && (e.field === field || e.field.startsWith(`${field}.`) || e.field.startsWith(`${field}[`)));
  }
}

/** Options of apiFetch: fetch's, plus `json` (sent as the JSON body). */
export type ApiInit = RequestInit & { json?: unknown };

/** Message shown on the sign-in page after the service refused the token. */
export const SIGNED_OUT_MESSAGE = 'Your session ended: the service did not accept the API token (unknown or revoked). Sign in again.';

function headersFor(init: ApiInit): Headers {
  const headers = new Headers(init.headers);
  const token = getToken();
  if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
  if (init.json !== undefined) headers.set('content-type', 'application/json');
  if (!headers.has('accept')) headers.set('accept', 'application/json');
  return headers;
}

/** Turns a failed response into an ApiError (the envelope when there is one). */
async function failure(response: Response): Promise<ApiError> {
  let body: unknown = null;
  try {
    body = await response.json();
  } catch {
    // not JSON (a proxy's error page): fall back to the status text
  }
  const env = (body ?? {}) as { message?: unknown; errors?: unknown; trace_id?: unknown };
  const errors = Array.isArray(env.errors) ? (env.errors as FieldError[]).filter((e) => e && typeof e.message === 'string') : [];
  const message = typeof env.message === 'string' && env.message ? env.message : `${response.status} ${response.statusText || 'request failed'}`;
  const code = errors[0]?.code ?? `HTTP_${response.status}`;
  return new ApiError(response.status, code, message, errors, typeof env.trace_id === 'string' ? env.trace_id : null);
}

/** On 401 the token is dropped and the user goes to the sign-in page with a message. */
function signOutAfter401(): void {
  clearToken();
  setNotice(SIGNED_OUT_MESSAGE);
  navigate('/signin');
}

async function send(path: string, init: ApiInit): Promise<Response> {
  const { json, ...rest } = init;
  let response: Response;
  try {
    response = await fetch(path, { ...rest, headers: headersFor(init), body: json !== undefined ? JSON.stringify(json) : rest.body });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check your connection and try again.');
  }
  if (response.status === 401) {
    const error = await failure(response);
    signOutAfter401();
    throw error;
  }
  if (!response.ok) throw await failure(response);
  return response;
}

/**
 * Calls the API with the signed-in token and returns the parsed JSON body. Throws ApiError on a failure
 * (status, code, message, field errors); a 401 also signs the user out.
 */
export async function apiFetch<T = unknown>(path: string, init: ApiInit = {}): Promise<T> {
  const response = await send(path, init);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/**
 * Downloads a file from the API (with the bearer header) and hands it to the browser as a download.
 * Returns the file name used.
 */
export async function apiDownload(path: string, fallbackName: string, init: ApiInit = {}): Promise<string> {
  const response = await send(path, init);
  const blob = await response.blob();
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition);
  const name = match ? decodeURIComponent(match[1]) : fallbackName;
  saveBlob(blob, name);
  return name;
}

/** Hands a blob to the browser as a download named `name`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A human sentence for any error thrown by apiFetch (or anything else). */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}

/** The signed-in company (GET /api/v1/me). */
export type { Me } from './api-types';

/**
 * Checks a token before it is stored: GET /api/v1/me with it. Throws ApiError (401 for an unknown or
 * revoked token) without touching the session.
 */
export async function verifyToken(token: string): Promise<Me> {
  let response: Response;
  try {
    response = await fetch('/api/v1/me', { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The service could not be reached. Check your connection and try again.');
  }
  if (!response.ok) throw await failure(response);
  return ((await response.json()) as { data: Me }).data;
}
