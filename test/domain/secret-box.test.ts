import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createSecretBox, isSealed, parseSecretKey } from '../../src/domain/secret-box.js';

const KEY = randomBytes(32).toString('base64');

test('a sealed value opens to the plaintext', () => {
  const box = createSecretBox(KEY);
  assert.equal(box.open(box.seal('EAAG-token-123')), 'EAAG-token-123');
});

test('the sealed form has the enc:v1 prefix and does not contain the plaintext', () => {
  const sealed = createSecretBox(KEY).seal('EAAG-token-123');
  assert.match(sealed, /^enc:v1:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+:[A-Za-z0-9_-]+$/);
  assert.ok(!sealed.includes('EAAG-token-123'));
  assert.ok(isSealed(sealed));
});

test('sealing the same value twice gives different ciphertexts', () => {
  const box = createSecretBox(KEY);
  assert.notEqual(box.seal('same'), box.seal('same'));
});

test('a value without the prefix opens unchanged (legacy plaintext row)', () => {
  assert.equal(createSecretBox(KEY).open('EAAG-legacy'), 'EAAG-legacy');
});

test('a value sealed with another key does not open', () => {
  const sealed = createSecretBox(KEY).seal('secret');
  assert.throws(() => createSecretBox(randomBytes(32).toString('base64')).open(sealed), /cannot be opened/);
});

test('a changed ciphertext does not open', () => {
  const box = createSecretBox(KEY);
  const sealed = box.seal('secret');
  const parts = sealed.split(':');
  const body = Buffer.from(parts[4], 'base64url');
  body[0] ^= 1;
  parts[4] = body.toString('base64url');
  assert.throws(() => box.open(parts.join(':')), /cannot be opened/);
});

test('a 64-character hex key is accepted', () => {
  const box = createSecretBox(randomBytes(32).toString('hex'));
  assert.equal(box.open(box.seal('x')), 'x');
});

test('a key that is not 32 bytes is refused', () => {
  assert.equal(parseSecretKey(randomBytes(16).toString('base64')), null);
  assert.equal(parseSecretKey('not a key'), null);
  assert.throws(() => createSecretBox('short'), /32 bytes/);
});
