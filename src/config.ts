/** Environment → typed configuration, checked once at boot. Nothing else reads process.env. */
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import { parseSecretKey } from './domain/secret-box.js';

export const NETWORK_KINDS = ['simulator', 'cloud'] as const;
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The service's configuration. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  network: (typeof NETWORK_KINDS)[number];
  graphApiUrl?: string;
  /** The Meta app id for the resumable upload (`POST /{app-id}/uploads`). */
  metaAppId?: string;
  appSecret: string;
  webhookVerifyToken: string;
  demoToken?: string;
  logLevel: (typeof LOG_LEVELS)[number];
  /**
   * Fault injection for crash tests (TMS_FAULT_CRASH_AFTER_SEND=1): the process kills itself with SIGKILL
   * right after the network accepted a message and before the outcome is stored. Never set in production.
   */
  faultCrashAfterSend: boolean;
  /** TMS_FAULT_CRASH_IN_FILE_START=1 (crash tests only): a file start SIGKILLs the process once its Idempotency-Key is reserved. */
  faultCrashInFileStart: boolean;
  /**
   * Fault injection for tests (TMS_FAULT_GATE_DELAY_MS, TMS_FAULT_GATE_DELAY_EVERY): a channel sender stalls this long
   * between a claim and its gate (the first gate of the process, or every Nth). 0 = off. Never set in production.
   */
  faultGateDelayMs: number;
  faultGateDelayEvery: number;
  /** TMS_FAULT_GATE_RELEASE_FILE (tests only): stalled gate N ends early once the file holds a number ≥ N. */
  faultGateReleaseFile: string | undefined;
  /** TMS_MESSAGE_LEASE_SECONDS (tests only; default 30): how long a claimed message stays this instance's. */
  messageLeaseSeconds: number;
  /** Seconds after which a send with no answer and no status event fails with OUTCOME_UNKNOWN (never resent). */
  reconcileWindowSeconds: number;
  /** STATUS_WAIT_SECONDS: a handed-off message with no status event after this long fails "No status from the network". */
  statusWaitSeconds: number;
  /** QUEUE_WAIT_SECONDS: a message queued on a blocked channel this long past its due time fails, never sent. */
  queueWaitSeconds: number;
  /**
   * TMS_HEAP_GROWTH_PERCENT: how far V8 lets the old generation grow past its live size before the next full
   * collection while no bulk start runs (runtime.ts's HeapGrowth; 0 leaves V8's own factor, up to 4x on a large
   * machine).
   */
  heapGrowthPercent: number;
  /** TMS_START_HEAP_GROWTH_PERCENT: the same while a bulk start checks and stores its rows (bounds its peak memory). */
  startHeapGrowthPercent: number;
  /** TMS_TRACE_START=1: each step of a bulk start is written to stderr (engine/start-trace.ts; a diagnostic for bench/start-trace.ts). */
  traceStart: boolean;
  /** STATUS_WEBHOOK_ALERT_SECONDS: messages await a status and no status webhook came for the channel this long: alert. */
  statusAlertSeconds: number;
  /** WEBHOOK_RETENTION_SECONDS: applied webhook events older than this are deleted (default 7 days, at least 60 s). */
  webhookRetentionSeconds: number;
  /**
   * WEBHOOK_APPLY_BUDGET_MS: webhook bodies are applied in the transaction that stores them while such a group takes
   * at most this long (default 500 ms, twice the network's expected median answer); a slower one sends the next bodies
   * the store-first way. 0: always store first.
   */
  webhookApplyBudgetMs: number;
  /**
   * WEBHOOK_HOLD_MS: while this process is sending (a sustained stream of hand-offs), webhook bodies are stored first
   * and applied once the oldest is this old, so a message's statuses arriving within it are one row version; statuses
   * and counters show up to this much later while a send runs. 0: never held.
   */
  webhookHoldMs: number;
  /**
   * WEBHOOK_APPLY_LANES: on PostgreSQL, up to this many transactions apply stored webhook bodies at once, each those of
   * its share of the channels (default 2; 1: one at a time). PGlite has one connection and always uses 1.
   */
  webhookApplyLanes: number;
  /**
   * HANDOFF_MARK_DELAY_MS: how long the hand-off mark of a bulk-send message (SENT_TO_BACKEND and its wamid) waits
   * after the network accepted it (default and most 10 s, a third of the message lease; 0: written at once).
   * Statuses applied meanwhile move the row themselves and the mark writes nothing; a bulk send's counters show such
   * a message as queued until then.
   */
  handOffMarkDelayMs: number;
  /** NUMBER_CHECK: `local` (default, no network call) or `contacts` (rehearsal only: also `POST /v1/contacts`). */
  numberCheck: 'local' | 'contacts';
  /** CLIENT_WEBHOOK_TIMEOUT_MS: one client webhook POST's deadline (default 10 s). */
  clientWebhookTimeoutMs: number;
  /** CLIENT_WEBHOOK_CONCURRENCY: client webhook deliveries in flight per endpoint and instance (default 8). */
  clientWebhookConcurrency: number;
  /** CLIENT_WEBHOOK_RETENTION_SECONDS: finished client webhook deliveries are kept this long (default 7 days). */
  clientWebhookRetentionSeconds: number;
  /** CLIENT_WEBHOOK_MAX_PENDING: an endpoint with more undelivered deliveries than this is disabled (default 100,000). */
  clientWebhookMaxPending: number;
  /** DB_STATEMENT_TIMEOUT_SECONDS: PostgreSQL ends any statement of the service that runs longer (default 300). */
  dbStatementTimeoutSeconds: number;
  /** The key that seals channel access tokens at rest (TMS_SECRET_KEY; a fixed development key in simulator mode). */
  secretKey: string;
  /** TMS_ALLOW_PUBLIC_SIMULATOR=1: the simulator-mode service may listen on a non-loopback HOST (a warning is printed). */
  allowPublicSimulator: boolean;
  /** METRICS_TOKEN: the bearer token of `GET /metrics` (at least 16 characters); unset, /metrics answers 404. */
  metricsToken?: string;
  /** HTTP_HEADERS_TIMEOUT_MS: a request's headers must arrive within this long (default 10 s), else 408 and the connection closes. */
  httpHeadersTimeoutMs: number;
  /** HTTP_REQUEST_TIMEOUT_MS: a whole request, body included, must arrive within this long (default 10 min: 256 MB at 0.5 MB/s). */
  httpRequestTimeoutMs: number;
  /** HTTP_BODY_IDLE_TIMEOUT_MS: a body with no new byte for this long is cut off with 408 (default 15 s). */
  httpBodyIdleTimeoutMs: number;
  /** HTTP_KEEPALIVE_TIMEOUT_MS: an idle keep-alive connection closes after this long (default 72 s). */
  httpKeepAliveTimeoutMs: number;
  /** HTTP_MAX_UPLOADS: request bodies received at once; one more is answered 503 SERVICE_BUSY (default 256). */
  httpMaxUploads: number;
  /** HTTP_MAX_UPLOADS_PER_CLIENT: request bodies received at once from one client address; one more is 429 (default 32). */
  httpMaxUploadsPerClient: number;
  /**
   * TRUST_PROXY: the proxies (addresses, CIDRs, or the names loopback, linklocal, uniquelocal) whose X-Forwarded-For
   * is believed; `request.ip`, which every per-address limit counts by, is then the nearest address that is not one
   * of them. Empty (the default): the socket's peer address, headers ignored.
   */
  trustProxy: string[];
  /** AUTH_FAILURES_PER_MINUTE: unknown or revoked tokens a client address or token prefix may present a minute before 429 (default 60). */
  authFailuresPerMinute: number;
  /** SHUTDOWN_TIMEOUT_MS: how long a SIGTERM/SIGINT drain may take before the process exits anyway (default 30 s). */
  shutdownTimeoutMs: number;
}

