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
