/**
 * `npm run test:pg` leaves out the folders whose tests never open a database (pure rules, the console's helpers,
 * the network adapter against the simulator) and the browser suite (it tests the console, not the database): run
 * twice they would only repeat themselves. This pins that those folders stay database-free, so a test that starts
 * using a database there cannot quietly run on PGlite alone.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;
const pgScript = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['test:pg'];
const leftOut = [...pgScript.matchAll(/--exclude=(\S+)/g)].map((m) => m[1]).filter((dir) => dir !== 'test/browser');
/** What a test imports to get a database or a service with one. */
const DATABASE_IMPORT = /from '[./]*(support\/(db|harness|crash-world|cli-env|processes)|[./]*src\/(store|app|runtime|admin))[^']*'/;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

test('the folders npm run test:pg leaves out hold tests that open no database', () => {
  assert.deepEqual(leftOut, ['test/domain', 'test/web', 'test/network']);
  const offenders = leftOut.flatMap((dir) => files(join(ROOT, dir))).filter((file) => DATABASE_IMPORT.test(readFileSync(file, 'utf8')));
  assert.deepEqual(offenders, []);
});

test('the database check recognises an import of the test database or the store', () => {
  assert.ok(DATABASE_IMPORT.test("import { testDb } from '../support/db.js';"));
  assert.ok(DATABASE_IMPORT.test("import { startHarness } from '../support/harness.js';"));
  assert.ok(DATABASE_IMPORT.test("import { insertChannel } from '../../src/store/channels.js';"));
  assert.ok(!DATABASE_IMPORT.test("import { normalizePhone } from '../../src/domain/phone.js';"));
});
