import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, DEFAULT_GRAPH_API_URL, DEV_SECRET_KEY, loadConfig } from '../src/config.js';
import { heapGrowthFlag } from '../src/runtime.js';

const KEY = Buffer.alloc(32, 9).toString('base64');
/** Every variable NETWORK=cloud requires. */
const CLOUD = { NETWORK: 'cloud', META_APP_ID: '123456', APP_SECRET: 's3cret', WEBHOOK_VERIFY_TOKEN: 'verify-me', TMS_SECRET_KEY: KEY };

function without(name: keyof typeof CLOUD): Record<string, string> {
  const env: Record<string, string> = { ...CLOUD };
  delete env[name];
  return env;
}

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError);
    return error;
  }
  assert.fail('expected a ConfigError');
}

test('an empty environment gives the embedded defaults', () => {
  const config = loadConfig({});
  assert.equal(config.port, 3000);
  assert.equal(config.host, '127.0.0.1');
  assert.equal(config.dataDir, './data');
  assert.equal(config.databaseUrl, undefined);
  assert.equal(config.network, 'simulator');
  assert.equal(config.logLevel, 'info');
});

test('every variable is read', () => {
  const config = loadConfig({
    PORT: '8080',
    HOST: '0.0.0.0',
    DATA_DIR: '/tmp/x',
    DATABASE_URL: 'postgres://u@h:5432/db',
    NETWORK: 'cloud',
    GRAPH_API_URL: 'https://graph.facebook.com/v23.0',
    META_APP_ID: '123456',
    APP_SECRET: 's3cret',
    WEBHOOK_VERIFY_TOKEN: 'verify-me',
    TMS_DEMO_TOKEN: 'demo-token-0123456789',
    LOG_LEVEL: 'warn',
    RECONCILE_WINDOW_SECONDS: '900',
    TMS_SECRET_KEY: KEY,
    TMS_ALLOW_PUBLIC_SIMULATOR: '1',
    TMS_FAULT_GATE_DELAY_MS: '11000',
    TMS_FAULT_GATE_DELAY_EVERY: '3',
    TMS_FAULT_GATE_RELEASE_FILE: '/tmp/release',
    TMS_MESSAGE_LEASE_SECONDS: '2',
    NUMBER_CHECK: 'contacts',
    STATUS_WAIT_SECONDS: '3600',
    QUEUE_WAIT_SECONDS: '7200',
    STATUS_WEBHOOK_ALERT_SECONDS: '600',
    WEBHOOK_RETENTION_SECONDS: '120',
    METRICS_TOKEN: 'metrics-token-0123456789',
    SHUTDOWN_TIMEOUT_MS: '5000',
    CLIENT_WEBHOOK_TIMEOUT_MS: '2000',
    CLIENT_WEBHOOK_CONCURRENCY: '3',
    CLIENT_WEBHOOK_RETENTION_SECONDS: '600',
    CLIENT_WEBHOOK_MAX_PENDING: '5000',
    DB_STATEMENT_TIMEOUT_SECONDS: '60',
    WEBHOOK_APPLY_BUDGET_MS: '250',
    WEBHOOK_HOLD_MS: '700',
    WEBHOOK_APPLY_LANES: '3',
    HANDOFF_MARK_DELAY_MS: '4000',
    TMS_HEAP_GROWTH_PERCENT: '50',
    TMS_START_HEAP_GROWTH_PERCENT: '20',
    TMS_TRACE_START: '1',
    HTTP_HEADERS_TIMEOUT_MS: '5000',
    HTTP_REQUEST_TIMEOUT_MS: '60000',
    HTTP_BODY_IDLE_TIMEOUT_MS: '2000',
    HTTP_KEEPALIVE_TIMEOUT_MS: '10000',
    HTTP_MAX_UPLOADS: '50',
    HTTP_MAX_UPLOADS_PER_CLIENT: '5',
    AUTH_FAILURES_PER_MINUTE: '7',
    TRUST_PROXY: '10.0.0.1,10.1.0.0/16',
  });
  assert.deepEqual(config, {
    port: 8080,
    host: '0.0.0.0',
    dataDir: '/tmp/x',
    databaseUrl: 'postgres://u@h:5432/db',
    network: 'cloud',
    graphApiUrl: 'https://graph.facebook.com/v23.0',
    metaAppId: '123456',
    appSecret: 's3cret',
    webhookVerifyToken: 'verify-me',
    demoToken: 'demo-token-0123456789',
    logLevel: 'warn',
    faultCrashAfterSend: false,
    faultCrashInFileStart: false,
    faultGateDelayMs: 11000,
    faultGateDelayEvery: 3,
    faultGateReleaseFile: '/tmp/release',
    messageLeaseSeconds: 2,
    reconcileWindowSeconds: 900,
    statusWaitSeconds: 3600,
    queueWaitSeconds: 7200,
    statusAlertSeconds: 600,
    webhookRetentionSeconds: 120,
    webhookApplyBudgetMs: 250,
    webhookHoldMs: 700,
    webhookApplyLanes: 3,
    handOffMarkDelayMs: 4000,
    numberCheck: 'contacts',
    clientWebhookTimeoutMs: 2000,
    clientWebhookConcurrency: 3,
    clientWebhookRetentionSeconds: 600,
    clientWebhookMaxPending: 5000,
    dbStatementTimeoutSeconds: 60,
    secretKey: KEY,
    allowPublicSimulator: true,
    metricsToken: 'metrics-token-0123456789',
    shutdownTimeoutMs: 5000,
    heapGrowthPercent: 50,
    startHeapGrowthPercent: 20,
    traceStart: true,
    httpHeadersTimeoutMs: 5000,
    httpRequestTimeoutMs: 60000,
    httpBodyIdleTimeoutMs: 2000,
    httpKeepAliveTimeoutMs: 10000,
    httpMaxUploads: 50,
    httpMaxUploadsPerClient: 5,
    authFailuresPerMinute: 7,
    trustProxy: ['10.0.0.1', '10.1.0.0/16'],
  });
});

