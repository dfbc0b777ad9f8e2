import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonNestsDeeperThan } from '../../src/domain/json-depth.js';

test('nesting up to the limit passes, one level more does not', () => {
  assert.equal(jsonNestsDeeperThan('[[[1]]]', 3), false);
  assert.equal(jsonNestsDeeperThan('[[[[1]]]]', 3), true);
  assert.equal(jsonNestsDeeperThan('{"a":{"b":[{}]}}', 4), false);
});

test('brackets inside strings, escaped quotes included, do not count', () => {
  assert.equal(jsonNestsDeeperThan('{"a":"[[[[[[\\"[[[[{{{{"}', 1), false);
});

test('siblings do not add up: depth is the deepest path', () => {
  assert.equal(jsonNestsDeeperThan(`[${'[1],'.repeat(1000)}[2]]`, 2), false);
});

test('a body nested 100,000 deep is measured without overflowing the stack', () => {
  assert.equal(jsonNestsDeeperThan('['.repeat(100_000) + ']'.repeat(100_000)), true);
});

test('a quote after an even run of backslashes ends its string; after an odd run it does not', () => {
  // "\\" is a string holding one backslash: the bracket after it counts.
  assert.equal(jsonNestsDeeperThan('["\\\\",[[1]]]', 2), true);
  assert.equal(jsonNestsDeeperThan('["\\\\\\"",[1]]', 1), true);
  // "\\\"[[[" is one string: its brackets do not count.
  assert.equal(jsonNestsDeeperThan('["\\\\\\"[[["]', 1), false);
  // An unterminated string ends the text (JSON.parse refuses it after).
  assert.equal(jsonNestsDeeperThan('["[[[[', 1), false);
});
