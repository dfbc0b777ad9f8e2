import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateTemplate, validateTemplateName, type TemplateRuleOptions } from '../../../src/domain/templates/validate.js';

type Json = Record<string, unknown>;
const where = (errors: { code: string; field?: string }[]) => errors.map((e) => `${e.code} ${e.field}`);

/** A valid MARKETING template: TEXT header with 1 variable, body with 3, footer, URL + quick reply buttons. */
function template(): { name: unknown; category: unknown; language: unknown; components: Json[] } {
  return {
    name: 'summer_sale',
    category: 'MARKETING',
    language: 'en_US',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Our {{1}} is on!', example: { header_text: ['Summer Sale'] } },
      { type: 'BODY', text: 'Shop now through {{1}} and use code {{2}} to get {{3}} off.', example: { body_text: [['August', '25OFF', '25%']] } },
      { type: 'FOOTER', text: 'Reply STOP to opt out' },
      { type: 'BUTTONS', buttons: [{ type: 'URL', text: 'Shop', url: 'https://shop.example.com/p?c={{1}}', example: ['summer'] }, { type: 'QUICK_REPLY', text: 'Stop promos' }] },
    ],
  };
}
/** The template with component `i` changed. */
function edit(i: number, change: Json, options?: TemplateRuleOptions) {
  const t = template();
  t.components[i] = { ...t.components[i], ...change };
  return validateTemplate(t, options);
}
const body = (text: string, values?: string[]) => ({ text, example: values ? { body_text: [values] } : undefined });

test('the reference template is valid', () => {
  assert.deepEqual(validateTemplate(template()), []);
});

// Name
test('name: lower-case letters, digits and _ pass', () => {
  assert.deepEqual(validateTemplateName('promo_2025_a'), []);
});
test('name: upper case, spaces or hyphens fail on field name', () => {
  for (const name of ['Promo', 'summer sale', 'summer-sale', 'şeker']) {
    assert.deepEqual(where(validateTemplateName(name)), ['TEMPLATE_NAME_INVALID name'], name);
  }
});
test('name: 512 characters pass, 513 fail', () => {
  assert.deepEqual(validateTemplateName('a'.repeat(512)), []);
  assert.deepEqual(where(validateTemplateName('a'.repeat(513))), ['TEMPLATE_NAME_INVALID name']);
});
test('name: missing, empty or not a string fails', () => {
  for (const name of [undefined, '', 12]) assert.deepEqual(where(validateTemplateName(name)), ['TEMPLATE_NAME_INVALID name']);
});
test('a bad name is reported by validateTemplate too', () => {
  assert.deepEqual(where(validateTemplate({ ...template(), name: 'Bad Name' })), ['TEMPLATE_NAME_INVALID name']);
});

// Category and language
test('category: only MARKETING by default', () => {
  assert.deepEqual(where(validateTemplate({ ...template(), category: 'UTILITY' })), ['TEMPLATE_INVALID category']);
  assert.deepEqual(where(validateTemplate({ ...template(), category: undefined })), ['TEMPLATE_INVALID category']);
});
test('category: allowedCategories widens the choice', () => {
  assert.deepEqual(validateTemplate({ ...template(), category: 'UTILITY' }, { allowedCategories: ['MARKETING', 'UTILITY'] }), []);
});
test('language: a code of the list passes', () => {
  assert.deepEqual(validateTemplate({ ...template(), language: 'tr' }), []);
});
test('language: unknown codes and webhook locales fail, with a hint for the latter', () => {
  assert.deepEqual(where(validateTemplate({ ...template(), language: 'xx' })), ['TEMPLATE_INVALID language']);
  const [error] = validateTemplate({ ...template(), language: 'en-US' });
  assert.equal(error.field, 'language');
  assert.match(error.message, /did you mean en_US/);
});

// Composition
test('components must be an array', () => {
  assert.deepEqual(where(validateTemplate({ ...template(), components: 'BODY' })), ['TEMPLATE_INVALID components']);
});
test('a BODY is required', () => {
  const t = template();
  t.components.splice(1, 1);
  assert.deepEqual(where(validateTemplate(t)), ['TEMPLATE_INVALID components']);
  assert.deepEqual(where(validateTemplate({ ...template(), components: [] })), ['TEMPLATE_INVALID components']);
});
test('a second BODY, HEADER, FOOTER or BUTTONS fails on its type', () => {
  for (const i of [0, 1, 2, 3]) {
    const t = template();
    t.components.push(t.components[i]);
    assert.deepEqual(where(validateTemplate(t)), ['TEMPLATE_INVALID components[4].type'], String(t.components[i].type));
  }
});
test('an unknown component kind is a validation error, not a crash', () => {
  const t = template();
  t.components.push({ type: 'GALLERY' });
  assert.deepEqual(where(validateTemplate(t)), ['TEMPLATE_INVALID components[4].type']);
});
test('all errors are returned, in input order', () => {
  const t = template();
  t.name = 'X';
  t.language = 'xx';
  t.components[0] = { ...t.components[0], text: 'x'.repeat(61) };
  t.components[2] = { ...t.components[2], text: 'Hi {{1}}' };
  assert.deepEqual(where(validateTemplate(t)), [
    'TEMPLATE_NAME_INVALID name', 'TEMPLATE_INVALID language', 'TEMPLATE_INVALID components[0].text', 'TEMPLATE_INVALID components[2].text',
  ]);
});

