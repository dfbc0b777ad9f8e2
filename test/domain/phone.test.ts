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

test('a number already in E.164 (or its digits) is taken as it is, the same as through every rule', () => {
  assert.deepEqual(normalizePhone('+905551234567'), { ok: true, e164: '+905551234567' });
  for (const input of ['12345678', '123456789012345', '+12345678', '1234567', '+1234567', '0123456789', '+0123456789', '+123456789012345', '1234567890123456', '++12345678', '12345678\n', ' 12345678']) {
    const rules = (() => {
      const compact = input.trim().replace(/[\s().-]/g, '');
      const withPlus = compact.startsWith('00') ? '+' + compact.slice(2) : compact.startsWith('+') ? compact : '+' + compact;
      const digits = withPlus.slice(1);
      return /^\+\d+$/.test(withPlus) && !digits.startsWith('0') && digits.length >= 8 && digits.length <= 15 ? withPlus : null;
    })();
    const got = normalizePhone(input);
    assert.equal(got.ok ? got.e164 : null, rules, JSON.stringify(input));
  }
});
