import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  countVariables, extractPlaceholders, hasStrayBraces, textLength, variableNames,
} from '../../../src/domain/templates/placeholders.js';
import type { Component } from '../../../src/domain/templates/types.js';

test('extractPlaceholders finds positional tokens with their offsets', () => {
  assert.deepEqual(extractPlaceholders('Hi {{1}}, code {{2}}'), [
    { name: '1', form: 'positional', start: 3, end: 8 },
    { name: '2', form: 'positional', start: 15, end: 20 },
  ]);
});

test('extractPlaceholders classifies named and invalid tokens', () => {
  const forms = extractPlaceholders('{{first_name}} {{ 1 }} {{0}} {{1a}} {{}} {{Name}} {{order_2}}').map((p) => `${p.name}:${p.form}`);
  assert.deepEqual(forms, ['first_name:named', ' 1 :invalid', '0:invalid', '1a:invalid', ':invalid', 'Name:invalid', 'order_2:named']);
});

test('extractPlaceholders of a text without braces is empty', () => {
  assert.deepEqual(extractPlaceholders('no variables here {1}'), []);
});

test('variableNames counts a repeated variable once, in first-appearance order', () => {
  assert.deepEqual(variableNames('{{2}} a {{1}} b {{2}} {{x}}'), ['2', '1', 'x']);
});

test('hasStrayBraces spots an unclosed or extra double brace', () => {
  assert.equal(hasStrayBraces('Hi {{1}'), true);
  assert.equal(hasStrayBraces('Hi {{1}}}}'), true);
  assert.equal(hasStrayBraces('Hi {{1}} and {2}'), false);
});

test('textLength counts an emoji as one character', () => {
  assert.equal(textLength('🍺ab'), 3);
  assert.equal('🍺ab'.length, 4);
});

test('textLength counts a lone surrogate as one character, as code points do', () => {
  for (const text of ['\ud83c', 'a\udf7a', '\udf7a\ud83c', '\ud83c\ud83c\udf7a']) assert.equal(textLength(text), [...text].length);
});

test('countVariables gives the number of send parameters of each component kind', () => {
  const cases: [Component, number][] = [
    [{ type: 'HEADER', format: 'TEXT', text: 'Our {{1}} sale' }, 1],
    [{ type: 'HEADER', format: 'TEXT', text: 'Static' }, 0],
    [{ type: 'HEADER', format: 'IMAGE' }, 1],
    [{ type: 'HEADER', format: 'LOCATION' }, 1],
    [{ type: 'BODY', text: 'a {{1}} b {{2}} c {{1}} d' }, 2],
    [{ type: 'FOOTER', text: 'bye' }, 0],
    [{ type: 'BUTTONS', buttons: [
      { type: 'URL', text: 'Go', url: 'https://x.example/{{1}}' }, { type: 'QUICK_REPLY', text: 'Stop' },
      { type: 'PHONE_NUMBER', text: 'Call', phone_number: '+15550001111' }, { type: 'COPY_CODE', example: 'X' },
    ] }, 2],
    [{ type: 'CAROUSEL', cards: [0, 1].map(() => ({ components: [
      { type: 'HEADER', format: 'IMAGE' } as Component, { type: 'BODY', text: 'x {{1}} y' } as Component,
    ] })) }, 4],
  ];
  for (const [component, n] of cases) assert.equal(countVariables(component), n, JSON.stringify(component));
});

test('countVariables of a single button: URL with and without a variable', () => {
  assert.equal(countVariables({ type: 'URL', text: 'Go', url: 'https://x.example/p?c={{1}}' }), 1);
  assert.equal(countVariables({ type: 'URL', text: 'Go', url: 'https://x.example/' }), 0);
});

test('a text read again gives the same answer, which no caller can change', () => {
  const text = 'Hello {{first_name}}, your code is {{code}} ({{first_name}})';
  const first = variableNames(text);
  assert.equal(variableNames(text), first, 'the second read is the kept answer');
  assert.deepEqual([...first], ['first_name', 'code']);
  assert.throws(() => (first as string[]).push('x'), TypeError);
  assert.throws(() => ((extractPlaceholders(text)[0] as { name: string }).name = 'y'), TypeError);
  assert.deepEqual(extractPlaceholders(text).map((p) => p.name), ['first_name', 'code', 'first_name']);
});