// Header
test('header text: 60 characters pass, 61 fail', () => {
  assert.deepEqual(edit(0, { text: 'x'.repeat(60), example: undefined }), []);
  assert.deepEqual(where(edit(0, { text: 'x'.repeat(61), example: undefined })), ['TEMPLATE_INVALID components[0].text']);
});
test('header text: empty fails', () => {
  assert.deepEqual(where(edit(0, { text: ' ', example: undefined })), ['TEMPLATE_INVALID components[0].text']);
});
test('header text: two variables fail', () => {
  assert.deepEqual(where(edit(0, { text: 'A {{1}} and {{2}}', example: { header_text: ['a', 'b'] } })), ['TEMPLATE_INVALID components[0].text']);
});
test('header text: may start or end with its variable', () => {
  assert.deepEqual(edit(0, { text: '{{1}} deals' }), []);
  assert.deepEqual(edit(0, { text: 'Deals for {{1}}' }), []);
});
test('header text: a variable needs header_text with one example', () => {
  assert.deepEqual(where(edit(0, { example: undefined })), ['TEMPLATE_INVALID components[0].example.header_text']);
  assert.deepEqual(where(edit(0, { example: { header_text: ['a', 'b'] } })), ['TEMPLATE_INVALID components[0].example.header_text']);
  assert.deepEqual(where(edit(0, { example: { header_text: [''] } })), ['TEMPLATE_INVALID components[0].example.header_text[0]']);
});
test('media header: needs one header_handle', () => {
  assert.deepEqual(edit(0, { format: 'IMAGE', text: undefined, example: { header_handle: ['4::aW'] } }), []);
  assert.deepEqual(where(edit(0, { format: 'IMAGE', text: undefined, example: undefined })), ['TEMPLATE_INVALID components[0].example.header_handle']);
  assert.deepEqual(where(edit(0, { format: 'VIDEO', example: { header_handle: ['a', 'b'] } })), ['TEMPLATE_INVALID components[0].example.header_handle']);
});
test('media header: requireHeaderHandle false skips the handle check (family B sends file_handle)', () => {
  assert.deepEqual(edit(0, { format: 'DOCUMENT', text: undefined, example: undefined }, { requireHeaderHandle: false }), []);
});
test('LOCATION header: passes without example, not in AUTHENTICATION templates', () => {
  assert.deepEqual(edit(0, { format: 'LOCATION', text: undefined, example: undefined }), []);
  const t = template();
  t.category = 'AUTHENTICATION';
  t.components[0] = { type: 'HEADER', format: 'LOCATION' };
  assert.deepEqual(where(validateTemplate(t, { allowedCategories: ['AUTHENTICATION'] })), ['TEMPLATE_INVALID components[0].format']);
});

