import { test } from 'node:test';
import assert from 'node:assert/strict';
import { periodBuckets, stageTimes, timelineOf, timelineStep } from '../../src/domain/send-stats.js';

const row = (handed: number | null, sent: number | null, delivered: number | null, read: number | null, failed: number | null = null) => ({ handed, sent, delivered, read, failed });

test('a later stage implies the earlier ones when their events never came', () => {
  assert.deepEqual(stageTimes(row(null, null, null, 5000)), { handed: 5000, sent: 5000, delivered: 5000, read: 5000, failed: null });
  assert.deepEqual(stageTimes(row(1000, 2000, null, null, 3000)), { handed: 1000, sent: 2000, delivered: null, read: null, failed: 3000 });
});

test('the timeline is cumulative, starts at zero and ends with every row counted once per stage', () => {
  const t0 = Date.UTC(2026, 10, 24, 9);
  const rows = [row(t0, t0 + 1000, t0 + 2000, t0 + 9000), row(t0 + 500, t0 + 1500, null, null), row(t0 + 700, null, null, null, t0 + 4000)];
  const { bucketSeconds, points } = timelineOf(rows);
  assert.equal(bucketSeconds, 1);
  assert.deepEqual(points[0], { at: t0, handed: 0, sent: 0, delivered: 0, read: 0, failed: 0 });
  assert.deepEqual({ ...points.at(-1)!, at: 0 }, { at: 0, handed: 3, sent: 2, delivered: 1, read: 1, failed: 1 });
  for (let i = 1; i < points.length; i++) {
    for (const k of ['handed', 'sent', 'delivered', 'read', 'failed'] as const) assert.ok(points[i][k] >= points[i - 1][k]);
  }
});

test('a long send is cut into at most 120 buckets of a readable width', () => {
  const t0 = Date.UTC(2026, 10, 24);
  const { bucketSeconds, points } = timelineOf([row(t0, null, null, null), row(t0 + 5 * 3600_000, null, null, null)]);
  assert.equal(bucketSeconds, 300);
  assert.ok(points.length <= 122);
});

test('a sampled row stands for its weight', () => {
  const { points } = timelineOf([row(1000, null, null, null), row(2000, null, null, null)], 250);
  assert.equal(points.at(-1)!.handed, 500);
});

test('no event yet: no points', () => {
  assert.deepEqual(timelineOf([row(null, null, null, null)]), { bucketSeconds: 0, points: [] });
});

test('a timeline reads at most 2,000 rows: every row up to 2,000, every k-th beyond', () => {
  assert.equal(timelineStep(1500), 1);
  assert.equal(timelineStep(2000), 1);
  assert.equal(timelineStep(2001), 2);
  assert.equal(timelineStep(1_000_000), 500);
  assert.ok(1_000_000 / timelineStep(1_000_000) <= 2000);
});

test('periods are cut into whole hours or UTC days ending now', () => {
  const now = Date.UTC(2026, 10, 24, 9, 30);
  const day = periodBuckets('24h', now);
  assert.equal(day.bucketSeconds, 3600);
  assert.equal(day.starts.length, 25);
  assert.equal(day.starts[0], Date.UTC(2026, 10, 23, 9));
  assert.equal(day.starts.at(-1), Date.UTC(2026, 10, 24, 9));
  const month = periodBuckets('30d', now);
  assert.equal(month.starts.length, 31);
  assert.equal(month.starts[0], Date.UTC(2026, 9, 25));
});
