import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, loadConfig } from '../src/config.js';

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
    reconcileWindowSeconds: 900,
  });
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

test('NETWORK=cloud without GRAPH_API_URL names GRAPH_API_URL', () => {
  assert.equal(configError({ NETWORK: 'cloud', APP_SECRET: 'x', WEBHOOK_VERIFY_TOKEN: 'y' }).variable, 'GRAPH_API_URL');
});

test('NETWORK=cloud without APP_SECRET names APP_SECRET', () => {
  assert.equal(configError({ NETWORK: 'cloud', GRAPH_API_URL: 'https://g/v23.0', WEBHOOK_VERIFY_TOKEN: 'y' }).variable, 'APP_SECRET');
});

test('a META_APP_ID that is not numeric names META_APP_ID', () => {
  assert.equal(configError({ META_APP_ID: 'app' }).variable, 'META_APP_ID');
});

test('TMS_FAULT_CRASH_AFTER_SEND takes only 0 or 1', () => {
  assert.equal(configError({ TMS_FAULT_CRASH_AFTER_SEND: 'yes' }).variable, 'TMS_FAULT_CRASH_AFTER_SEND');
  assert.equal(loadConfig({ TMS_FAULT_CRASH_AFTER_SEND: '1' }).faultCrashAfterSend, true);
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
