/** The hand-over of checked lines from a start's checking pass to its storing pass. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ReadyHandOff } from '../../src/engine/bulk-ready-lines.js';

async function drain(handOff: ReadyHandOff): Promise<string[]> {
  const lines: string[] = [];
  for (let line = await handOff.next(); line !== undefined; line = handOff.take() ?? (await handOff.next())) lines.push(line);
  return lines;
}

test('lines handed over arrive in order, and the taker ends after the last one', async () => {
  const handOff = new ReadyHandOff();
  const taken = drain(handOff);
  for (let k = 0; k < 5; k += 1) {
    handOff.add(`a${k}`);
    handOff.add(`b${k}`);
    await handOff.flush();
  }
  handOff.add('last');
  handOff.end();
  assert.deepEqual(await taken, [0, 1, 2, 3, 4].flatMap((k) => [`a${k}`, `b${k}`]).concat('last'));
});

test('a line added but not flushed is not taken', () => {
  const handOff = new ReadyHandOff();
  handOff.add('x');
  assert.equal(handOff.take(), null);
});

test('the adding side waits while too many lines wait to be taken, and goes on once they are', async () => {
  const handOff = new ReadyHandOff();
  for (let k = 0; k < 25_000; k += 1) handOff.add(String(k));
  let flushed = false;
  const flush = handOff.flush().then(() => (flushed = true));
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(flushed, false);
  assert.equal(handOff.take(), '0');
  await flush;
  assert.equal(flushed, true);
});

test('a failure of the storing side reaches the adding side at its next flush', async () => {
  const handOff = new ReadyHandOff();
  handOff.fail(new Error('copy failed'));
  handOff.add('x');
  await assert.rejects(handOff.flush(), /copy failed/);
});

test('a failure reaches an adding side that is already waiting for room', async () => {
  const handOff = new ReadyHandOff();
  for (let k = 0; k < 25_000; k += 1) handOff.add(String(k));
  const flush = handOff.flush();
  handOff.fail(new Error('copy failed'));
  await assert.rejects(flush, /copy failed/);
});
