import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizePhone } from '../../src/domain/phone.js';

test('digits with a country code become E.164', () => {
  assert.deepEqual(normalizePhone('905551234567'), { ok: true, e164: '+905551234567' });
});

test('spaces, dashes, dots and parentheses are dropped', () => {
  assert.deepEqual(normalizePhone('+1 (650) 555-12.34'), { ok: true, e164: '+16505551234' });
});

test('a leading 00 is the international prefix', () => {
  assert.deepEqual(normalizePhone('0044 20 7946 0958'), { ok: true, e164: '+442079460958' });
});

test('letters are refused', () => {
  assert.equal(normalizePhone('90555abc4567').ok, false);
});

test('too short and too long are refused', () => {
  assert.equal(normalizePhone('1234567').ok, false);
  assert.equal(normalizePhone('1234567890123456').ok, false);
});

test('a country code cannot start with 0', () => {
  assert.equal(normalizePhone('05551234567').ok, false);
});
