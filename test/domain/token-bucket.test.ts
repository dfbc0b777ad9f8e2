import { test } from 'node:test';
import assert from 'node:assert/strict';
import { TokenBucket } from '../../src/engine/token-bucket.js';

test('the burst is a quarter second of the rate', () => {
  assert.equal(new TokenBucket(80).available(), 20);
  assert.equal(new TokenBucket(2).available(), 1);
});

test('a bucket made before its rate is known starts with the burst of the first rate it is given', () => {
  const bucket = new TokenBucket();
  bucket.setRate(1000);
  assert.equal(bucket.available(), 250);
});

test('a raised rate does not refill a bucket at once', async () => {
  const bucket = new TokenBucket(4); // burst 1
  await bucket.take();
  bucket.setRate(1000);
  assert.ok(bucket.available() < 250, 'the spent burst came back with the new rate');
});

test('taking more than the burst waits for the rate', async () => {
  const bucket = new TokenBucket(8); // burst 2, then one token every 125 ms
  let taken = 0;
  const all = Promise.all(Array.from({ length: 4 }, () => bucket.take().then(() => (taken += 1))));
  await new Promise((r) => setImmediate(r));
  assert.equal(taken, 2, 'only the burst is available at once');
  await all;
  assert.equal(taken, 4);
});

test('a 130429 halves the rate and drops the saved tokens', () => {
  const bucket = new TokenBucket(80);
  bucket.shrink(5000);
  assert.equal(bucket.currentRate(), 40);
  assert.equal(bucket.available(), 0);
});

test('drain releases every waiter', async () => {
  const bucket = new TokenBucket(1);
  await bucket.take();
  const waiting = bucket.take();
  bucket.drain();
  await waiting;
});