test('the whole-request deadline must be past the headers deadline', () => {
  assert.throws(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '5000', HTTP_REQUEST_TIMEOUT_MS: '5000' }), /HTTP_REQUEST_TIMEOUT_MS/);
});

test('the metrics token is off by default and must be at least 16 characters; the shutdown deadline defaults to 30 s', () => {
  assert.equal(loadConfig({}).metricsToken, undefined);
  assert.equal(loadConfig({}).shutdownTimeoutMs, 30_000);
  assert.equal(configError({ METRICS_TOKEN: 'short' }).variable, 'METRICS_TOKEN');
  assert.equal(configError({ SHUTDOWN_TIMEOUT_MS: '10' }).variable, 'SHUTDOWN_TIMEOUT_MS');
});

test('the bounded waits default to 24 h (status, queue) and 15 min (stale-webhook alert), and a STATUS_WAIT_SECONDS past 7 days names it', () => {
  const config = loadConfig({});
  assert.equal(config.statusWaitSeconds, 86_400);
  assert.equal(config.queueWaitSeconds, 86_400);
  assert.equal(config.statusAlertSeconds, 900);
  assert.equal(configError({ STATUS_WAIT_SECONDS: String(8 * 86_400) }).variable, 'STATUS_WAIT_SECONDS');
});

test('webhook-event retention defaults to 7 days, and a WEBHOOK_RETENTION_SECONDS below 60 names it', () => {
  assert.equal(loadConfig({}).webhookRetentionSeconds, 7 * 86_400);
  assert.equal(configError({ WEBHOOK_RETENTION_SECONDS: '59' }).variable, 'WEBHOOK_RETENTION_SECONDS');
});

test('webhook bodies are applied on receipt within 500 ms by default, 0 stores them first always, and a negative budget names it', () => {
  assert.equal(loadConfig({}).webhookApplyBudgetMs, 500);
  assert.equal(loadConfig({ WEBHOOK_APPLY_BUDGET_MS: '0' }).webhookApplyBudgetMs, 0);
  assert.equal(configError({ WEBHOOK_APPLY_BUDGET_MS: '-1' }).variable, 'WEBHOOK_APPLY_BUDGET_MS');
});

test('start tracing is off unless TMS_TRACE_START is 1, and another value names the variable', () => {
  assert.equal(loadConfig({}).traceStart, false);
  assert.equal(loadConfig({ TMS_TRACE_START: '1' }).traceStart, true);
  assert.equal(configError({ TMS_TRACE_START: 'yes' }).variable, 'TMS_TRACE_START');
});

test('webhook bodies are held 1000 ms by default while sending, 0 never holds them, and a hold above 10 s names it', () => {
  assert.equal(loadConfig({}).webhookHoldMs, 1000);
  assert.equal(loadConfig({ WEBHOOK_HOLD_MS: '0' }).webhookHoldMs, 0);
  assert.equal(configError({ WEBHOOK_HOLD_MS: '10001' }).variable, 'WEBHOOK_HOLD_MS');
});

test('stored webhook bodies are applied in two lanes by default, 1 is one at a time, and 0 or 17 names the variable', () => {
  assert.equal(loadConfig({}).webhookApplyLanes, 2);
  assert.equal(loadConfig({ WEBHOOK_APPLY_LANES: '1' }).webhookApplyLanes, 1);
  assert.equal(configError({ WEBHOOK_APPLY_LANES: '0' }).variable, 'WEBHOOK_APPLY_LANES');
  assert.equal(configError({ WEBHOOK_APPLY_LANES: '17' }).variable, 'WEBHOOK_APPLY_LANES');
});

