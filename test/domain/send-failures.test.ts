import { test } from 'node:test';
import assert from 'node:assert/strict';
import { backoffMs, decideSendFailure, graphTitle } from '../../src/domain/send-failures.js';

const half = () => 0.5;

test('130429 is retried and throttles the channel', () => {
  const d = decideSendFailure({ kind: 'graph', httpStatus: 400, code: 130429, notSent: false }, 1, 8, half);
  assert.deepEqual(d, { action: 'retry', delayMs: 1000, throttle: true, reason: '130429:' });
});

test('a 5xx Graph answer is retried', () => {
  assert.equal(decideSendFailure({ kind: 'graph', httpStatus: 503, code: 1, notSent: false }, 1, 8).action, 'retry');
});

test('a non-Graph 502 after the request was written is in doubt (never resent)', () => {
  assert.deepEqual(decideSendFailure({ kind: 'bad_response', httpStatus: 502, notSent: false }, 1, 8), { action: 'in_doubt' });
});

test('a 2xx the adapter cannot read is in doubt (the network may have taken it)', () => {
  assert.deepEqual(decideSendFailure({ kind: 'bad_response', httpStatus: 200, notSent: false }, 1, 8), { action: 'in_doubt' });
});

test('a non-Graph 4xx fails the send', () => {
  assert.equal(decideSendFailure({ kind: 'bad_response', httpStatus: 404, notSent: false }, 1, 8).action, 'fail');
});

test('a Graph 131000 with HTTP 500 stays retryable', () => {
  assert.equal(decideSendFailure({ kind: 'graph', httpStatus: 500, code: 131000, notSent: false }, 1, 8).action, 'retry');
});

test('a connect timeout (request never written) is retried like a refused connection', () => {
  assert.equal(decideSendFailure({ kind: 'timeout', httpStatus: null, notSent: true }, 1, 8).action, 'retry');
});

test('132000 fails at once with the title and the code', () => {
  const d = decideSendFailure({ kind: 'graph', httpStatus: 400, code: 132000, title: 'Number of parameters does not match', details: 'body: 2 expected', notSent: false }, 1, 8);
  assert.deepEqual(d, { action: 'fail', errorMessage: 'Number of parameters does not match', errorDetail: '132000: body: 2 expected' });
});

test('a timeout leaves the send in doubt (never retried)', () => {
  assert.deepEqual(decideSendFailure({ kind: 'timeout', httpStatus: null, notSent: false }, 1, 8), { action: 'in_doubt' });
});

test('a connection refused before writing is retried; a reset after writing is in doubt', () => {
  assert.equal(decideSendFailure({ kind: 'connection', httpStatus: null, notSent: true }, 1, 8).action, 'retry');
  assert.equal(decideSendFailure({ kind: 'connection', httpStatus: null, notSent: false }, 1, 8).action, 'in_doubt');
});

test('the last allowed attempt fails instead of retrying', () => {
  assert.equal(decideSendFailure({ kind: 'graph', httpStatus: 400, code: 130429, notSent: false }, 8, 8).action, 'fail');
});

test('backoff doubles up to 60 times the base, with jitter', () => {
  assert.equal(backoffMs(1, undefined, half), 1000);
  assert.equal(backoffMs(3, undefined, half), 4000);
  assert.equal(backoffMs(20, undefined, half), 60_000);
  assert.equal(backoffMs(1, undefined, () => 0), 500);
});

test('a pair-rate refusal waits at least 6 s per attempt', () => {
  assert.equal(backoffMs(2, 131056, () => 0), 12_000);
});

test('the Graph title drops the (#code) prefix', () => {
  assert.equal(graphTitle('(#131049) This message was not delivered'), 'This message was not delivered');
  assert.equal(graphTitle('x', 'User title'), 'User title');
});
