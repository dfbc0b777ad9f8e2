import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ERROR_CATALOGUE, ERROR_CODES } from '../src/errors.js';

const doc = readFileSync(new URL('../docs/errors.md', import.meta.url), 'utf8');
const documented = new Map(
  [...doc.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \|/gm)].map((m) => [m[1], Number(m[2])] as const),
);

test('every catalogue code is documented in docs/errors.md', () => {
  const missing = ERROR_CODES.filter((code) => !documented.has(code));
  assert.deepEqual(missing, []);
});

test('docs/errors.md lists no code the catalogue lacks', () => {
  const extra = [...documented.keys()].filter((code) => !(code in ERROR_CATALOGUE));
  assert.deepEqual(extra, []);
});

test('the documented HTTP status of each code matches the catalogue', () => {
  for (const code of ERROR_CODES) assert.equal(documented.get(code), ERROR_CATALOGUE[code].status, code);
});

test('codes are UPPER_SNAKE', () => {
  for (const code of ERROR_CODES) assert.match(code, /^[A-Z][A-Z0-9_]*$/);
});
