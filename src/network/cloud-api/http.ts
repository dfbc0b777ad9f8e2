/**
 * The Graph API over one keep-alive undici Pool: builds requests, reads JSON answers and turns every
 * failure into a NetworkError (graph / timeout / connection / bad_response).
 */
import { Pool } from 'undici';
import type { GraphErrorBody } from '../port.js';
import { NetworkError } from '../port.js';

/** One Graph API call. `path` is appended to the base URL's path unless `fromRoot` is set. */
export interface GraphCall {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  token: string;
  /** `Bearer` for the Graph API; the resumable upload's chunk call uses `OAuth`. */
  scheme?: 'Bearer' | 'OAuth';
  query?: Record<string, string | number | undefined>;
  json?: unknown;
  body?: Buffer | NodeJS.ReadableStream;
  headers?: Record<string, string>;
  fromRoot?: boolean;
}

/** A 2xx answer: HTTP status and the JSON value. */
export interface GraphAnswer {
  status: number;
  json: unknown;
}

/** Node and undici error codes raised before any byte of the request was written. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'EADDRNOTAVAIL', 'UND_ERR_CONNECT_TIMEOUT',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Maps a thrown transport error to a NetworkError. */
export function transportError(err: unknown): NetworkError {
  const e = err as { code?: string; syscall?: string; message?: string; socket?: { bytesWritten?: number } };
  const code = e.code ?? '';
  // A socket closed with zero bytes written (fresh connection) cannot have carried the request.
  const notSent = NOT_SENT_CODES.has(code) || e.syscall === 'connect' || e.socket?.bytesWritten === 0;
  if (TIMEOUT_CODES.has(code)) {
    return new NetworkError('timeout', `network timeout (${code})`, null, undefined, notSent);
  }
  return new NetworkError('connection', `network connection failed (${code || e.message})`, null, undefined, notSent);
}

/** The Graph error inside a parsed body, when it is one. */
export function graphErrorOf(json: unknown): GraphErrorBody | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const error = (json as { error?: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'number' || typeof message !== 'string') return undefined;
  return error as GraphErrorBody;
}

/** Parses an answer: the JSON of a 2xx; a Graph error body throws 'graph', anything else 'bad_response'. */
export function parseAnswer(status: number, text: string): unknown {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new NetworkError('bad_response', `HTTP ${status} with a body that is not JSON`, status);
  }
  const graph = graphErrorOf(json);
  if (graph) throw new NetworkError('graph', graph.message, status, graph);
  if (status < 200 || status >= 300) {
    throw new NetworkError('bad_response', `unexpected HTTP ${status} without a Graph error`, status);
  }
  return json;
}

/** A Graph API client bound to one base URL (e.g. `https://graph.facebook.com/v23.0`). */
export class GraphHttp {
  private readonly pool: Pool;
  private readonly basePath: string;

  constructor(baseUrl: string, private readonly timeoutMs: number, connections: number) {
    const url = new URL(baseUrl);
    this.basePath = url.pathname.replace(/\/+$/, '');
    this.pool = new Pool(url.origin, {
      connections,
      pipelining: 1,
      keepAliveTimeout: 30_000,
      connect: { timeout: timeoutMs },
    });
  }

  /** Performs a call; resolves with a 2xx JSON answer, throws NetworkError otherwise. */
  async call(c: GraphCall): Promise<GraphAnswer> {
    const { status, text } = await this.send(c);
    return { status, json: parseAnswer(status, text) };
  }

  /** Sends a call and reads the whole answer without judging it; throws only transport failures. */
  async send(c: GraphCall): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {
      authorization: `${c.scheme ?? 'Bearer'} ${c.token}`,
      accept: 'application/json',
      ...c.headers,
    };
    let body: string | Buffer | NodeJS.ReadableStream | undefined = c.body;
    if (c.json !== undefined) {
      body = JSON.stringify(c.json);
      headers['content-type'] = 'application/json';
    }
    // The answer is collected by a dispatch handler: `request` would wrap every answer in a Readable stream only
    // for it to be read back whole, on every send call.
    return new Promise((resolve, reject) => {
      let status = 0;
      const chunks: Buffer[] = [];
      this.pool.dispatch(
        {
          method: c.method,
          path: this.pathOf(c),
          headers,
          body: body as string | Buffer | undefined,
          headersTimeout: this.timeoutMs,
          bodyTimeout: this.timeoutMs,
        },
        {
          // Declared so that undici takes this for a handler of its current interface (it tells them apart by it).
          onRequestStart: () => {},
          onResponseStart: (_controller, statusCode) => {
            status = statusCode;
          },
          onResponseData: (_controller, chunk) => {
            chunks.push(chunk);
          },
          onResponseEnd: () => {
            const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
            // UTF-8 decoded as the fetch body's text() decodes it: a leading byte order mark is dropped.
            const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
            resolve({ status, text: bytes.toString('utf8', bom ? 3 : 0) });
          },
          onResponseError: (_controller, err) => reject(transportError(err)),
        },
      );
    });
  }

  /** Closes idle connections and waits for running requests. */
  async close(): Promise<void> {
    await this.pool.close();
  }

  private pathOf(c: GraphCall): string {
    const query = Object.entries(c.query ?? {})
      .filter((kv): kv is [string, string | number] => kv[1] !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
      .join('&');
    const path = (c.fromRoot ? '' : this.basePath) + c.path;
    if (!query) return path;
    return path + (path.includes('?') ? '&' : '?') + query;
  }
}
