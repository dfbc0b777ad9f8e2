/**
 * A text[] parameter written by JSON.stringify reads back as the same elements, on either database: plain ids and
 * wamids as the literal, anything JSON would escape (quotes, backslashes, control characters, lone surrogates) as the
 * array the driver escapes itself.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { textArray } from '../../src/store/text-array.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
before(async () => {
  store = await createTestStore();
});
after(() => store.cleanup());

const CASES: string[][] = [
  ['wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBJDNUE2RjQ1MzZBOEJFNjQwNkYA', '6740f1a2c3d4e5f60123aa55'],
  ['NULL', '', ' spaced ', 'a,b', '{braces}', "it's", 'ünïcødé 😀', 'same', 'same'],
  ['a"b', 'back\\slash', 'tab\there', 'new\nline', '\u0001', 'lone \ud800 surrogate'],
  [],
];

test('plain strings go as one literal; strings JSON escapes go as the array', () => {
  assert.equal(textArray(['a', 'b c', 'NULL']), '{"a","b c","NULL"}');
  assert.equal(textArray([]), '{}');
  const tricky = ['a"b'];
  assert.equal(textArray(tricky), tricky);
});

/** The string with each lone surrogate as U+FFFD (String.prototype.toWellFormed, ES2024). */
const wellFormed = (v: string): string => (v as string & { toWellFormed(): string }).toWellFormed();

test('every element reads back as given, in order', async () => {
  for (const values of CASES) {
    const rows = (await sql<{ v: string; n: string }>`
      select v, n::text as n from unnest(${textArray(values)}::text[]) with ordinality as u(v, n) order by n`.execute(store.db)).rows;
    // A lone surrogate cannot be stored in UTF-8: it is written as U+FFFD, as the driver always wrote it.
    assert.deepEqual(rows.map((r) => r.v), values.map(wellFormed), JSON.stringify(values));
  }
});