test('bulk-send hand-off marks wait 10 s by default, 0 writes them at once, and a delay above 10 s names the variable', () => {
  assert.equal(loadConfig({}).handOffMarkDelayMs, 10_000);
  assert.equal(loadConfig({ HANDOFF_MARK_DELAY_MS: '0' }).handOffMarkDelayMs, 0);
  assert.equal(configError({ HANDOFF_MARK_DELAY_MS: '10001' }).variable, 'HANDOFF_MARK_DELAY_MS');
  assert.equal(configError({ HANDOFF_MARK_DELAY_MS: '-1' }).variable, 'HANDOFF_MARK_DELAY_MS');
});

test('the heap growth defaults to 150 % (0 keeps V8 its own), and a TMS_HEAP_GROWTH_PERCENT above 300 names it', () => {
  assert.equal(loadConfig({}).heapGrowthPercent, 150);
  assert.equal(loadConfig({ TMS_HEAP_GROWTH_PERCENT: '0' }).heapGrowthPercent, 0);
  assert.equal(heapGrowthFlag(150), '--heap-growing-percent=150');
  assert.equal(heapGrowthFlag(0), '--heap-growing-percent=0');
  assert.equal(configError({ TMS_HEAP_GROWTH_PERCENT: '301' }).variable, 'TMS_HEAP_GROWTH_PERCENT');
  assert.equal(configError({ TMS_HEAP_GROWTH_PERCENT: '-5' }).variable, 'TMS_HEAP_GROWTH_PERCENT');
});

test('the heap growth while a bulk start runs defaults to 30 %, and a TMS_START_HEAP_GROWTH_PERCENT above 300 names it', () => {
  assert.equal(loadConfig({}).startHeapGrowthPercent, 30);
  assert.equal(loadConfig({ TMS_START_HEAP_GROWTH_PERCENT: '0' }).startHeapGrowthPercent, 0);
  assert.equal(configError({ TMS_START_HEAP_GROWTH_PERCENT: '301' }).variable, 'TMS_START_HEAP_GROWTH_PERCENT');
});

test('a non-numeric PORT names PORT', () => {
  assert.equal(configError({ PORT: 'abc' }).variable, 'PORT');
});

test('a PORT above 65535 names PORT', () => {
  assert.equal(configError({ PORT: '70000' }).variable, 'PORT');
});

test('an unknown NETWORK names NETWORK', () => {
  assert.equal(configError({ NETWORK: 'carrier-pigeon' }).variable, 'NETWORK');
});

test('a DATABASE_URL that is not postgres names DATABASE_URL', () => {
  assert.equal(configError({ DATABASE_URL: 'mysql://x@y/z' }).variable, 'DATABASE_URL');
});

test('a malformed GRAPH_API_URL names GRAPH_API_URL', () => {
  assert.equal(configError({ GRAPH_API_URL: 'not a url' }).variable, 'GRAPH_API_URL');
});

test('NETWORK=cloud without GRAPH_API_URL uses graph.facebook.com v23.0', () => {
  assert.equal(loadConfig(CLOUD).graphApiUrl, DEFAULT_GRAPH_API_URL);
  assert.equal(DEFAULT_GRAPH_API_URL, 'https://graph.facebook.com/v23.0');
});

test('NETWORK=cloud without META_APP_ID names META_APP_ID', () => {
  assert.equal(configError(without('META_APP_ID')).variable, 'META_APP_ID');
});

test('NETWORK=cloud without APP_SECRET names APP_SECRET', () => {
  assert.equal(configError(without('APP_SECRET')).variable, 'APP_SECRET');
});

test('NETWORK=cloud without WEBHOOK_VERIFY_TOKEN names WEBHOOK_VERIFY_TOKEN', () => {
  assert.equal(configError(without('WEBHOOK_VERIFY_TOKEN')).variable, 'WEBHOOK_VERIFY_TOKEN');
});

test('NETWORK=cloud without TMS_SECRET_KEY names TMS_SECRET_KEY and says how to make one', () => {
  const error = configError(without('TMS_SECRET_KEY'));
  assert.equal(error.variable, 'TMS_SECRET_KEY');
  assert.match(error.message, /openssl rand -base64 32/);
});

test('a TMS_SECRET_KEY that is not 32 bytes names TMS_SECRET_KEY', () => {
  assert.equal(configError({ TMS_SECRET_KEY: Buffer.alloc(16).toString('base64') }).variable, 'TMS_SECRET_KEY');
});

test('simulator mode without TMS_SECRET_KEY uses the fixed development key', () => {
  assert.equal(loadConfig({}).secretKey, DEV_SECRET_KEY);
});

