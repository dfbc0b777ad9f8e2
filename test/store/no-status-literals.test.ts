/**
 * The store names no message or bulk-send status by hand: every statement takes its states from the domain's
 * declarations (message moves, the bulk-send transition table), so changing a table changes the SQL. Migrations
 * are history and keep their literals.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BULK_SEND_STATUSES } from '../../src/domain/bulk-send-states.js';
import { MESSAGE_STATUSES } from '../../src/domain/message-states.js';

const STORE = new URL('../../src/store/', import.meta.url).pathname;
const STATUSES = new Set<string>([...MESSAGE_STATUSES, ...BULK_SEND_STATUSES]);

/** The quoted status names in TypeScript source (comments left out), with their line numbers. */
function statusLiterals(source: string): Array<{ line: number; literal: string }> {
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .replace(/(^|\s)\/\/.*$/gm, '$1');
  const found: Array<{ line: number; literal: string }> = [];
  code.split('\n').forEach((text, i) => {
    for (const m of text.matchAll(/(['"`])([A-Z_]+)\1/g)) if (STATUSES.has(m[2])) found.push({ line: i + 1, literal: m[0] });
  });
  return found;
}

/** Every .ts file under src/store except migrations/. */
function storeFiles(dir = STORE): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'migrations' ? [] : storeFiles(join(dir, e.name));
    return e.name.endsWith('.ts') ? [join(dir, e.name)] : [];
  });
}

test('no statement of the store names a message or bulk-send status by hand', () => {
  const files = storeFiles();
  assert.ok(files.length > 10, 'the store files were found');
  const offences = files.flatMap((f) => statusLiterals(readFileSync(f, 'utf8')).map((o) => `${f.slice(STORE.length)}:${o.line} ${o.literal}`));
  assert.deepEqual(offences, []);
});

test('the check finds a status literal in SQL and in code, and not in a comment', () => {
  const sample = [
    "const a = sql`update messages set status = 'QUEUED'`;",
    "if (row.status === 'PAUSED_BY_USER') return;",
    "// a comment may say 'QUEUED'",
    "/** or 'RUNNING' here */",
    "const ok = sql`select ${state(QUEUED_STATUS)}`;",
  ].join('\n');
  assert.deepEqual(statusLiterals(sample), [{ line: 1, literal: "'QUEUED'" }, { line: 2, literal: "'PAUSED_BY_USER'" }]);
});
