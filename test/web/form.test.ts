import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTemplate } from '../../src/domain/templates/validate.js';
import {
  emptyForm, errorsByField, fieldOfPath, newButton, newCard, previewValues, toCreateBody, type TemplateForm,
} from '../../web/src/pages/templates/form.js';
import { renderMessage } from '../../web/src/pages/templates/message.js';

function fullForm(): TemplateForm {
  const f = emptyForm();
  f.name = 'summer_sale';
  f.headerKind = 'TEXT';
  f.headerText = 'Hi {{1}}';
  f.headerExample = 'Ali';
  f.body = 'Your code {{1}} is valid until {{2}}.';
  f.bodyExamples = ['SAVE10', 'Monday'];
  f.footer = 'Reply STOP to opt out';
  f.buttons = [
    { ...newButton('QUICK_REPLY'), text: 'Stop' },
    { ...newButton('URL'), text: 'Shop', url: 'https://shop.example.com/{{1}}', urlExample: 'summer' },
    { ...newButton('PHONE_NUMBER'), text: 'Call', phone: '+905550000000' },
    { ...newButton('COPY_CODE'), code: 'SAVE10' },
  ];
  return f;
}

function carouselForm(): TemplateForm {
  const f = emptyForm();
  f.name = 'picks';
  f.carousel = true;
  f.body = 'Picks for {{1}} this week';
  f.bodyExamples = ['Ali'];
  f.cards = [0, 1].map((j) => ({
    ...newCard(), media: { handle: `4::h${j}`, fileName: `${j}.png` }, body: 'Only {{1}} today', bodyExamples: ['9.99'],
    buttons: [{ ...newButton('QUICK_REPLY'), text: 'More' }, { ...newButton('URL'), text: 'Buy', url: 'https://b.example.com/{{1}}', urlExample: 'x' }],
  }));
  return f;
}

const rules = (body: ReturnType<typeof toCreateBody>) => validateTemplate(body, { requireHeaderHandle: false });

test('a form with every top-level kind makes a body the service’s rules accept', () => {
  const body = toCreateBody(fullForm(), '110000000000001');
  assert.deepEqual(rules(body), []);
  assert.deepEqual(body.components.map((c) => c.type), ['HEADER', 'BODY', 'FOOTER', 'BUTTONS']);
  assert.deepEqual(body.components[1].example, { body_text: [['SAVE10', 'Monday']] });
  assert.deepEqual(body.components[3].buttons?.[1], { type: 'URL', text: 'Shop', url: 'https://shop.example.com/{{1}}', example: ['summer'] });
  assert.equal(body.channel_id, '110000000000001');
  assert.equal(body.file_handle, undefined);
});

test('a carousel form makes a BODY and a CAROUSEL with each card’s uploaded handle', () => {
  const body = toCreateBody(carouselForm(), '110000000000001');
  assert.deepEqual(rules(body), []);
  assert.deepEqual(body.components.map((c) => c.type), ['BODY', 'CAROUSEL']);
  assert.deepEqual(body.components[1].cards?.[1].components[0], { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::h1'] } });
});

test('an image header goes as file_handle, named body variables as named examples', () => {
  const f = emptyForm();
  f.name = 'img';
  f.headerKind = 'IMAGE';
  f.headerMedia = { handle: '4::abc', fileName: 'a.png' };
  f.body = 'Hello {{first_name}}, welcome.';
  f.bodyExamples = ['Ayse'];
  const body = toCreateBody(f, 'c1');
  assert.equal(body.file_handle, '4::abc');
  assert.deepEqual(body.components[1].example, { body_text_named_params: [{ param_name: 'first_name', example: 'Ayse' }] });
  assert.deepEqual(rules(body), []);
});

test('the service’s field paths land on the form field that caused them', () => {
  const f = fullForm();
  f.buttons[1].url = 'ftp://shop.example.com/{{1}}';
  f.bodyExamples = ['SAVE10', ' '];
  f.footer = 'x'.repeat(61);
  const errors = rules(toCreateBody(f, 'c1'));
  const byField = errorsByField(f, errors);
  assert.ok(byField['buttons.1.url'], JSON.stringify(errors));
  assert.ok(byField['bodyExamples.1'], JSON.stringify(errors));
  assert.ok(byField.footer, JSON.stringify(errors));
  assert.equal(byField.form, undefined);
});

test('card errors land on the card’s fields; top fields by name', () => {
  const f = carouselForm();
  f.cards[1].media = null;
  f.cards[0].buttons[0].text = '';
  const byField = errorsByField(f, rules(toCreateBody(f, 'c1')));
  assert.ok(byField['cards.1.media']);
  assert.ok(byField['cards.0.buttons.0.text']);
  assert.equal(fieldOfPath(f, 'name'), 'name');
  assert.equal(fieldOfPath(f, 'file_handle'), 'headerMedia');
  assert.equal(fieldOfPath(f, 'something.else'), 'form');
});

test('the live preview shows the form’s examples', () => {
  const f = fullForm();
  const values = previewValues(f);
  const m = renderMessage(toCreateBody(f, 'c1').components, (c) => values[c]);
  assert.deepEqual(m.header, { kind: 'text', text: 'Hi Ali' });
  assert.equal(m.body, 'Your code SAVE10 is valid until Monday.');
  assert.equal(m.buttons[1].detail, 'https://shop.example.com/summer');
  assert.deepEqual(m.missing, []);
});

test('a REQUEST_CONTACT_INFO button row goes as the bare button the rules accept, and previews with WhatsApp’s label', () => {
  const f = fullForm();
  f.buttons = [{ ...newButton('URL'), text: 'Shop', url: 'https://shop.example.com/{{1}}', urlExample: 'summer' }, newButton('REQUEST_CONTACT_INFO')];
  const body = toCreateBody(f, 'c1');
  const buttons = body.components.find((c) => c.type === 'BUTTONS')?.buttons;
  assert.deepEqual(buttons?.[1], { type: 'REQUEST_CONTACT_INFO' });
  assert.deepEqual(rules(body), []);
  const view = renderMessage(body.components, () => undefined);
  assert.equal(view.buttons[1].label, 'Share phone number');
});
