/** Template variables (`{{1}}`, `{{first_name}}`) and how many send parameters a component needs. */
import type { Button, Component } from './types.js';

/** One `{{…}}` occurrence in a text. */
export interface Placeholder {
  /** What stands between the braces: `1`, `first_name`, or anything else for an invalid one. */
  name: string;
  /** `positional` ({{1}}, {{2}}…), `named` ({{lower_snake}}) or `invalid` (`{{ 1 }}`, `{{#}}`, `{{0}}`…). */
  form: 'positional' | 'named' | 'invalid';
  /** Offset of the first `{`. */
  start: number;
  /** Offset just after the last `}`. */
  end: number;
}

const TOKEN = /\{\{([^{}]*)\}\}/g;
const POSITIONAL = /^[1-9][0-9]*$/;
const NAMED = /^[a-z][a-z0-9_]*$/;

/**
 * Texts already read (a template's few texts are read again for every row of a bulk send, and parsing them each
 * time is a visible share of a large start's CPU). Bounded: emptied when full. The arrays are frozen, shared by
 * every caller.
 */
const placeholderCache = new Map<string, { tokens: readonly Placeholder[]; names: readonly string[] }>();
const CACHED_TEXTS = 512;

function placeholdersOf(text: string): { tokens: readonly Placeholder[]; names: readonly string[] } {
  let entry = placeholderCache.get(text);
  if (!entry) {
    const tokens: Placeholder[] = [];
    for (const match of text.matchAll(TOKEN)) {
      const name = match[1];
      const form = POSITIONAL.test(name) ? 'positional' : NAMED.test(name) ? 'named' : 'invalid';
      const start = match.index ?? 0;
      tokens.push(Object.freeze({ name, form, start, end: start + match[0].length }));
    }
    const names = [...new Set(tokens.filter((p) => p.form !== 'invalid').map((p) => p.name))];
    entry = { tokens: Object.freeze(tokens), names: Object.freeze(names) };
    if (placeholderCache.size >= CACHED_TEXTS) placeholderCache.clear();
    placeholderCache.set(text, entry);
  }
  return entry;
}

/** Every `{{…}}` token of a text, in order, classified by form. */
export function extractPlaceholders(text: string): readonly Placeholder[] {
  return placeholdersOf(text).tokens;
}

/** Distinct valid variable names of a text in order of first appearance (`{{1}} {{1}}` is one variable). */
export function variableNames(text: string): readonly string[] {
  return placeholdersOf(text).names;
}

/** True for a positional variable name (`1`, `2`, …), false for a named one (`first_name`). */
export function isPositionalName(name: string): boolean {
  return POSITIONAL.test(name);
}

/** True when `{{` or `}}` is left once the well-formed tokens are removed (e.g. `{{1}`, `{{1}}}}`). */
export function hasStrayBraces(text: string): boolean {
  const rest = text.replace(TOKEN, ' ');
  return rest.includes('{{') || rest.includes('}}');
}

/** Length as the user sees it: Unicode code points, so an emoji counts once. */
export function textLength(text: string): number {
  // Counted without splitting the text: each surrogate pair is one code point, a lone surrogate one too.
  let length = text.length;
  for (let i = 0; i < text.length - 1; i += 1) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        length -= 1;
        i += 1;
      }
    }
  }
  return length;
}

/**
 * Number of parameters a send must supply for a component or button: distinct variables of a TEXT header,
 * BODY or URL; 1 for a media or LOCATION header (the file or place is chosen at send time) and for a
 * COPY_CODE button (the code); 0 for FOOTER, QUICK_REPLY, PHONE_NUMBER and REQUEST_CONTACT_INFO; BUTTONS and CAROUSEL add up
 * their parts.
 */
export function countVariables(item: Component | Button): number {
  switch (item.type) {
    case 'HEADER':
      return item.format === 'TEXT' ? variableNames(item.text ?? '').length : 1;
    case 'BODY':
      return variableNames(item.text).length;
    case 'URL':
      return variableNames(item.url).length;
    case 'COPY_CODE':
      return 1;
    case 'FOOTER':
    case 'QUICK_REPLY':
    case 'PHONE_NUMBER':
    case 'REQUEST_CONTACT_INFO':
      return 0;
    case 'BUTTONS':
      return item.buttons.reduce((sum, b) => sum + countVariables(b), 0);
    case 'CAROUSEL':
      return item.cards.reduce((sum, card) => sum + card.components.reduce((s, c) => s + countVariables(c), 0), 0);
  }
}

/** The network's `parameter_format` values. */
export type ParameterFormat = 'POSITIONAL' | 'NAMED';

/** True when a text uses named placeholders (`{{first_name}}`). */
export function usesNamed(text: string | undefined): boolean {
  return extractPlaceholders(text ?? '').some((p) => p.form === 'named');
}

/**
 * A template's `parameter_format`: NAMED when a stored value says so or when any TEXT header or BODY
 * (top level or in a carousel card) uses named placeholders; POSITIONAL otherwise. Works for templates
 * created here and for templates imported from the WABA (whose stored value may be missing).
 */
export function parameterFormatOf(components: readonly Component[], stored?: string | null): ParameterFormat {
  if (stored === 'NAMED') return 'NAMED';
  const named = (list: readonly Component[]): boolean =>
    list.some((c) =>
      (c.type === 'BODY' && usesNamed(c.text)) ||
      (c.type === 'HEADER' && c.format === 'TEXT' && usesNamed(c.text)) ||
      (c.type === 'CAROUSEL' && c.cards.some((card) => named(card.components))));
  return named(components) ? 'NAMED' : 'POSITIONAL';
}
