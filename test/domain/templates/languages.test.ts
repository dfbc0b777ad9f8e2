import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LANGUAGES, LANGUAGE_CODES, isLanguage, normalizeLocale } from '../../../src/domain/templates/languages.js';

test('the language list holds the network\'s 111 codes, each once', () => {
  assert.equal(LANGUAGES.length, 111);
  assert.equal(new Set(LANGUAGE_CODES).size, 111);
});

test('every language entry has a non-empty value and English title', () => {
  for (const l of LANGUAGES) {
    assert.match(l.value, /^[a-z]{2,3}(_[A-Z]{2})?$/);
    assert.ok(l.title.length > 0);
  }
});

test('language titles name the region of regional variants', () => {
  const title = (code: string) => LANGUAGES.find((l) => l.value === code)?.title;
  assert.equal(title('tr'), 'Turkish');
  assert.equal(title('ar_EG'), 'Arabic (Egypt)');
  assert.equal(title('en_US'), 'English (US)');
  assert.equal(title('pt_BR'), 'Portuguese (Brazil)');
});

test('isLanguage accepts list codes, including the four the interface shows', () => {
  for (const code of ['tr', 'en', 'ar', 'ru', 'en_US', 'prs_AF', 'fil']) assert.equal(isLanguage(code), true, code);
});

test('isLanguage rejects webhook locales, wrong case, unknown codes and non-strings', () => {
  for (const code of ['en-US', 'EN_US', 'en_us', 'xx', '', ' tr', null, 42, undefined]) assert.equal(isLanguage(code), false, String(code));
});

test('normalizeLocale turns webhook locales into API codes', () => {
  assert.equal(normalizeLocale('en-US'), 'en_US');
  assert.equal(normalizeLocale('pt-br'), 'pt_BR');
  assert.equal(normalizeLocale('prs-AF'), 'prs_AF');
  assert.equal(normalizeLocale('en_US'), 'en_US');
});

test('normalizeLocale leaves bare language codes and odd input as they are (trimmed)', () => {
  assert.equal(normalizeLocale('tr'), 'tr');
  assert.equal(normalizeLocale(' fil '), 'fil');
  assert.equal(normalizeLocale('a-b-c'), 'a-b-c');
  assert.equal(normalizeLocale('en-'), 'en-');
});
