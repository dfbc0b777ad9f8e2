/**
 * The process's heap growth (runtime.ts's HeapGrowth): the steady growth at start, the starting growth while any
 * bulk start runs, and the steady one back when the last start ends, however it ends.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HeapGrowth } from '../src/runtime.js';

function recorded() {
  const flags: string[] = [];
  return { flags, heap: new HeapGrowth({ steady: 150, starting: 30 }, (f) => flags.push(f)) };
}

test('the steady heap growth is set at start', () => {
  const { flags, heap } = recorded();
  heap.apply();
  assert.deepEqual(flags, ['--heap-growing-percent=150']);
});

test('overlapping bulk starts set the starting growth once and the steady one after the last', async () => {
  const { flags, heap } = recorded();
  let release!: () => void;
  const first = heap.duringStart(() => new Promise<string>((r) => (release = () => r('first'))));
  const second = await heap.duringStart(async () => 'second');
  assert.equal(second, 'second');
  assert.deepEqual(flags, ['--heap-growing-percent=30']);
  release();
  assert.equal(await first, 'first');
  assert.deepEqual(flags, ['--heap-growing-percent=30', '--heap-growing-percent=150']);
});

test('a bulk start that fails gives the steady heap growth back', async () => {
  const { flags, heap } = recorded();
  await assert.rejects(heap.duringStart(async () => {
    throw new Error('refused');
  }), /refused/);
  assert.deepEqual(flags, ['--heap-growing-percent=30', '--heap-growing-percent=150']);
});