/** A configuration error naming the variable that is wrong. */
export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable}: ${message}`);
    this.name = 'ConfigError';
  }
}

/** Default app secret for the embedded simulator setup; `cloud` requires a real one. */
export const DEV_APP_SECRET = 'tms-dev-app-secret';
/** Default verify token for the embedded setup. */
export const DEV_VERIFY_TOKEN = 'tms-dev-verify-token';
/** The Graph API base used with NETWORK=cloud when GRAPH_API_URL is not set. */
export const DEFAULT_GRAPH_API_URL = 'https://graph.facebook.com/v23.0';
/**
 * The fixed development key (base64 of SHA-256 of "tms-dev-secret-key") that seals tokens in simulator mode when
 * TMS_SECRET_KEY is unset. It is public: never use it for real tokens (`cloud` requires TMS_SECRET_KEY).
 */
export const DEV_SECRET_KEY = createHash('sha256').update('tms-dev-secret-key').digest('base64');

/** True for a HOST that only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

type Env = Record<string, string | undefined>;

function nonEmpty(env: Env, name: string): string | undefined {
  const value = env[name];
  if (value === undefined) return undefined;
  if (value.trim() === '') throw new ConfigError(name, 'must not be empty when set');
  return value;
}

function parsePort(env: Env): number {
  const raw = nonEmpty(env, 'PORT');
  if (raw === undefined) return 3000;
  if (!/^\d+$/.test(raw)) throw new ConfigError('PORT', `must be an integer 0-65535, got "${raw}"`);
  const port = Number(raw);
  if (port > 65535) throw new ConfigError('PORT', `must be an integer 0-65535, got "${raw}"`);
  return port;
}

function parseUrl(env: Env, name: string, protocols: string[]): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${url.protocol}"`);
  }
  return raw;
}

