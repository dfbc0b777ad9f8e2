/** The Webhooks page's plain words for a delivery's state and the delivery worker's errors. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { deliveryStateName, explainDeliveryError } from '../../web/src/webhook-words.js';

test('a delivery state in words: a pending one already tried is retrying', () => {
  assert.equal(deliveryStateName('DELIVERED', 1).name, 'Delivered');
  assert.equal(deliveryStateName('FAILED', 30).name, 'Given up');
  assert.equal(deliveryStateName('PENDING', 0).name, 'Waiting');
  assert.equal(deliveryStateName('PENDING', 2).name, 'Retrying');
});

test('the worker’s errors in plain words, the unknown ones as they are', () => {
  assert.equal(explainDeliveryError(null), '—');
  assert.equal(explainDeliveryError('HTTP 503', 503), 'Your endpoint answered 503: an error on its side.');
  assert.match(explainDeliveryError('HTTP 301', 301), /redirect, which is not followed/);
  assert.match(explainDeliveryError('HTTP 401', 401), /signature/);
  assert.equal(explainDeliveryError('timeout: no complete answer within 10000 ms'), 'No complete answer within 10 seconds: your endpoint should answer at once and work afterwards.');
  assert.match(explainDeliveryError('ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9'), /connection refused/);
  assert.match(explainDeliveryError('ENOTFOUND: getaddrinfo ENOTFOUND hooks.invalid'), /DNS/);
  assert.match(explainDeliveryError('UND_ERR_SOCKET: other side closed'), /closed before an answer/);
  assert.match(explainDeliveryError('the endpoint secret cannot be opened: bad key'), /rotate the secret/);
  assert.equal(explainDeliveryError('EWEIRD: something'), 'EWEIRD: something');
});
