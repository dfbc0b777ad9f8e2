/** The bulk-send transition table: its moves, the lists read from it, and the actions a user may take. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  allowedActions,
  BULK_SEND_MOVES,
  BULK_SEND_STATUSES,
  BULK_SEND_TRANSITIONS,
  COMPLETABLE_STATUSES,
  FINISHED_STATUSES,
  PAUSABLE_STATUSES,
  STOPPABLE_STATUSES,
} from '../../src/domain/bulk-send-states.js';

test('every move leaves and reaches declared statuses, and a finished bulk send has no move out', () => {
  for (const [name, move] of Object.entries(BULK_SEND_MOVES)) {
    assert.ok(BULK_SEND_STATUSES.includes(move.to), name);
    for (const from of move.from) assert.ok(BULK_SEND_STATUSES.includes(from), `${name} from ${from}`);
  }
  assert.deepEqual(FINISHED_STATUSES, ['STOPPED', 'COMPLETED']);
  assert.deepEqual(BULK_SEND_TRANSITIONS.STOPPED, []);
  assert.deepEqual(BULK_SEND_TRANSITIONS.PENDING, ['RUNNING', 'SCHEDULED', 'STOPPED']);
});

test('the lists of the lifecycle are read from the moves', () => {
  assert.deepEqual(STOPPABLE_STATUSES, BULK_SEND_MOVES.stop.from);
  assert.deepEqual(PAUSABLE_STATUSES, ['RUNNING', 'PAUSED']);
  assert.deepEqual(COMPLETABLE_STATUSES, ['RUNNING', 'PAUSED', 'PAUSED_BY_USER']);
});

test('allowed actions follow the status: pause and stop while running, resume after a user pause, retry when finished with failures', () => {
  const actions = (status: string, failed_count = 0) => allowedActions({ status, failed_count });
  assert.deepEqual(actions('RUNNING'), ['pause', 'stop']);
  assert.deepEqual(actions('PAUSED'), ['pause', 'stop']);
  assert.deepEqual(actions('PAUSED_BY_USER'), ['resume', 'stop']);
  assert.deepEqual(actions('SCHEDULED'), ['stop']);
  assert.deepEqual(actions('COMPLETED'), []);
  assert.deepEqual(actions('COMPLETED', 3), ['retry']);
  assert.deepEqual(actions('STOPPED', 1), ['retry']);
});
