import { test } from 'node:test';
import assert from 'node:assert/strict';
import { convertRow, rowComponentsJson, rowConverter, templateSlots, v1Field } from '../../src/domain/bulk-rows.js';
import type { StoredComponents } from '../../src/domain/templates/types.js';

const template = [
  { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}' },
  { type: 'BODY', text: 'Order {{1}} ships {{2}}.' },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://t.example/{{1}}' },
      { type: 'COPY_CODE', example: 'X' },
      { type: 'QUICK_REPLY', text: 'Stop' },
      { type: 'URL', text: 'Help', url: 'https://h.example/{{1}}' },
    ],
  },
] as unknown as StoredComponents;

test('a template’s variables become named columns', () => {
  assert.deepEqual(templateSlots(template).map((s) => s.column), ['HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1', 'BUTTONS.2', 'BUTTONS.3']);
});

test('v1 fields feed the columns (the second URL variable is url_button_param2)', () => {
  assert.deepEqual(templateSlots(template).map(v1Field), ['text_header_param', 'params[0]', 'params[1]', 'url_button_param', 'copy_code_param', null, 'url_button_param2']);
});

test('a full row converts to the network components', () => {
  const cells: Record<string, string> = { 'HEADER.1': 'Ali', 'BODY.1': 'A1', 'BODY.2': 'today', 'BUTTONS.0': 't', 'BUTTONS.1': 'C', 'BUTTONS.3': 'h' };
  const r = convertRow(template, templateSlots(template), (c) => cells[c], (c) => `rows[0].${c}`, 'row 1');
  assert.ok(r.ok);
  assert.equal(r.components.length, 5);
});

test('an empty required cell names its column', () => {
  const r = convertRow(template, templateSlots(template), (c) => (c === 'BODY.2' ? '' : 'x'), (c) => `rows[4].${c}`, 'row 5');
  assert.ok(!r.ok);
  assert.equal(r.errors[0].field, 'rows[4].BODY.2');
  assert.match(r.errors[0].message, /^row 5: BODY\.2/);
});

test('a network rule broken by a cell names that cell’s column', () => {
  const r = convertRow(template, templateSlots(template), (c) => (c === 'BODY.1' ? 'line\nbreak' : 'x'), (c) => c, 'row 1');
  assert.ok(!r.ok);
  assert.equal(r.errors[0].field, 'BODY.1');
});

test('a converter made once for a template checks each row on its own', () => {
  const convert = rowConverter(template, templateSlots(template));
  const bad = convert((c) => (c === 'BODY.2' ? '' : 'x'), (c) => `rows[0].${c}`, 'row 1');
  const good = convert(() => 'x', (c) => `rows[1].${c}`, 'row 2');
  assert.ok(!bad.ok);
  assert.deepEqual(bad.errors.map((e) => e.field), ['rows[0].BODY.2']);
  assert.ok(good.ok);
  assert.deepEqual(good, convertRow(template, templateSlots(template), () => 'x', (c) => c, 'row 2'));
});

// The components' JSON made without objects (rowComponentsJson) is the converter's own, or it leaves the row to it.

/** A small deterministic random source (the cases are the same in every run). */
function randomSource(seed: number) {
  let s = seed >>> 0;
  const next = () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] };
}

const VARIABLE_TEXTS = [
  'Hello', 'Hi {{1}}', 'Hi {{1}} and {{2}}', '{{1}} {{1}} {{2}}', 'Hi {{first_name}}', '{{first_name}}, {{order_id}} and {{first_name}}',
  'Mixed {{1}} {{name}}', 'Odd {{ 1 }} {{1}}', '{{2}} before {{1}}', 'Zero {{0}}',
];
const VALUES = [
  undefined, '', ' ', 'x', 'Ali', 'a\tb', 'a\nb', 'a     b', 'a    b', ' padded ', 'x'.repeat(20), 'x'.repeat(21), 'x'.repeat(60), 'x'.repeat(61),
  'x'.repeat(1024), 'x'.repeat(1025), '😀'.repeat(20), '😀'.repeat(21), '😀'.repeat(60), '😀'.repeat(31), '\ud83d', 'lone \udc00 low', '"quoted" \\ back',
  'https://x.example/a', 'https://x.example/a b', 'HTTPS://X.EXAMPLE/Y', 'http://', 'ftp://x', 'media-id-1', 'line\u2028sep', '\u0001ctl', 'ünïcødé',
];

