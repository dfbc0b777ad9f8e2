import { test } from 'node:test';
import assert from 'node:assert/strict';
import { nulField, textMayHoldNul } from '../../src/domain/nul.js';

test('a JSON text that parses to a value holding NUL is always seen as one that may', () => {
  for (const value of [{ a: 'x\u0000y' }, ['\u0000'], { ['k\u0000']: 1 }, { deep: [{ s: 'ok', t: '\u0000' }] }]) {
    const text = JSON.stringify(value);
    assert.ok(nulField(JSON.parse(text)) !== undefined);
    assert.equal(textMayHoldNul(text), true, text);
  }
  // A raw NUL (not valid JSON) and an escaped backslash before u0000 read as maybe too: the walk then decides.
  assert.equal(textMayHoldNul('{"a":"\u0000"}'), true);
  assert.equal(textMayHoldNul(JSON.stringify({ a: '\\u0000' })), true);
  assert.equal(nulField(JSON.parse(JSON.stringify({ a: '\\u0000' }))), undefined);
});

test('a text without the escape holds no NUL', () => {
  const text = JSON.stringify({ entry: [{ changes: [{ value: { statuses: [{ id: 'wamid.1', status: 'read', note: 'u0000 \\ "' }] } }] }] });
  assert.equal(textMayHoldNul(text), false);
  assert.equal(nulField(JSON.parse(text)), undefined);
});
