/** The number set that drops a bulk send's duplicate phone numbers (domain/number-set.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NumberSet } from '../../src/domain/number-set.js';

test('a number is added once: the second add of it answers false', () => {
  const set = new NumberSet(4);
  assert.equal(set.add(905551234567), true);
  assert.equal(set.add(905551234568), true);
  assert.equal(set.add(905551234567), false);
  assert.equal(set.size, 2);
  assert.equal(set.has(905551234567), true);
  assert.equal(set.has(905551234569), false);
});

test('numbers that differ only above 32 bits, or only below, are told apart', () => {
  const set = new NumberSet(8);
  const base = 2 ** 40;
  for (const n of [base + 7, 2 * base + 7, 3 * base + 7, 7, 8, 999_999_999_999_999]) assert.equal(set.add(n), true, String(n));
  for (const n of [base + 7, 2 * base + 7, 3 * base + 7, 7, 8, 999_999_999_999_999]) assert.equal(set.add(n), false, String(n));
  assert.equal(set.size, 6);
});

test('a set sized for fewer numbers grows and still finds every one', () => {
  const set = new NumberSet(10);
  for (let i = 0; i < 50_000; i += 1) assert.equal(set.add(905_500_000_000 + i * 7), true);
  for (let i = 0; i < 50_000; i += 1) assert.equal(set.has(905_500_000_000 + i * 7), true);
  assert.equal(set.has(905_500_000_001), false);
  assert.equal(set.size, 50_000);
});

test('a million numbers agree with a JavaScript Set, duplicates included', () => {
  const set = new NumberSet(1_000_000);
  const reference = new Set<number>();
  let seed = 12345;
  for (let i = 0; i < 1_000_000; i += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    const n = 90_000_000_000 + (seed % 700_000) * 1_000 + (i % 3); // many repeats
    assert.equal(set.add(n), !reference.has(n));
    reference.add(n);
  }
  assert.equal(set.size, reference.size);
});

test('zero, negative, fractional and unsafe numbers are refused', () => {
  const set = new NumberSet(4);
  for (const n of [0, -1, 1.5, 2 ** 53, Number.NaN]) assert.throws(() => set.add(n), RangeError);
});
