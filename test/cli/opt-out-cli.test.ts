/** `tms opt-out add|remove|list`: the same rules as the /api/v1/opt-outs routes, from the shell. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openCliEnv, TMS_BIN } from '../support/cli-env.js';
import { TEST_NODE_ARGS } from '../support/processes.js';

const BIN = TMS_BIN;
let env: Record<string, string>;
let cleanup: () => Promise<void>;

before(async () => {
  ({ env, cleanup } = await openCliEnv('tms-cli-optout-', { migrated: true }));
});
after(() => cleanup());

function tms(...args: string[]) {
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, BIN, ...args, '--json'], { env, encoding: 'utf8', timeout: 60_000 });
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return { code: result.status, json: last.startsWith('{') ? JSON.parse(last) : undefined, stderr: result.stderr };
}

test('opt-out add normalises the number, list shows it with its source, remove takes it off (a second remove exits 1)', () => {
  const company = tms('company', 'create', '--name', 'Optout Inc').json.company_id as string;
  assert.deepEqual(tms('opt-out', 'add', '--company', company, '--phone-number', '0090 555 900 0013', '--reason', 'called in').json, { phone_number: '+905559000013', user_id: null, created: true });
  const list = tms('opt-out', 'list', '--company', company, '--search', '9000013').json;
  assert.equal(list.total, 1);
  assert.equal(list.items[0].source, 'api');
  assert.equal(list.items[0].reason, 'called in');
  assert.deepEqual(tms('opt-out', 'remove', '--company', company, '--phone-number', '+905559000013').json, { removed: true });
  const again = tms('opt-out', 'remove', '--company', company, '--phone-number', '+905559000013');
  assert.equal(again.code, 1);
  assert.match(again.stderr, /not on the opt-out list/);
});

test('opt-out add, list and remove take a BSUID; a malformed one exits 1 naming user_id and adds nothing', () => {
  const company = tms('company', 'create', '--name', 'Opt-out CLI BSUID').json.company_id;
  assert.deepEqual(tms('opt-out', 'add', '--company', company, '--user-id', 'TR.13491208655302741918').json, { phone_number: null, user_id: 'TR.13491208655302741918', created: true });
  const list = tms('opt-out', 'list', '--company', company, '--user-id', '1349120').json;
  assert.equal(list.total, 1);
  assert.equal(list.items[0].user_id, 'TR.13491208655302741918');
  const bad = tms('opt-out', 'add', '--company', company, '--user-id', 'tr.1349');
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /user_id/);
  assert.equal(tms('opt-out', 'list', '--company', company).json.total, 1);
  assert.deepEqual(tms('opt-out', 'remove', '--company', company, '--user-id', 'TR.13491208655302741918').json, { removed: true });
  assert.equal(tms('opt-out', 'list', '--company', company).json.total, 0);
});
