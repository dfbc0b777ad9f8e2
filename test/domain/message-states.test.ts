import { test } from 'node:test';
import assert from 'node:assert/strict';
import { canMove, counterDelta, countersOf, EVENT_STATUS, MESSAGE_STATUSES, statusAfterEvent, TRANSITIONS } from '../../src/domain/message-states.js';

test('every status has a row in the transition table', () => {
  assert.deepEqual(Object.keys(TRANSITIONS).sort(), [...MESSAGE_STATUSES].sort());
});

test('the dispatcher moves of DESIGN §6 are allowed and nothing leaves a final failure', () => {
  assert.ok(canMove('NONE', 'QUEUED'));
  assert.ok(canMove('QUEUED', 'AGENDA'));
  assert.ok(canMove('AGENDA', 'OPT_IN_FAILED_INVALID_NUMBER'));
  assert.ok(canMove('OPT_IN_SUCCESS', 'QUEUED'));
  assert.ok(!canMove('SENT_TO_BACKEND', 'QUEUED'));
  for (const final of ['CANCELLED', 'OPT_IN_FAILED', 'SENT_TO_BACKEND_FAILED', 'BACKEND_FAILED', 'BACKEND_DELETED'] as const) {
    assert.deepEqual(TRANSITIONS[final], [], final);
  }
});

test('network events map to the interface states (sent → DELIVERED, delivered → SENT)', () => {
  assert.equal(EVENT_STATUS.sent, 'BACKEND_DELIVERED');
  assert.equal(EVENT_STATUS.delivered, 'BACKEND_SENT');
  assert.equal(EVENT_STATUS.read, 'BACKEND_SEEN');
  assert.equal(EVENT_STATUS.played, 'BACKEND_SEEN');
  assert.equal(EVENT_STATUS.failed, 'BACKEND_FAILED');
});

test('an event never lowers the rank', () => {
  assert.equal(statusAfterEvent('BACKEND_SEEN', 'BACKEND_DELIVERED'), null);
  assert.equal(statusAfterEvent('BACKEND_SENT', 'BACKEND_SENT'), null);
  assert.equal(statusAfterEvent('SENT_TO_BACKEND', 'BACKEND_SEEN'), 'BACKEND_SEEN');
});

test('failed wins only below BACKEND_SENT', () => {
  assert.equal(statusAfterEvent('BACKEND_DELIVERED', 'BACKEND_FAILED'), 'BACKEND_FAILED');
  assert.equal(statusAfterEvent('BACKEND_SENT', 'BACKEND_FAILED'), null);
});

test('deleted is final and a failure is never left', () => {
  assert.equal(statusAfterEvent('BACKEND_SEEN', 'BACKEND_DELETED'), 'BACKEND_DELETED');
  assert.equal(statusAfterEvent('BACKEND_DELETED', 'BACKEND_SEEN'), null);
  assert.equal(statusAfterEvent('BACKEND_FAILED', 'BACKEND_SEEN'), null);
});

test('an event reaches a send whose outcome is still unknown (it proves the network has it)', () => {
  assert.equal(statusAfterEvent('OPT_IN_SUCCESS', 'BACKEND_DELIVERED'), 'BACKEND_DELIVERED');
});

test('counters of a state follow DESIGN §7', () => {
  assert.deepEqual(countersOf('NONE', 0), ['waiting']);
  assert.deepEqual(countersOf('AGENDA', 0).sort(), ['processed_count', 'queued']);
  assert.deepEqual(countersOf('SENT_TO_BACKEND', 1).sort(), ['awaiting_backend_count', 'processed_count']);
  assert.deepEqual(countersOf('BACKEND_SEEN', 4).sort(), ['delivered_count', 'processed_count', 'seen_count', 'sent_count']);
  assert.deepEqual(countersOf('CANCELLED', 0), ['cancelled_count']);
});

test('funnel counters never go down: a failure after delivery keeps delivered_count', () => {
  assert.deepEqual(counterDelta('BACKEND_DELIVERED', 2, 'BACKEND_FAILED', 2), { failed_count: 1 });
});

test('a move between states of the same counters changes nothing', () => {
  assert.deepEqual(counterDelta('QUEUED', 0, 'QUEUED', 0), {});
});

test('a late event corrects a send that was failed as OUTCOME_UNKNOWN (the network did get it)', () => {
  assert.equal(statusAfterEvent('SENT_TO_BACKEND_FAILED', 'BACKEND_DELIVERED'), 'BACKEND_DELIVERED');
});
