import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_SCHEDULE_AHEAD_SECONDS, PAUSABLE_STATUSES, STOPPABLE_STATUSES, errorCodeOf, parseScheduledAt } from '../../src/domain/bulk-send-states.js';
import { sourcesOf } from '../../src/domain/message-states.js';

const now = new Date('2026-11-23T12:00:00Z');

test('scheduled_at takes an ISO 8601 time with an offset in the future', () => {
  const r = parseScheduledAt('2026-11-23T15:30:00+03:00', now);
  assert.ok(r.ok);
  assert.equal(r.ok && r.at.toISOString(), '2026-11-23T12:30:00.000Z');
  assert.ok(parseScheduledAt('2026-11-23T12:00:01.5Z', now).ok);
});

test('scheduled_at without an offset, in the past, now, or beyond 90 days is refused with a reason', () => {
  for (const bad of ['2026-11-24T10:00:00', '2026-11-23', 'tomorrow', 1795000000, null, '2026-11-23T12:00:00Z', '2026-11-23T11:59:59Z', '2026-02-30T10:00:00Z', '2026-12-31T25:00:00Z', '2027-02-29T10:00:00Z', '2026-12-32T10:00:00Z']) {
    const r = parseScheduledAt(bad, now);
    assert.equal(r.ok, false, String(bad));
    assert.ok(!r.ok && r.reason.startsWith('scheduled_at'), String(bad));
  }
  assert.equal(parseScheduledAt(new Date(now.getTime() + MAX_SCHEDULE_AHEAD_SECONDS * 1000).toISOString(), now).ok, true);
  assert.equal(parseScheduledAt(new Date(now.getTime() + MAX_SCHEDULE_AHEAD_SECONDS * 1000 + 1000).toISOString(), now).ok, false);
});

test('a user pause moves only rows not handed off back to NONE (derived from the transition table)', () => {
  assert.deepEqual(sourcesOf('NONE', 'waiting'), ['QUEUED']);
  assert.deepEqual(sourcesOf('NONE', 'leased'), ['AGENDA', 'OPT_IN_SUCCESS']);
  assert.deepEqual(sourcesOf('NONE', 'with_network'), []);
});

test('pause takes running sends only; stop takes every unfinished status', () => {
  assert.deepEqual([...PAUSABLE_STATUSES].sort(), ['PAUSED', 'RUNNING']);
  for (const s of ['SCHEDULED', 'PAUSED_BY_USER', 'PENDING', 'RUNNING', 'PAUSED']) assert.ok(STOPPABLE_STATUSES.includes(s as never), s);
  assert.ok(!STOPPABLE_STATUSES.includes('COMPLETED' as never));
});

test("a failed row's network error code is the number its error_message_detail starts with", () => {
  assert.equal(errorCodeOf('131049: In order to maintain a healthy ecosystem engagement'), 131049);
  assert.equal(errorCodeOf('131000: Something went wrong (after 1 attempts)'), 131000);
  assert.equal(errorCodeOf('No status event within 86400 s'), null);
  assert.equal(errorCodeOf(null), null);
});
