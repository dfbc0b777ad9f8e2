/** `tms rate-card show|set|reset`: the same rules as /api/v1/rate-card, from the shell. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCliEnv, TMS_BIN } from '../support/cli-env.js';
import { TEST_NODE_ARGS } from '../support/processes.js';

let env: Record<string, string>;
let cleanup: () => Promise<void>;
let dir: string;

before(async () => {
  ({ env, cleanup } = await openCliEnv('tms-cli-ratecard-', { migrated: true }));
  dir = tmpdir();
});
after(() => cleanup());

function tms(...args: string[]) {
  const result = spawnSync(process.execPath, [...TEST_NODE_ARGS, TMS_BIN, ...args, '--json'], { env, encoding: 'utf8', timeout: 60_000 });
  const last = result.stdout.trim().split('\n').pop() ?? '';
  return { code: result.status, json: last.startsWith('{') ? JSON.parse(last) : undefined, stderr: result.stderr };
}

function cardFile(name: string, card: unknown): string {
  const path = join(dir, `${name}-${process.pid}.json`);
  writeFileSync(path, JSON.stringify(card));
  return path;
}

test('show gives the shipped card; set replaces it; reset goes back', () => {
  const company = tms('company', 'create', '--name', 'Rates Inc').json.company_id as string;
  const shown = tms('rate-card', 'show', '--company', company).json;
  assert.equal(shown.source, 'default');
  assert.equal(shown.currency, 'USD');
  const file = cardFile('good', { currency: 'GBP', effective_date: '2026-10-01', rates: [{ market: 'GB', category: 'marketing', price: 0.0382 }] });
  const set = tms('rate-card', 'set', '--company', company, '--file', file).json;
  assert.equal(set.source, 'company');
  assert.deepEqual(set.rates, [{ market: 'GB', category: 'marketing', price: 0.0382, source: null }]);
  assert.equal(tms('rate-card', 'reset', '--company', company).json.source, 'default');
});

test('a negative price is refused naming the field, and nothing is written', () => {
  const company = tms('company', 'create', '--name', 'Rates Two').json.company_id as string;
  const file = cardFile('bad', { currency: 'USD', effective_date: '2026-10-01', rates: [{ market: 'AR', category: 'marketing', price: -1 }] });
  const res = tms('rate-card', 'set', '--company', company, '--file', file);
  assert.equal(res.code, 1);
  assert.match(res.stderr, /RATE_CARD_INVALID, field rates\[0\]\.price/);
  assert.equal(tms('rate-card', 'show', '--company', company).json.source, 'default');
});
