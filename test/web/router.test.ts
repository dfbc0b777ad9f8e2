import { test } from 'node:test';
import assert from 'node:assert/strict';
import { href, parseHash } from '../../web/src/router.js';

test('a hash route splits into its path and query', () => {
  const route = parseHash('#/reports?channel=110000000000001&id=6b04');
  assert.equal(route.path, '/reports');
  assert.equal(route.query.get('channel'), '110000000000001');
  assert.equal(route.query.get('id'), '6b04');
});

test('an empty hash or one without a leading slash is a path from the root', () => {
  assert.equal(parseHash('').path, '/');
  assert.equal(parseHash('#').path, '/');
  assert.equal(parseHash('#channels').path, '/channels');
});

test('href leaves out empty query values and encodes the rest', () => {
  assert.equal(href('/reports', { channel: '1', id: null, page: undefined, status: '' }), '#/reports?channel=1');
  assert.equal(href('/lookup', { ids: 'a,b c' }), '#/lookup?ids=a%2Cb+c');
  assert.equal(href('/channels'), '#/channels');
  assert.equal(parseHash(href('/lookup', { ids: 'a,b c' })).query.get('ids'), 'a,b c');
});
