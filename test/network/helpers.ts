/** Shared test tools: a simulator with fast timings, a webhook receiver on loopback, fixture shape checks. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCloudApiAdapter } from '../../src/network/cloud-api/adapter.js';
import type { ChannelCredentials, NetworkPort } from '../../src/network/port.js';
import { NetworkError } from '../../src/network/port.js';
import {
  createSimulator, SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID, type Simulator, type SimulatorOptions,
} from '../../src/network/simulator/index.js';

/** Fast network timings for tests. */
export const FAST_TIMINGS = { templateApprovalDelayMs: 40, sentDelayMs: 10, deliveredDelayMs: 25, readDelayMs: 40, failedDelayMs: 10 };

/** Credentials of a simulated channel. */
export function credsOf(phoneNumberId: string = SIM_CHANNEL_IDS.main, accessToken = SIM_ACCESS_TOKEN): ChannelCredentials {
  return { phoneNumberId, wabaId: SIM_WABA_ID, accessToken };
}

/** A started simulator with an adapter pointed at it. */
export interface SimSetup {
  sim: Simulator;
  url: string;
  rootUrl: string;
  net: NetworkPort;
  close(): Promise<void>;
}

/** Starts a simulator on 127.0.0.1:0 (fast timings unless overridden) and an adapter for it. */
export async function startSim(options: SimulatorOptions = {}, timeoutMs = 2000): Promise<SimSetup> {
  const sim = createSimulator({ ...options, timings: { ...FAST_TIMINGS, ...options.timings } });
  const { url, rootUrl } = await sim.start(0);
  const net = createCloudApiAdapter({ baseUrl: url, appId: SIM_APP_ID, timeoutMs });
  return { sim, url, rootUrl, net, close: async () => { await net.close(); await sim.stop(); } };
}

/** The NetworkError a promise rejects with (fails the test when it resolves or throws something else). */
export async function networkErrorOf(promise: Promise<unknown>): Promise<NetworkError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof NetworkError, `expected a NetworkError, got ${String(err)}`);
    return err;
  }
  assert.fail('expected the call to fail');
}

/** JSON over real HTTP (admin routes and raw Graph reads). */
export async function httpJson(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, text, json: json as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Bearer header of the simulator's token. */
export const AUTH = { authorization: `Bearer ${SIM_ACCESS_TOKEN}` };

/** One webhook as the receiver got it. */
export interface ReceivedWebhook {
  raw: Buffer;
  headers: IncomingHttpHeaders;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** A webhook endpoint on 127.0.0.1:0 that records every POST; `answer` picks the HTTP status. */
export class WebhookReceiver {
  readonly received: ReceivedWebhook[] = [];
  answer: (n: number) => number = () => 200;
  attempts = 0;
  /** The URL given by `start`. */
  url = '';
  private server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = this.answer(++this.attempts);
      if (status >= 200 && status < 300) {
        const raw = Buffer.concat(chunks);
        this.received.push({ raw, headers: req.headers, body: JSON.parse(raw.toString('utf8')) });
      }
      res.writeHead(status).end();
    });
  });

  /** Starts listening; returns the URL to give the simulator. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/webhooks`;
    return this.url;
  }

  /** Every status item received so far, in arrival order. */
  statuses(): any[] { // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.received.flatMap((w) => w.body.entry.flatMap((e: any) => e.changes.flatMap((c: any) => c.value.statuses ?? []))); // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  /** Every change of a field, in arrival order. */
  changes(field: string): any[] { // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.received.flatMap((w) => w.body.entry.flatMap((e: any) => e.changes.filter((c: any) => c.field === field))); // eslint-disable-line @typescript-eslint/no-explicit-any
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls until `check` returns a truthy value (fails after `timeoutMs`). */
export async function eventually<T>(check: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs = 3000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) assert.fail('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Waits a while (to show that something does NOT happen). */
export function pause(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A copied Meta fixture (test/fixtures/meta: the shared set, copied byte for byte). */
export function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`../fixtures/meta/${name}.json`, import.meta.url), 'utf8'));
}

function kind(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

/**
 * Asserts that `actual` has the fixture's structure: the same keys with the same JSON types, recursively
 * (arrays compared by their first element). Keys only in `actual` fail unless their path is in `extra`
 * (paths like `entry.changes.value.statuses.biz_opaque_callback_data`).
 */
export function assertSameShape(actual: unknown, expected: unknown, extra: string[] = [], path = ''): void {
  assert.equal(kind(actual), kind(expected), `type of ${path || '(root)'}`);
  if (Array.isArray(expected)) {
    assert.ok((actual as unknown[]).length > 0, `${path} is empty`);
    if (expected.length > 0) assertSameShape((actual as unknown[])[0], expected[0], extra, path);
    return;
  }
  if (kind(expected) !== 'object') return;
  const a = actual as Record<string, unknown>;
  const e = expected as Record<string, unknown>;
  const at = (k: string) => (path ? `${path}.${k}` : k);
  for (const key of Object.keys(e)) {
    assert.ok(key in a, `missing ${at(key)}`);
    assertSameShape(a[key], e[key], extra, at(key));
  }
  for (const key of Object.keys(a)) {
    if (!(key in e)) assert.ok(extra.includes(at(key)), `unexpected ${at(key)}`);
  }
}
