/** Environment → typed configuration, checked once at boot. Nothing else reads process.env. */

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
  /** Seconds after which a send with no answer and no status event fails with OUTCOME_UNKNOWN (never resent). */
  reconcileWindowSeconds: number;
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

/** Reads and checks the configuration; throws ConfigError naming the first bad variable. */
export function loadConfig(env: Env = process.env): Config {
  const network = parseChoice(env, 'NETWORK', NETWORK_KINDS, 'simulator');
  const graphApiUrl = parseUrl(env, 'GRAPH_API_URL', ['http:', 'https:']);
  const appSecret = nonEmpty(env, 'APP_SECRET');
  const webhookVerifyToken = nonEmpty(env, 'WEBHOOK_VERIFY_TOKEN');
  if (network === 'cloud') {
    if (!graphApiUrl) throw new ConfigError('GRAPH_API_URL', 'is required when NETWORK=cloud');
    if (!appSecret) throw new ConfigError('APP_SECRET', 'is required when NETWORK=cloud');
    if (!webhookVerifyToken) throw new ConfigError('WEBHOOK_VERIFY_TOKEN', 'is required when NETWORK=cloud');
  }
  const demoToken = nonEmpty(env, 'TMS_DEMO_TOKEN');
  if (demoToken !== undefined && demoToken.length < 16) {
    throw new ConfigError('TMS_DEMO_TOKEN', 'must be at least 16 characters');
  }
  return {
    port: parsePort(env),
    host: nonEmpty(env, 'HOST') ?? '127.0.0.1',
    dataDir: nonEmpty(env, 'DATA_DIR') ?? './data',
    databaseUrl: parseUrl(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    network,
    graphApiUrl,
    metaAppId: parseDigits(env, 'META_APP_ID'),
    appSecret: appSecret ?? DEV_APP_SECRET,
    webhookVerifyToken: webhookVerifyToken ?? DEV_VERIFY_TOKEN,
    demoToken,
    logLevel: parseChoice(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    faultCrashAfterSend: parseChoice(env, 'TMS_FAULT_CRASH_AFTER_SEND', ['0', '1'] as const, '0') === '1',
    reconcileWindowSeconds: parseInteger(env, 'RECONCILE_WINDOW_SECONDS', 600, 5, 7 * 24 * 3600),
  };
}
