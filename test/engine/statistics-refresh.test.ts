/** A large bulk load asks for fresh planner statistics, one sample at a time, never one per load. */
import assert from 'node:assert/strict';
import test from 'node:test';
import { ANALYZE_AFTER_ROWS, createStatisticsRefresh } from '../../src/engine/statistics-refresh.js';

const quiet = { warn: () => undefined };

/** An analyze that finishes when the test says so. */
function controlledAnalyze() {
  const calls: Array<() => void> = [];
  return {
    calls,
    analyze: () => new Promise<void>((resolve) => calls.push(resolve)),
    finish: async (k: number) => {
      calls[k]();
      await new Promise((r) => setImmediate(r));
    },
  };
}

test('a load below the threshold samples nothing', async () => {
  const a = controlledAnalyze();
  const refresh = createStatisticsRefresh(a.analyze, quiet);
  refresh.loaded(ANALYZE_AFTER_ROWS - 1);
  await refresh.idle();
  assert.equal(a.calls.length, 0);
});

test('loads that land while a sample runs ask for exactly one more after it', async () => {
  const a = controlledAnalyze();
  const refresh = createStatisticsRefresh(a.analyze, quiet);
  refresh.loaded(ANALYZE_AFTER_ROWS);
  refresh.loaded(100_000);
  refresh.loaded(50_000);
  assert.equal(a.calls.length, 1, 'one sample at a time');
  await a.finish(0);
  assert.equal(a.calls.length, 2, 'one more for the loads that came meanwhile');
  const idle = refresh.idle();
  await a.finish(1);
  await idle;
  assert.equal(a.calls.length, 2);
});

test('a failed sample is logged and the next load samples again', async () => {
  const warnings: unknown[] = [];
  let calls = 0;
  const refresh = createStatisticsRefresh(async () => {
    calls += 1;
    if (calls === 1) throw new Error('canceling statement due to user request');
  }, { warn: (o: unknown) => void warnings.push(o) });
  refresh.loaded(ANALYZE_AFTER_ROWS);
  await refresh.idle();
  assert.equal(warnings.length, 1);
  refresh.loaded(ANALYZE_AFTER_ROWS);
  await refresh.idle();
  assert.equal(calls, 2);
});
