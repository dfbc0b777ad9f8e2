import { test } from 'node:test';
import assert from 'node:assert/strict';
import { href, parseHash, replaceQuery } from '../../web/src/router.js';

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

/** Stands in for the browser's address and history for one test. */
function withAddress(hash: string, run: () => void): string {
  const saved = { location: globalThis.location, history: globalThis.history, window: globalThis.window };
  const address = { hash };
  Object.assign(globalThis, {
    location: address,
    history: { replaceState: (_s: unknown, _t: string, url: string) => (address.hash = url) },
    window: { dispatchEvent: () => true },
    HashChangeEvent: class extends Event {},
  });
  try {
    run();
    return address.hash;
  } finally {
    Object.assign(globalThis, saved);
  }
}

test('a query update replaces the query of the page the address is on', () => {
  assert.equal(withAddress('#/send', () => replaceQuery('/send', { channel: '1' })), '#/send?channel=1');
});

test('a late query update from a page already left does not take the address back to it', () => {
  assert.equal(withAddress('#/reports?channel=1', () => replaceQuery('/send', { channel: '1' })), '#/reports?channel=1');
});
