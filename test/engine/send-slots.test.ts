import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SendSlots } from '../../src/engine/send-slots.js';

const settled = () => new Promise((resolve) => setImmediate(resolve));

test('a channel takes the slots it asks for while they are free', async () => {
  const slots = new SendSlots(10);
  assert.equal(await slots.take(4), 4);
  assert.equal(await slots.take(6), 6);
  assert.equal(slots.free, 0);
});

test('a channel waits until all it asks for is free, and slots given back reach it', async () => {
  const slots = new SendSlots(4);
  assert.equal(await slots.take(4), 4);
  let granted: number | undefined;
  void slots.take(3).then((n) => (granted = n));
  slots.give(2);
  await settled();
  assert.equal(granted, undefined, 'two free slots do not make three');
  slots.give(1);
  await settled();
  assert.equal(granted, 3);
});

test('a channel that asks later for less does not overtake one waiting for more', async () => {
  const slots = new SendSlots(8);
  assert.equal(await slots.take(8), 8);
  const order: string[] = [];
  void slots.take(6).then(() => order.push('big'));
  void slots.take(1).then(() => order.push('small'));
  slots.give(2);
  await settled();
  assert.deepEqual(order, [], 'the small request waits behind the big one');
  slots.give(4);
  await settled();
  assert.deepEqual(order, ['big']);
  slots.give(2);
  await settled();
  assert.deepEqual(order, ['big', 'small']);
});

test('asking for more than the whole room takes all of it, not a wait for ever', async () => {
  const slots = new SendSlots(3);
  assert.equal(await slots.take(64), 3);
});
