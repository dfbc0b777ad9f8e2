/** Opt-out rules: keyword matching on the whole trimmed reply, keyword lists, reply text of inbound messages. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkKeywords, DEFAULT_OPT_OUT_KEYWORDS, matchKeyword, optedOutDetail, replyText } from '../../src/domain/opt-outs.js';

test('a reply matches a keyword ignoring case, outer spaces and repeated inner spaces', () => {
  assert.equal(matchKeyword('  stop\n', DEFAULT_OPT_OUT_KEYWORDS), 'STOP');
  assert.equal(matchKeyword('Opt   Out', DEFAULT_OPT_OUT_KEYWORDS), 'OPT OUT');
  assert.equal(matchKeyword('ＳＴＯＰ', DEFAULT_OPT_OUT_KEYWORDS), 'STOP', 'full-width letters read as their NFKC form');
});

test('a reply that only contains a keyword, or is empty, matches nothing', () => {
  for (const text of ['stop it', 'please STOP', 'STOP.', '', '   ']) assert.equal(matchKeyword(text, DEFAULT_OPT_OUT_KEYWORDS), null, text);
});

test('keyword lists are normalised; empty, over-long and repeated keywords are named by index', () => {
  assert.deepEqual(checkKeywords([' iptal ', 'opt  me out']), { ok: true, keywords: ['IPTAL', 'OPT ME OUT'] });
  const bad = checkKeywords(['STOP', '  ', 'x'.repeat(65), 'Stop']);
  assert.equal(bad.ok, false);
  assert.deepEqual(!bad.ok && bad.problems.map((p) => p.index), [1, 2, 3]);
  assert.deepEqual(checkKeywords([]), { ok: true, keywords: [] });
});

test('reply text comes from text bodies, quick-reply buttons and reply buttons only', () => {
  assert.equal(replyText({ type: 'text', text: { body: 'STOP' } }), 'STOP');
  assert.equal(replyText({ type: 'button', button: { text: 'Stop', payload: 'x' } }), 'Stop');
  assert.equal(replyText({ type: 'interactive', interactive: { type: 'button_reply', button_reply: { title: 'Stop' } } }), 'Stop');
  assert.equal(replyText({ type: 'image' }), null);
  assert.equal(replyText({ type: 'text', text: { body: 42 } }), null);
});

test('the failure detail starts with the stable code', () => {
  assert.match(optedOutDetail('inbound_keyword', 'STOP'), /^RECIPIENT_OPTED_OUT: .*replied STOP/);
  assert.match(optedOutDetail('import', null), /^RECIPIENT_OPTED_OUT: /);
});