// Body
test('body: 1,024 characters pass, 1,025 fail (emoji count once)', () => {
  assert.deepEqual(edit(1, body('🍺'.repeat(1024))), []);
  assert.deepEqual(where(edit(1, body('x'.repeat(1025)))), ['TEMPLATE_INVALID components[1].text']);
});
test('body: empty text fails', () => {
  assert.deepEqual(where(edit(1, body('  '))), ['TEMPLATE_INVALID components[1].text']);
});
test('body: placeholders numbered with a gap fail', () => {
  assert.deepEqual(where(edit(1, body('Hi {{1}}, code {{3}} today', ['a', 'b']))), ['TEMPLATE_INVALID components[1].text']);
  assert.deepEqual(where(edit(1, body('Hi {{2}}, code {{3}} today', ['a', 'b']))), ['TEMPLATE_INVALID components[1].text']);
});
test('body: placeholders out of textual order but without gaps pass', () => {
  assert.deepEqual(edit(1, body('Hi {{2}}, code {{1}} today', ['a', 'b'])), []);
});
test('body: a repeated placeholder is one variable', () => {
  assert.deepEqual(edit(1, body('Hi {{1}}, yes {{1}} today', ['a'])), []);
});
test('body: must not start with a parameter', () => {
  assert.deepEqual(where(edit(1, body(' {{1}}, your code is ready', ['a']))), ['TEMPLATE_INVALID components[1].text']);
});
test('body: must not end with a parameter', () => {
  assert.deepEqual(where(edit(1, body('Your code is {{1}}\n', ['a']))), ['TEMPLATE_INVALID components[1].text']);
});
test('body: punctuation after the last parameter is enough', () => {
  assert.deepEqual(edit(1, body('Your code is {{1}}.', ['a'])), []);
});
test('body: two parameters side by side fail', () => {
  assert.deepEqual(where(edit(1, body('Hi {{1}} {{2}}, welcome', ['a', 'b']))), ['TEMPLATE_INVALID components[1].text']);
});
test('body: parameters separated by a character pass', () => {
  assert.deepEqual(edit(1, body('Flight {{1}}-{{2}} today', ['a', 'b'])), []);
});
test('body: malformed placeholders fail', () => {
  for (const text of ['Hi {{ 1 }} there', 'Hi {{#}} there', 'Hi {{0}} there', 'Hi {{1} there', 'Hi {{First}} there']) {
    assert.deepEqual(where(edit(1, body(text))), ['TEMPLATE_INVALID components[1].text'], text);
  }
});
test('body: at most 4 parameters by default', () => {
  const text = 'a {{1}} b {{2}} c {{3}} d {{4}} e {{5}} f';
  assert.deepEqual(where(edit(1, body(text, ['1', '2', '3', '4', '5']))), ['TEMPLATE_INVALID components[1].text']);
  assert.deepEqual(edit(1, body(text, ['1', '2', '3', '4', '5']), { maxBodyParams: 5 }), []);
  assert.deepEqual(edit(1, body('a {{1}} b {{2}} c {{3}} d {{4}} e', ['1', '2', '3', '4'])), []);
});
test('body: a variable needs body_text with one example per variable', () => {
  assert.deepEqual(where(edit(1, { example: undefined })), ['TEMPLATE_INVALID components[1].example.body_text']);
  assert.deepEqual(where(edit(1, { example: { body_text: [['a', 'b']] } })), ['TEMPLATE_INVALID components[1].example.body_text']);
  assert.deepEqual(where(edit(1, { example: { body_text: [['a', '', 'c']] } })), ['TEMPLATE_INVALID components[1].example.body_text[0][1]']);
});
test('body: requireExamples false accepts variables without examples', () => {
  assert.deepEqual(edit(1, { example: undefined }, { requireExamples: false }), []);
});
test('named parameters pass with a named example for each', () => {
  const t = template();
  t.components[0] = { type: 'HEADER', format: 'TEXT', text: 'Sale on {{day}}', example: { header_text_named_params: [{ param_name: 'day', example: 'Monday' }] } };
  t.components[1] = { type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} ships.', example: { body_text_named_params: [
    { param_name: 'first_name', example: 'Pablo' }, { param_name: 'order_id', example: '86019' },
  ] } };
  assert.deepEqual(validateTemplate(t), []);
});
test('named parameters need an example for every name', () => {
  const t = template();
  t.components[0] = { type: 'HEADER', format: 'TEXT', text: 'Big sale' };
  t.components[1] = { type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} ships.', example: { body_text_named_params: [{ param_name: 'first_name', example: 'P' }] } };
  assert.deepEqual(where(validateTemplate(t)), ['TEMPLATE_INVALID components[1].example.body_text_named_params']);
});
test('mixing positional and named parameters fails', () => {
  assert.deepEqual(where(edit(1, { text: 'Hi {{1}}, order {{order_id}} ships.', example: { body_text: [['a']] } })), ['TEMPLATE_INVALID components[1].text']);
  assert.deepEqual(where(edit(1, { text: 'Hi {{name}}, welcome.', example: { body_text_named_params: [{ param_name: 'name', example: 'a' }] } })),
    ['TEMPLATE_INVALID components[1].text']);
});

// Footer
test('footer: 60 characters pass, 61 fail', () => {
  assert.deepEqual(edit(2, { text: 'f'.repeat(60) }), []);
  assert.deepEqual(where(edit(2, { text: 'f'.repeat(61) })), ['TEMPLATE_INVALID components[2].text']);
});
test('footer: variables fail', () => {
  assert.deepEqual(where(edit(2, { text: 'Bye {{1}} now' })), ['TEMPLATE_INVALID components[2].text']);
});
test('footer: empty text fails', () => {
  assert.deepEqual(where(edit(2, { text: '' })), ['TEMPLATE_INVALID components[2].text']);
});