function parseInteger(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new ConfigError(name, `must be an integer ${min}-${max}, got "${raw}"`);
  return value;
}

function parseDigits(env: Env, name: string): string | undefined {
  const raw = nonEmpty(env, name);
  if (raw !== undefined && !/^\d{1,32}$/.test(raw)) throw new ConfigError(name, 'must be the numeric id');
  return raw;
}

function parseChoice<T extends readonly string[]>(env: Env, name: string, choices: T, fallback: T[number]): T[number] {
  const raw = nonEmpty(env, name);
  if (raw === undefined) return fallback;
  if (!choices.includes(raw)) throw new ConfigError(name, `must be one of ${choices.join(', ')}, got "${raw}"`);
  return raw as T[number];
}

/** The HTTP server's timeouts and caps on bodies received at once. */
function httpLimits(env: Env) {
  const httpHeadersTimeoutMs = parseInteger(env, 'HTTP_HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const httpRequestTimeoutMs = parseInteger(env, 'HTTP_REQUEST_TIMEOUT_MS', 600_000, 1000, 24 * 3600 * 1000);
  // Node requires the whole request's deadline to be past the headers' one.
  if (httpRequestTimeoutMs <= httpHeadersTimeoutMs) throw new ConfigError('HTTP_REQUEST_TIMEOUT_MS', 'must be more than HTTP_HEADERS_TIMEOUT_MS');
  return {
    httpHeadersTimeoutMs,
    httpRequestTimeoutMs,
    httpBodyIdleTimeoutMs: parseInteger(env, 'HTTP_BODY_IDLE_TIMEOUT_MS', 15_000, 100, 600_000),
    httpKeepAliveTimeoutMs: parseInteger(env, 'HTTP_KEEPALIVE_TIMEOUT_MS', 72_000, 1000, 600_000),
    httpMaxUploads: parseInteger(env, 'HTTP_MAX_UPLOADS', 256, 1, 100_000),
    httpMaxUploadsPerClient: parseInteger(env, 'HTTP_MAX_UPLOADS_PER_CLIENT', 32, 1, 100_000),
  };
}

/** The address groups @fastify/proxy-addr knows by name. */
const PROXY_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

/** One TRUST_PROXY entry: an address, address/prefix, address/netmask or a group name; null when it is none. */
function proxyEntry(entry: string): string | null {
  if (PROXY_NAMES.includes(entry)) return entry;
  const [address, range, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return null;
  if (range === undefined) return entry;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128) ? entry : null;
  return family === 4 && isIP(range) === 4 ? entry : null;
}

/**
 * TRUST_PROXY, in the terms of Fastify's `trustProxy` list (a string or array of addresses/CIDRs). `true` and a hop
 * count are refused: both believe the header from any peer, so a client reaching the service directly could choose
 * its own address (Fastify 5 itself now treats a hop count as "trust nothing").
 */
function parseTrustProxy(env: Env): string[] {
  const raw = env.TRUST_PROXY;
  if (raw === undefined || raw.trim() === '') return [];
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    if (/^\d+$/.test(entry) || entry === 'true') {
      throw new ConfigError('TRUST_PROXY', `"${entry}" would believe X-Forwarded-For from any peer; list the proxies' addresses or CIDRs instead`);
    }
    if (proxyEntry(entry) === null) {
      throw new ConfigError('TRUST_PROXY', `must be a comma-separated list of proxy addresses or CIDRs (or loopback, linklocal, uniquelocal), got "${entry}"`);
    }
  }
  return entries;
}