function randomTemplate(r: ReturnType<typeof randomSource>): StoredComponents {
  const components: unknown[] = [];
  const header = r.pick(['none', 'TEXT', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION']);
  if (header === 'TEXT') components.push({ type: 'HEADER', format: 'TEXT', text: r.pick(VARIABLE_TEXTS) });
  else if (header !== 'none') components.push({ type: 'HEADER', format: header });
  if (r.next() < 0.05) components.push({ type: 'HEADER', format: 'TEXT', text: 'Again {{1}}' });
  if (r.next() < 0.9) components.push({ type: 'BODY', text: r.pick(VARIABLE_TEXTS) });
  if (r.next() < 0.3) components.push({ type: 'FOOTER', text: 'Bye' });
  if (r.next() < 0.7) {
    const kinds = ['URL1', 'URL0', 'URL2', 'COPY_CODE', 'QUICK_REPLY', 'PHONE_NUMBER', 'REQUEST_CONTACT_INFO'];
    const buttons = Array.from({ length: 1 + Math.floor(r.next() * 4) }, () => {
      const kind = r.pick(kinds);
      if (kind.startsWith('URL')) return { type: 'URL', text: 'Go', url: kind === 'URL0' ? 'https://a.example/' : kind === 'URL1' ? 'https://a.example/{{1}}' : 'https://a.example/{{1}}/{{2}}' };
      if (kind === 'PHONE_NUMBER') return { type: kind, text: 'Call', phone_number: '+15550001111' };
      return kind === 'QUICK_REPLY' ? { type: kind, text: 'Stop' } : { type: kind };
    });
    components.push({ type: 'BUTTONS', buttons });
  }
  if (r.next() < 0.05) {
    const card = { components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Card {{1}}' }] };
    components.push({ type: 'CAROUSEL', cards: [card, card] });
  }
  return components as StoredComponents;
}

test('the fast components JSON is the converter’s own text for every row it answers, over random templates and cells', () => {
  const r = randomSource(20261127);
  let answered = 0;
  let left = 0;
  let covered = 0;
  for (let t = 0; t < 600; t += 1) {
    const components = randomTemplate(r);
    const slots = templateSlots(components);
    const fast = rowComponentsJson(components, slots);
    const convert = rowConverter(components, slots);
    if (fast) covered += 1;
    for (let row = 0; row < 40; row += 1) {
      // Mostly plain values, so that whole rows pass; sometimes any value.
      const values = slots.map(() => (r.next() < 0.8 ? r.pick(['Ali', 'A1', 'https://x.example/i.png', 'id-7', 'C0DE', '😀 ok']) : r.pick(VALUES)));
      const slow = convert((c) => values[slots.findIndex((s) => s.column === c)], (c) => c, 'row 1');
      const json = fast?.(values);
      if (json === undefined) {
        left += 1;
        continue;
      }
      answered += 1;
      assert.ok(slow.ok, `${JSON.stringify(components)} ${JSON.stringify(values)}: the converter refuses a row the fast path answered`);
      assert.equal(json, slow.components.length ? JSON.stringify(slow.components) : '', `${JSON.stringify(components)} ${JSON.stringify(values)}`);
    }
  }
  // The cases reach both ways, and the fast path covers most templates.
  assert.ok(answered > 5000 && left > 2000 && covered > 300, `answered ${answered}, left ${left}, templates covered ${covered}`);
});

test('the fast path covers the common templates and leaves a carousel to the converter', () => {
  assert.notEqual(rowComponentsJson(template, templateSlots(template)), null);
  const carousel = [
    { type: 'BODY', text: 'Picks' },
    { type: 'CAROUSEL', cards: [0, 1].map(() => ({ components: [{ type: 'HEADER', format: 'IMAGE' }, { type: 'BODY', text: 'Only {{1}}' }] })) },
  ] as unknown as StoredComponents;
  assert.equal(rowComponentsJson(carousel, templateSlots(carousel)), null);
  const slots = templateSlots(template);
  const values = ['Ali', 'A1', 'today', 't', 'C', undefined, 'h'];
  assert.equal(rowComponentsJson(template, slots)!(values), JSON.stringify((rowConverter(template, slots)((c) => values[slots.findIndex((s) => s.column === c)], (c) => c, 'row 1') as { components: unknown }).components));
  // A value a check refuses is left to the converter, which names it.
  assert.equal(rowComponentsJson(template, slots)!(['Ali', 'A1', 'to\nday', 't', 'C', undefined, 'h']), undefined);
});
