import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCliEnv, TMS_BIN } from '../support/cli-env.js';
import { TEST_NODE_ARGS } from '../support/processes.js';
import { onPostgres } from '../support/db.js';

const BIN = TMS_BIN;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

before(async () => {
  ({ env, cleanup } = await openCliEnv('tms-cli-'));
});
after(() => cleanup());

function tms(...args: string[]) {
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, ...args], { env, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tmsJson(...args: string[]) {
  const result = tms(...args, '--json');
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

test('migrate applies the migrations once, then nothing', () => {
  const first = tmsJson('migrate');
  assert.ok(first.applied.includes('0001_foundation'));
  assert.deepEqual(tmsJson('migrate').applied, []);
});

test('company create prints an id and a token shown once', () => {
  const made = tmsJson('company', 'create', '--name', 'Acme');
  assert.match(made.company_id, /^[0-9a-f]{24}$/);
  assert.match(made.token, /^tms_[A-Za-z0-9_-]{43}$/);
});

test('token create and revoke', () => {
  const company = tmsJson('company', 'create', '--name', 'Tokens Inc');
  const token = tmsJson('token', 'create', '--company', company.company_id, '--name', 'ci');
  assert.notEqual(token.token, company.token);
  assert.deepEqual(tmsJson('token', 'revoke', '--id', token.token_id), { revoked: true });
  const again = tms('token', 'revoke', '--id', token.token_id, '--json');
  assert.equal(again.code, 1);
  assert.deepEqual(JSON.parse(again.stdout), { revoked: false });
});

test('channel add and list; the access token is never printed', () => {
  const company = tmsJson('company', 'create', '--name', 'Channels Ltd');
  tmsJson('channel', 'add', '--company', company.company_id, '--phone-number-id', '555000111', '--waba-id', '444000', '--access-token', 'EAAG-secret');
  const listed = tms('channel', 'list', '--company', company.company_id, '--json');
  assert.equal(listed.code, 0, listed.stderr);
  const items = JSON.parse(listed.stdout).items;
  assert.deepEqual(items.map((i: { channel_id: string }) => i.channel_id), ['555000111']);
  assert.equal(items[0].whatsapp_account_id, '444000');
  assert.ok(!listed.stdout.includes('EAAG-secret'));
});

test('channel add reads the access token from stdin and never prints it', () => {
  const company = tmsJson('company', 'create', '--name', 'Stdin Ltd');
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, 'channel', 'add', '--company', company.company_id, '--phone-number-id', '555000335', '--waba-id', '444000', '--access-token-stdin', '--json'], {
    env, encoding: 'utf8', timeout: 60_000, input: 'EAAG-from-stdin\n',
  });
  assert.equal(result.status, 0, result.stderr);
  assert.ok(!result.stdout.includes('EAAG-from-stdin') && !result.stderr.includes('EAAG-from-stdin'));
  const items = JSON.parse(tms('channel', 'list', '--company', company.company_id, '--json').stdout).items;
  assert.deepEqual(items.map((i: { channel_id: string; messaging_limit_tier: string }) => [i.channel_id, i.messaging_limit_tier]), [['555000335', 'UNKNOWN']]);
});

test('channel add without a token anywhere is a usage error', () => {
  const company = tmsJson('company', 'create', '--name', 'No Token');
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, 'channel', 'add', '--company', company.company_id, '--phone-number-id', '555000444', '--waba-id', '1'], {
    env: { ...env, TMS_CHANNEL_ACCESS_TOKEN: '' }, encoding: 'utf8', timeout: 60_000,
  });
  assert.notEqual(result.status, 0);
  assert.match(result.stderr, /access-token-stdin/);
});

test('channel add refuses a phone number id that is taken', () => {
  const company = tmsJson('company', 'create', '--name', 'Dupes');
  const args = ['channel', 'add', '--company', company.company_id, '--phone-number-id', '555000222', '--waba-id', '1', '--access-token', 't'];
  assert.equal(tms(...args).code, 0);
  const second = tms(...args);
  assert.equal(second.code, 1);
  assert.match(second.stderr, /already exists/);
});

function tmsInput(input: string, extraEnv: Record<string, string>, ...args: string[]) {
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, ...args, '--json'], { env: { ...env, ...extraEnv }, input, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

test('channel update rotates the token from stdin or TMS_CHANNEL_ACCESS_TOKEN and sets the throughput', () => {
  const company = tmsJson('company', 'create', '--name', 'Rotate Co');
  const id = ['--company', company.company_id, '--phone-number-id', '555000333'];
  tmsJson('channel', 'add', ...id, '--waba-id', '444000', '--access-token', 'EAAG-old');
  const fromStdin = tmsInput('EAAG-new-from-stdin\n', {}, 'channel', 'update', ...id, '--access-token-stdin');
  assert.equal(fromStdin.code, 0, fromStdin.stderr);
  assert.deepEqual(JSON.parse(fromStdin.stdout), { channel_id: '555000333', token_rotated: true });
  assert.ok(!fromStdin.stdout.includes('EAAG-new'));
  const fromEnv = tmsInput('', { TMS_CHANNEL_ACCESS_TOKEN: 'EAAG-new-from-env' }, 'channel', 'update', ...id, '--throughput', 'auto');
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
  assert.deepEqual(JSON.parse(fromEnv.stdout), { channel_id: '555000333', token_rotated: true, throughput: 'auto' });
});

test('channel update --marketing-messages on|off sets the Marketing Messages setting, shown by channel list', () => {
  const company = tmsJson('company', 'create', '--name', 'Marketing Co');
  const id = ['--company', company.company_id, '--phone-number-id', '555000444'];
  tmsJson('channel', 'add', ...id, '--waba-id', '444001', '--access-token', 'EAAG-x');
  assert.deepEqual(tmsJson('channel', 'update', ...id, '--marketing-messages', 'on').marketing_messages, { enabled: true, disabled_reason: null, disabled_at: null });
  assert.equal(tmsJson('channel', 'list', '--company', company.company_id).items[0].marketing_messages, 'on');
  assert.equal(tms('channel', 'update', ...id, '--marketing-messages', 'maybe').code, 2);
});

test('channel update refuses a token on the command line (exit 2)', () => {
  const result = tms('channel', 'update', '--company', 'x', '--phone-number-id', '1', '--access-token', 'EAAG-visible');
  assert.equal(result.code, 2);
  assert.match(result.stderr, /never from the command line/);
});

test('a missing required option is a usage error (exit 2)', () => {
  const result = tms('channel', 'add', '--company', 'x');
  assert.equal(result.code, 2);
  assert.match(result.stderr, /--phone-number-id is required/);
});

test('an unknown command is a usage error', () => {
  assert.equal(tms('fly').code, 2);
});

test('a bad variable is named and nothing starts', () => {
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, 'migrate'], { env: { ...env, NETWORK: 'smoke-signals' }, encoding: 'utf8' });
  assert.equal(result.status, 1);
  assert.match(result.stderr, /NETWORK: must be one of simulator, cloud/);
});

// PGlite only: PostgreSQL has no data directory to hold.
if (!onPostgres) test('with PGlite, an admin command refuses a data directory a live process holds', async () => {
  const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)']);
  try {
    writeFileSync(join(env.DATA_DIR, 'tms.pid'), String(holder.pid));
    const result = tms('migrate');
    assert.equal(result.code, 1);
    assert.match(result.stderr, /in use by process/);
  } finally {
    holder.kill();
    rmSync(join(env.DATA_DIR, 'tms.pid'), { force: true });
  }
});
