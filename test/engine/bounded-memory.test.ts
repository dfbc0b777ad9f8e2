/** The pair-rate memory: it answers like the old map within the pair gap and holds no more than two gaps of recipients. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PairRateMemory } from '../../src/engine/pair-rate-memory.js';

function clock(start = 1_000_000) {
  const c = { now: start, read: () => c.now };
  return c;
}

test('a recipient sent to within the pair gap is remembered with its send time', () => {
  const c = clock();
  const memory = new PairRateMemory(6000, c.read);
  memory.set('905550000001', c.now);
  c.now += 5999;
  assert.equal(memory.get('905550000001'), c.now - 5999);
});

test('an entry is kept until it is at least one gap old, across a rotation', () => {
  const c = clock();
  const memory = new PairRateMemory(6000, c.read);
  c.now += 5000;
  memory.set('905550000001', c.now);
  c.now += 1500; // the generation rotates here; the entry is 1.5 s old
  memory.set('905550000002', c.now);
  assert.equal(memory.get('905550000001'), c.now - 1500);
});

test('a recipient last sent to more than two gaps ago is forgotten', () => {
  const c = clock();
  const memory = new PairRateMemory(6000, c.read);
  memory.set('905550000001', c.now);
  c.now += 12_001;
  assert.equal(memory.get('905550000001'), undefined);
  assert.equal(memory.size, 0);
});

test('a channel busy with a million recipients holds only the last two gaps of them', () => {
  const c = clock();
  const memory = new PairRateMemory(6000, c.read);
  // 1,000,000 distinct recipients at 1,000 per second (1 ms apart).
  let largest = 0;
  for (let i = 0; i < 1_000_000; i += 1) {
    c.now += 1;
    memory.set(`9055${String(i).padStart(8, '0')}`, c.now);
    largest = Math.max(largest, memory.size);
  }
  assert.ok(largest <= 12_000, `held ${largest} entries`);
  assert.equal(memory.get('905500000000'), undefined);
  assert.equal(memory.get(`9055${String(999_999).padStart(8, '0')}`), c.now);
});