/** TMS_HEAP_GROWTH_PERCENT's default (README "Memory"). */
export const DEFAULT_HEAP_GROWTH_PERCENT = 150;
/** TMS_START_HEAP_GROWTH_PERCENT's default (README "Memory"; docs/history/benchmarks-2026-11.md "Files in and out"). */
export const DEFAULT_START_HEAP_GROWTH_PERCENT = 30;

/** Reads and checks the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const network = parseChoice(env, 'NETWORK', NETWORK_KINDS, 'simulator');
  const parsedGraphApiUrl = parseUrl(env, 'GRAPH_API_URL', ['http:', 'https:']);
  const graphApiUrl = parsedGraphApiUrl ?? (network === 'cloud' ? DEFAULT_GRAPH_API_URL : undefined);
  const metaAppId = parseDigits(env, 'META_APP_ID');
  const appSecret = nonEmpty(env, 'APP_SECRET');
  const webhookVerifyToken = nonEmpty(env, 'WEBHOOK_VERIFY_TOKEN');
  const secretKey = nonEmpty(env, 'TMS_SECRET_KEY');
  if (secretKey !== undefined && parseSecretKey(secretKey) === null) {
    throw new ConfigError('TMS_SECRET_KEY', 'must be 32 bytes as base64 (openssl rand -base64 32) or 64 hex characters');
  }
  if (network === 'cloud') {
    if (!metaAppId) throw new ConfigError('META_APP_ID', 'is required when NETWORK=cloud (the Meta app id, for media uploads)');
    if (!appSecret) throw new ConfigError('APP_SECRET', 'is required when NETWORK=cloud (checks webhook signatures)');
    if (!webhookVerifyToken) throw new ConfigError('WEBHOOK_VERIFY_TOKEN', 'is required when NETWORK=cloud (answers the webhook verification)');
    if (!secretKey) {
      throw new ConfigError('TMS_SECRET_KEY', 'is required when NETWORK=cloud (seals channel access tokens at rest; make one with: openssl rand -base64 32)');
    }
  }
  const host = nonEmpty(env, 'HOST') ?? '127.0.0.1';
  const allowPublicSimulator = parseChoice(env, 'TMS_ALLOW_PUBLIC_SIMULATOR', ['0', '1'] as const, '0') === '1';
  if (network === 'simulator' && !isLoopbackHost(host) && !allowPublicSimulator) {
    throw new ConfigError(
      'HOST',
      `"${host}" is not a loopback address; with NETWORK=simulator the service serves a fake network and prints a demo token, so listening beyond this machine needs TMS_ALLOW_PUBLIC_SIMULATOR=1`,
    );
  }
  const demoToken = nonEmpty(env, 'TMS_DEMO_TOKEN');
  if (demoToken !== undefined && demoToken.length < 16) {
    throw new ConfigError('TMS_DEMO_TOKEN', 'must be at least 16 characters');
  }
  const metricsToken = nonEmpty(env, 'METRICS_TOKEN');
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    throw new ConfigError('METRICS_TOKEN', 'must be at least 16 characters without spaces');
  }
  return {
    port: parsePort(env),
    host,
    dataDir: nonEmpty(env, 'DATA_DIR') ?? './data',
    databaseUrl: parseUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    network,
    graphApiUrl,
    metaAppId,
    appSecret: appSecret ?? DEV_APP_SECRET,
    webhookVerifyToken: webhookVerifyToken ?? DEV_VERIFY_TOKEN,
    demoToken,
    logLevel: parseChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    faultCrashAfterSend: parseChoice(env, 'TMS_FAULT_CRASH_AFTER_SEND', ['0', '1'] as const, '0') === '1',
    faultCrashInFileStart: parseChoice(env, 'TMS_FAULT_CRASH_IN_FILE_START', ['0', '1'] as const, '0') === '1',
    faultGateDelayMs: parseInteger(env, 'TMS_FAULT_GATE_DELAY_MS', 0, 0, 600_000),
    faultGateDelayEvery: parseInteger(env, 'TMS_FAULT_GATE_DELAY_EVERY', 0, 0, 1_000_000),
    faultGateReleaseFile: env.TMS_FAULT_GATE_RELEASE_FILE || undefined,
    messageLeaseSeconds: parseInteger(env, 'TMS_MESSAGE_LEASE_SECONDS', 30, 1, 3600),
    reconcileWindowSeconds: parseInteger(env, 'RECONCILE_WINDOW_SECONDS', 600, 5, 7 * 24 * 3600),
    statusWaitSeconds: parseInteger(env, 'STATUS_WAIT_SECONDS', 24 * 3600, 1, 7 * 24 * 3600),
    queueWaitSeconds: parseInteger(env, 'QUEUE_WAIT_SECONDS', 24 * 3600, 1, 30 * 24 * 3600),
    statusAlertSeconds: parseInteger(env, 'STATUS_WEBHOOK_ALERT_SECONDS', 900, 1, 7 * 24 * 3600),
    webhookRetentionSeconds: parseInteger(env, 'WEBHOOK_RETENTION_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    webhookApplyBudgetMs: parseInteger(env, 'WEBHOOK_APPLY_BUDGET_MS', 500, 0, 60_000),
    webhookHoldMs: parseInteger(env, 'WEBHOOK_HOLD_MS', 1000, 0, 10_000),
    webhookApplyLanes: parseInteger(env, 'WEBHOOK_APPLY_LANES', 2, 1, 16),
    handOffMarkDelayMs: parseInteger(env, 'HANDOFF_MARK_DELAY_MS', 10_000, 0, 10_000),
    numberCheck: parseChoice(env, 'NUMBER_CHECK', ['local', 'contacts'] as const, 'local'),
    clientWebhookTimeoutMs: parseInteger(env, 'CLIENT_WEBHOOK_TIMEOUT_MS', 10_000, 500, 60_000),
    clientWebhookConcurrency: parseInteger(env, 'CLIENT_WEBHOOK_CONCURRENCY', 8, 1, 64),
    clientWebhookRetentionSeconds: parseInteger(env, 'CLIENT_WEBHOOK_RETENTION_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    clientWebhookMaxPending: parseInteger(env, 'CLIENT_WEBHOOK_MAX_PENDING', 100_000, 100, 10_000_000),
    dbStatementTimeoutSeconds: parseInteger(env, 'DB_STATEMENT_TIMEOUT_SECONDS', 300, 5, 86_400),
    secretKey: secretKey ?? DEV_SECRET_KEY,
    allowPublicSimulator,
    metricsToken,
    shutdownTimeoutMs: parseInteger(env, 'SHUTDOWN_TIMEOUT_MS', 30_000, 1000, 600_000),
    ...httpLimits(env),
    trustProxy: parseTrustProxy(env),
    authFailuresPerMinute: parseInteger(env, 'AUTH_FAILURES_PER_MINUTE', 60, 1, 1_000_000),
    heapGrowthPercent: parseInteger(env, 'TMS_HEAP_GROWTH_PERCENT', DEFAULT_HEAP_GROWTH_PERCENT, 0, 300),
    startHeapGrowthPercent: parseInteger(env, 'TMS_START_HEAP_GROWTH_PERCENT', DEFAULT_START_HEAP_GROWTH_PERCENT, 0, 300),
    traceStart: parseChoice(env, 'TMS_TRACE_START', ['0', '1'] as const, '0') === '1',
  };
}