test('simulator mode on a non-loopback HOST without the opt-in names HOST', () => {
  const error = configError({ HOST: '0.0.0.0' });
  assert.equal(error.variable, 'HOST');
  assert.match(error.message, /TMS_ALLOW_PUBLIC_SIMULATOR=1/);
});

test('simulator mode on a non-loopback HOST with TMS_ALLOW_PUBLIC_SIMULATOR=1 is allowed', () => {
  const config = loadConfig({ HOST: '0.0.0.0', TMS_ALLOW_PUBLIC_SIMULATOR: '1' });
  assert.equal(config.host, '0.0.0.0');
  assert.equal(config.allowPublicSimulator, true);
});

test('simulator mode on loopback hosts needs no opt-in', () => {
  for (const host of ['127.0.0.1', 'localhost', '::1', '127.0.0.2']) assert.equal(loadConfig({ HOST: host }).host, host);
});

test('cloud mode on a non-loopback HOST needs no opt-in', () => {
  assert.equal(loadConfig({ ...CLOUD, HOST: '0.0.0.0' }).host, '0.0.0.0');
});

test('a META_APP_ID that is not numeric names META_APP_ID', () => {
  assert.equal(configError({ META_APP_ID: 'app' }).variable, 'META_APP_ID');
});

test('TMS_FAULT_CRASH_AFTER_SEND takes only 0 or 1', () => {
  assert.equal(configError({ TMS_FAULT_CRASH_AFTER_SEND: 'yes' }).variable, 'TMS_FAULT_CRASH_AFTER_SEND');
  assert.equal(loadConfig({ TMS_FAULT_CRASH_AFTER_SEND: '1' }).faultCrashAfterSend, true);
});

test('the test-only gate delay is off and the message lease 30 s by default; a lease of 0 names TMS_MESSAGE_LEASE_SECONDS', () => {
  const config = loadConfig({});
  assert.equal(config.faultGateDelayMs, 0);
  assert.equal(config.messageLeaseSeconds, 30);
  assert.equal(configError({ TMS_MESSAGE_LEASE_SECONDS: '0' }).variable, 'TMS_MESSAGE_LEASE_SECONDS');
});

test('a RECONCILE_WINDOW_SECONDS out of range names it', () => {
  assert.equal(configError({ RECONCILE_WINDOW_SECONDS: '1' }).variable, 'RECONCILE_WINDOW_SECONDS');
});

test('an unknown LOG_LEVEL names LOG_LEVEL', () => {
  assert.equal(configError({ LOG_LEVEL: 'loud' }).variable, 'LOG_LEVEL');
});

test('a short TMS_DEMO_TOKEN names TMS_DEMO_TOKEN', () => {
  assert.equal(configError({ TMS_DEMO_TOKEN: 'short' }).variable, 'TMS_DEMO_TOKEN');
});

test('an empty variable is an error, not a default', () => {
  assert.equal(configError({ HOST: '' }).variable, 'HOST');
});

test('the message names the variable', () => {
  assert.match(configError({ PORT: 'x' }).message, /^PORT: /);
});

test('NUMBER_CHECK defaults to local and refuses other values', () => {
  assert.equal(loadConfig({}).numberCheck, 'local');
  assert.equal(configError({ NUMBER_CHECK: 'remote' }).variable, 'NUMBER_CHECK');
});

test('client webhooks: 10 s timeout, 8 per endpoint, 7 days retention by default; a CLIENT_WEBHOOK_TIMEOUT_MS past 60 s names it', () => {
  const config = loadConfig({});
  assert.equal(config.clientWebhookTimeoutMs, 10_000);
  assert.equal(config.clientWebhookConcurrency, 8);
  assert.equal(config.clientWebhookRetentionSeconds, 7 * 86_400);
  assert.equal(configError({ CLIENT_WEBHOOK_TIMEOUT_MS: '60001' }).variable, 'CLIENT_WEBHOOK_TIMEOUT_MS');
});

test('TRUST_PROXY: off by default; a list of proxy addresses and CIDRs is read', () => {
  assert.deepEqual(loadConfig({}).trustProxy, []);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '' }).trustProxy, []);
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.1, 10.1.0.0/16,fd00::/8, 192.168.0.0/255.255.0.0,loopback' }).trustProxy, [
    '10.0.0.1',
    '10.1.0.0/16',
    'fd00::/8',
    '192.168.0.0/255.255.0.0',
    'loopback',
  ]);
});

test('TRUST_PROXY: a value that is not a proxy list is refused at start, naming the variable', () => {
  // A hop count or `true` believes the header from any peer: a direct client could pick its own address.
  for (const value of ['1', '2', 'true', 'proxy.example', '10.0.0.0/33', '::/129', '10.0.0.1/8/1', '10.0.0.1,', 'fd00::/ffff::']) {
    const error = configError({ TRUST_PROXY: value });
    assert.equal(error.variable, 'TRUST_PROXY', value);
  }
});
