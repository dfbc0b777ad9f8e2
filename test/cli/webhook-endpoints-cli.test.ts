import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openCliEnv, TMS_BIN } from '../support/cli-env.js';
import { TEST_NODE_ARGS } from '../support/processes.js';

const BIN = TMS_BIN;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

before(async () => {
  ({ env, cleanup } = await openCliEnv('tms-cli-wh-', { migrated: true }));
});
after(() => cleanup());

function tms(args: string[], input?: string) {
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, ...args], { env, encoding: 'utf8', timeout: 240_000, input });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

function tmsJson(args: string[], input?: string) {
  const result = tms([...args, '--json'], input);
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout.trim().split('\n').pop()!);
}

test('webhook-endpoint add prints the secret once; list never shows it; remove deletes it', () => {
  const company = tmsJson(['company', 'create', '--name', 'Hooks Ltd']);
  const added = tmsJson(['webhook-endpoint', 'add', '--company', company.company_id, '--url', 'https://hooks.example.com/tms', '--events', 'message.status_changed']);
  assert.match(added.secret, /^whsec_/);
  assert.deepEqual(added.events, ['message.status_changed']);
  const listed = tms(['webhook-endpoint', 'list', '--company', company.company_id, '--json']);
  assert.equal(listed.code, 0, listed.stderr);
  assert.deepEqual(JSON.parse(listed.stdout).items.map((i: { id: string; enabled: boolean }) => [i.id, i.enabled]), [[added.id, true]]);
  assert.ok(!listed.stdout.includes(added.secret));
  assert.deepEqual(tmsJson(['webhook-endpoint', 'remove', '--company', company.company_id, '--id', added.id]), { removed: true });
  assert.deepEqual(tmsJson(['webhook-endpoint', 'list', '--company', company.company_id]).items, []);
});

test("webhook-endpoint takes the company's own secret from stdin, refuses a bad URL, and another company's id is not found", () => {
  const a = tmsJson(['company', 'create', '--name', 'A']);
  const b = tmsJson(['company', 'create', '--name', 'B']);
  const added = tmsJson(['webhook-endpoint', 'add', '--company', a.company_id, '--url', 'http://127.0.0.1:9/x', '--secret-stdin'], 'my-own-secret-0123456789\n');
  assert.equal(added.secret, 'my-own-secret-0123456789');
  const bad = tms(['webhook-endpoint', 'add', '--company', a.company_id, '--url', 'not a url']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /url/);
  const other = tms(['webhook-endpoint', 'remove', '--company', b.company_id, '--id', added.id]);
  assert.equal(other.code, 1);
  assert.match(other.stderr, /not found/i);
  assert.equal(tmsJson(['webhook-endpoint', 'list', '--company', a.company_id]).items.length, 1);
});
