/** Ids in the shape of the interface's `_id` values (domain/ids.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { newId, newIds } from '../../src/domain/ids.js';

test('newIds makes distinct 24-hex ids that start with the seconds, like newId', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const ids = newIds(1000, now);
  assert.equal(ids.length, 1000);
  assert.equal(new Set(ids).size, 1000);
  const prefix = newId(now).slice(0, 8);
  for (const id of ids) assert.match(id, new RegExp(`^${prefix}[0-9a-f]{16}$`));
});

test('the ids one process makes in a second increase, so a large start appends to the indexes on id', () => {
  const now = Date.UTC(2026, 10, 24, 12, 0, 0);
  const ids = [...newIds(5000, now), ...newIds(5000, now), newId(now)];
  const sorted = [...ids].sort();
  // Only a wrap of the 3-byte counter (once per 16M ids) may break the order, at one place at most.
  const breaks = ids.filter((id, i) => i > 0 && id < ids[i - 1]).length;
  assert.ok(breaks <= 1, `${breaks} places out of order`);
  assert.equal(new Set(sorted).size, ids.length);
});
