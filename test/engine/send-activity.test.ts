/** Whether this process is sending: a sustained stream of hand-offs, which ends a gap after its last hand-off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SendActivity } from '../../src/engine/send-activity.js';

function clocked(gapMs: number) {
  let now = 10_000;
  const activity = new SendActivity(gapMs, () => now);
  return { activity, at: (ms: number) => void (now = ms) };
}

test('no hand-off, or a lone one, is not sending', () => {
  const { activity, at } = clocked(500);
  assert.equal(activity.until(), -Infinity);
  at(11_000);
  activity.handedOff();
  assert.equal(activity.until(), -Infinity);
});

test('hand-offs at most the gap apart for at least the gap are sending, until the gap after the last one', () => {
  const { activity, at } = clocked(500);
  for (let ms = 11_000; ms <= 11_600; ms += 200) {
    at(ms);
    activity.handedOff();
  }
  assert.equal(activity.until(), 12_100);
  at(12_099);
  assert.equal(activity.until(), 12_100);
  at(12_100);
  assert.equal(activity.until(), -Infinity);
});

test('a hand-off after a longer gap starts a new stream', () => {
  const { activity, at } = clocked(500);
  for (const ms of [11_000, 11_400, 11_800]) {
    at(ms);
    activity.handedOff();
  }
  at(13_000);
  activity.handedOff();
  assert.equal(activity.until(), -Infinity);
});
