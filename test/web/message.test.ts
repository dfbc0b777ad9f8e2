import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exampleValues, formatSpans, renderMessage } from '../../web/src/pages/templates/message.js';
import type { ApiComponent } from '../../web/src/pages/templates/types.js';

const template: ApiComponent[] = [
  { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Ali'] } },
  { type: 'BODY', text: 'Order *{{1}}* ships {{2}}.', example: { body_text: [['A1', 'Monday']] } },
  { type: 'FOOTER', text: 'Reply STOP to opt out' },
  { type: 'BUTTONS', buttons: [
    { type: 'URL', text: 'Track', url: 'https://t.example/{{1}}', example: ['A1'] },
    { type: 'COPY_CODE', example: 'SAVE10' },
    { type: 'QUICK_REPLY', text: 'Stop' },
    { type: 'PHONE_NUMBER', text: 'Call us', phone_number: '+905550000000' },
  ] },
];

test('row values fill the header, body and button variables', () => {
  const values: Record<string, string> = { 'HEADER.1': 'Ayse', 'BODY.1': 'B-7', 'BODY.2': 'today', 'BUTTONS.0': 'b7', 'BUTTONS.1': 'GIFT7' };
  const m = renderMessage(template, (c) => values[c]);
  assert.deepEqual(m.header, { kind: 'text', text: 'Hi Ayse' });
  assert.equal(m.body, 'Order *B-7* ships today.');
  assert.equal(m.footer, 'Reply STOP to opt out');
  assert.deepEqual(m.buttons.map((b) => [b.type, b.label, b.detail]), [
    ['URL', 'Track', 'https://t.example/b7'], ['COPY_CODE', 'Copy offer code', 'GIFT7'], ['QUICK_REPLY', 'Stop', null], ['PHONE_NUMBER', 'Call us', '+905550000000'],
  ]);
  assert.deepEqual(m.missing, []);
});

test('a missing value keeps its {{n}} and is listed by column', () => {
  const m = renderMessage(template, (c) => (c === 'BODY.1' ? 'B-7' : undefined));
  assert.equal(m.body, 'Order *B-7* ships {{2}}.');
  assert.deepEqual(m.missing, ['HEADER.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1']);
});

test('the template’s examples preview it without a recipient', () => {
  const m = renderMessage(template, (c) => exampleValues(template)[c]);
  assert.equal(m.body, 'Order *A1* ships Monday.');
  assert.equal(m.buttons[0].detail, 'https://t.example/A1');
});

test('named variables read BODY.<name> (or their position)', () => {
  const named: ApiComponent[] = [{ type: 'BODY', text: 'Hi {{first_name}}, {{first_name}} uses {{code}}.' }];
  const m = renderMessage(named, (c) => ({ 'BODY.first_name': 'Ayse', 'BODY.2': 'X1' } as Record<string, string>)[c]);
  assert.equal(m.body, 'Hi Ayse, Ayse uses X1.');
});

test('carousel cards render with their media, body and buttons', () => {
  const carousel: ApiComponent[] = [
    { type: 'BODY', text: 'Picks for {{1}}' },
    { type: 'CAROUSEL', cards: [0, 1].map(() => ({ components: [
      { type: 'HEADER', format: 'IMAGE' },
      { type: 'BODY', text: 'Only {{1}} today' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Buy', url: 'https://b.example/{{1}}' }] },
    ] })) },
  ];
  const values: Record<string, string> = { 'BODY.1': 'Ali', 'CAROUSEL.0.HEADER': 'https://img.example/a.png', 'CAROUSEL.0.BODY.1': '5.00', 'CAROUSEL.1.BODY.1': '7.50', 'CAROUSEL.0.BUTTONS.0': 'a', 'CAROUSEL.1.BUTTONS.0': 'b' };
  const m = renderMessage(carousel, (c) => values[c]);
  assert.equal(m.cards.length, 2);
  assert.deepEqual(m.cards[0].header, { kind: 'media', format: 'IMAGE', src: 'https://img.example/a.png' });
  assert.deepEqual(m.cards[1].header, { kind: 'media', format: 'IMAGE', src: null });
  assert.equal(m.cards[1].body, 'Only 7.50 today');
  assert.equal(m.cards[1].buttons[0].detail, 'https://b.example/b');
  assert.deepEqual(m.missing, ['CAROUSEL.1.HEADER']);
});

test('WhatsApp markers become formatted runs; unpaired ones stay as written', () => {
  assert.deepEqual(formatSpans('a *b* _c_ ~d~ ```e``` *_f_*'), [
    { text: 'a ' }, { text: 'b', bold: true }, { text: ' ' }, { text: 'c', italic: true }, { text: ' ' }, { text: 'd', strike: true },
    { text: ' ' }, { text: 'e', mono: true }, { text: ' ' }, { text: 'f', bold: true, italic: true },
  ]);
  assert.deepEqual(formatSpans('2 * 3 = 6, snake_case'), [{ text: '2 * 3 = 6, snake_case' }]);
});
