/**
 * Template creation rules: the network's (research §2 creation limits, DESIGN §5) plus the service's own
 * (body parameters ≤ 4 by default, MARKETING only). Every error names its field, e.g.
 * `components[1].buttons[0].url`; all errors are returned, in a fixed order.
 */
import type { ErrorElement } from '../../errors.js';
import { CREATION_CATEGORIES } from './categories.js';
import { isLanguage, normalizeLocale } from './languages.js';
import { normalizeDraft, type DraftButtons, type DraftCard, type DraftCarousel, type DraftComponent } from './normalize.js';
import { extractPlaceholders, hasStrayBraces, textLength, variableNames } from './placeholders.js';
import type { BodyComponent, Button, HeaderComponent, NamedParamExample } from './types.js';

/** The network's creation limits (characters are Unicode code points). */
export const TEMPLATE_LIMITS = {
  name: 512, headerText: 60, bodyText: 1024, cardBodyText: 160, footerText: 60, buttons: 10, cardButtons: 2,
  quickReplies: 10, urlButtons: 2, phoneButtons: 1, copyCodeButtons: 1, buttonLabel: 25, url: 2000,
  phoneNumber: 20, copyCode: 20, minCards: 2, maxCards: 10,
} as const;

/** Knobs of `validateTemplate`; the defaults are the service's creation rules. */
export interface TemplateRuleOptions {
  /** Most variables in one BODY (the interface's limit; top-level and card bodies alike). Default 4. */
  maxBodyParams?: number;
  /** Categories a creation may use. Default: MARKETING only. */
  allowedCategories?: readonly string[];
  /** Top-level media headers need `example.header_handle` (false for family B, which sends `file_handle`). Card headers always do. Default true. */
  requireHeaderHandle?: boolean;
  /** Every variable and COPY_CODE button needs an example (the network's creation rule). Default true. */
  requireExamples?: boolean;
}

/** A create request's template fields, straight from JSON. */
export interface TemplateInput {
  name: unknown;
  category: unknown;
  language: unknown;
  components: unknown;
}

const LIMIT_ONE = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'CAROUSEL'] as const;
const BUTTON_CAPS: Partial<Record<Button['type'], number>> = {
  URL: TEMPLATE_LIMITS.urlButtons, PHONE_NUMBER: TEMPLATE_LIMITS.phoneButtons, COPY_CODE: TEMPLATE_LIMITS.copyCodeButtons,
};

/** Name rules: lower-case letters, digits and `_`, 1–512 characters (code TEMPLATE_NAME_INVALID, field `name`). */
export function validateTemplateName(name: unknown): ErrorElement[] {
  const fail = (message: string): ErrorElement => ({ code: 'TEMPLATE_NAME_INVALID', message, field: 'name' });
  if (typeof name !== 'string' || name.length === 0) return [fail('name is required')];
  const errors: ErrorElement[] = [];
  if (name.length > TEMPLATE_LIMITS.name) errors.push(fail(`name is longer than ${TEMPLATE_LIMITS.name} characters`));
  if (!/^[a-z0-9_]+$/.test(name)) errors.push(fail('name may contain only lower-case letters a-z, digits and _'));
  return errors;
}

class Rules {
  readonly errors: ErrorElement[] = [];
  /** The parameter form the template's texts use so far (mixing positional and named is an error). */
  private form: 'positional' | 'named' | undefined;

  constructor(
    private readonly category: unknown,
    private readonly maxBodyParams: number,
    private readonly requireHeaderHandle: boolean,
    private readonly requireExamples: boolean,
  ) {}

  fail(field: string, message: string): void {
    this.errors.push({ code: 'TEMPLATE_INVALID', message, field });
  }

  /** Fails when `value` is longer than `max` characters. */
  length(value: string, max: number, field: string, what: string): void {
    if (textLength(value) > max) this.fail(field, `${what} is longer than ${max} characters`);
  }

  /** Placeholder syntax, one form per template, numbering from 1 without gaps, no two side by side, edges. */
  variables(text: string, field: string, edges: boolean): void {
    const all = extractPlaceholders(text);
    for (const p of all) {
      if (p.form === 'invalid') this.fail(field, `"{{${p.name}}}" is not a parameter: write {{1}}, {{2}}… or {{lower_snake_name}}`);
    }
    if (hasStrayBraces(text)) this.fail(field, 'unbalanced {{ or }}');
    const tokens = all.filter((p) => p.form !== 'invalid');
    const forms = new Set(tokens.map((p) => (p.form === 'named' ? 'named' : 'positional')));
    if (forms.size > 1) this.fail(field, 'mixes positional {{1}} and named {{name}} parameters');
    const [form] = forms;
    if (forms.size === 1 && this.form !== undefined && form !== this.form) {
      this.fail(field, `uses ${form} parameters but the template's other texts use ${this.form} ones`);
    }
    if (forms.size === 1) this.form ??= form;
    const numbers = [...new Set(tokens.filter((p) => p.form === 'positional').map((p) => Number(p.name)))].sort((a, b) => a - b);
    if (numbers.some((n, i) => n !== i + 1)) {
      this.fail(field, `parameters must be numbered from {{1}} without gaps; found ${numbers.map((n) => `{{${n}}}`).join(', ')}`);
    }
    for (let i = 1; i < tokens.length; i++) {
      if (text.slice(tokens[i - 1].end, tokens[i].start).trim() === '') {
        this.fail(field, `two parameters side by side: put text between {{${tokens[i - 1].name}}} and {{${tokens[i].name}}}`);
      }
    }
    if (edges && tokens.length > 0) {
      if (text.slice(0, tokens[0].start).trim() === '') this.fail(field, 'the text must not start with a parameter');
      if (text.slice(tokens[tokens.length - 1].end).trim() === '') this.fail(field, 'the text must not end with a parameter');
    }
  }

  /** One non-empty example per variable: positional `values` or `named` entries. */
  examples(text: string, values: string[] | undefined, valuesField: string, valuePath: (k: number) => string,
    named: NamedParamExample[] | undefined, namedField: string): void {
    const names = variableNames(text);
    if (names.length === 0) return;
    const forms = new Set(extractPlaceholders(text).map((p) => p.form).filter((f) => f !== 'invalid'));
    if (forms.size > 1) return; // reported by variables()
    if (forms.has('positional')) {
      if (named !== undefined) {
        this.fail(namedField, 'named examples are for {{name}} parameters; this text uses {{1}}-style ones: give the positional example values');
      }
      if (values === undefined || values.length === 0) {
        if (this.requireExamples) this.fail(valuesField, `an example value is required for each of the ${names.length} parameter(s)`);
        return;
      }
      if (values.length !== names.length) {
        this.fail(valuesField, `${names.length} example value(s) expected, one per parameter; got ${values.length}`);
      }
      values.forEach((v, k) => {
        if (v.trim() === '') this.fail(valuePath(k), 'an example value must not be empty');
      });
      return;
    }
    if ((named === undefined || named.length === 0) && values !== undefined && values.length > 0) {
      // Positional-style examples of a named text: normalisation converts them when the count fits.
      this.fail(valuesField, `${names.length} example value(s) expected, one per named parameter in order of first appearance (${names.join(', ')}); got ${values.length}`);
      return;
    }
    if (named === undefined || named.length === 0) {
      if (this.requireExamples) this.fail(namedField, `an example is required for each named parameter: ${names.join(', ')}`);
      return;
    }
    const twice = [...new Set(named.map((p) => p.param_name).filter((n, k, all) => all.indexOf(n) !== k))];
    if (twice.length > 0) this.fail(namedField, `each parameter takes one example; given more than once: ${twice.join(', ')}`);
    const given = new Set(named.map((p) => p.param_name));
    const missing = names.filter((n) => !given.has(n));
    const unknown = [...given].filter((n) => !names.includes(n));
    if (missing.length > 0) this.fail(namedField, `no example for parameter(s): ${missing.join(', ')}`);
    if (unknown.length > 0) this.fail(namedField, `examples for parameter(s) not in the text: ${unknown.join(', ')}`);
    named.forEach((p, k) => {
      if (p.example.trim() === '') this.fail(`${namedField}[${k}].example`, 'an example value must not be empty');
    });
  }

  header(h: HeaderComponent, path: string, inCard: boolean): void {
    if (inCard && h.format !== 'IMAGE' && h.format !== 'VIDEO') this.fail(`${path}.format`, 'a card header must be IMAGE or VIDEO');
    if (h.format === 'LOCATION' && this.category === 'AUTHENTICATION') {
      this.fail(`${path}.format`, 'LOCATION headers are only for UTILITY and MARKETING templates');
    }
    if (h.format === 'TEXT') {
      const text = h.text ?? '';
      if (text.trim() === '') this.fail(`${path}.text`, 'header text must not be empty');
      this.length(text, TEMPLATE_LIMITS.headerText, `${path}.text`, 'header text');
      this.variables(text, `${path}.text`, false);
      if (variableNames(text).length > 1) this.fail(`${path}.text`, 'a header takes at most 1 parameter');
      this.examples(text, h.example?.header_text, `${path}.example.header_text`, (k) => `${path}.example.header_text[${k}]`,
        h.example?.header_text_named_params, `${path}.example.header_text_named_params`);
      return;
    }
    if (h.format === 'LOCATION') return;
    const handles = h.example?.header_handle;
    if (handles === undefined || handles.length === 0) {
      if (inCard || this.requireHeaderHandle) {
        this.fail(`${path}.example.header_handle`, `a ${h.format} header needs example.header_handle with the uploaded file's handle`);
      }
    } else if (handles.length !== 1) {
      this.fail(`${path}.example.header_handle`, 'exactly one header_handle is expected');
    } else if (handles[0].trim() === '') {
      this.fail(`${path}.example.header_handle[0]`, 'header_handle must not be empty');
    }
  }

  body(b: BodyComponent, path: string, inCard: boolean): void {
    const max = inCard ? TEMPLATE_LIMITS.cardBodyText : TEMPLATE_LIMITS.bodyText;
    if (b.text.trim() === '') this.fail(`${path}.text`, 'body text must not be empty');
    this.length(b.text, max, `${path}.text`, inCard ? 'card body text' : 'body text');
    this.variables(b.text, `${path}.text`, true);
    const count = variableNames(b.text).length;
    if (count > this.maxBodyParams) this.fail(`${path}.text`, `a body takes at most ${this.maxBodyParams} parameters; found ${count}`);
    this.examples(b.text, b.example?.body_text?.[0], `${path}.example.body_text`, (k) => `${path}.example.body_text[0][${k}]`,
      b.example?.body_text_named_params, `${path}.example.body_text_named_params`);
  }

  footer(text: string, path: string): void {
    if (text.trim() === '') this.fail(`${path}.text`, 'footer text must not be empty');
    this.length(text, TEMPLATE_LIMITS.footerText, `${path}.text`, 'footer text');
    if (extractPlaceholders(text).length > 0 || hasStrayBraces(text)) this.fail(`${path}.text`, 'a footer takes no parameters');
  }

  buttons(c: DraftButtons, path: string, inCard: boolean): void {
    const max = inCard ? TEMPLATE_LIMITS.cardButtons : TEMPLATE_LIMITS.buttons;
    if (c.buttons.length === 0) this.fail(`${path}.buttons`, 'at least one button is required');
    if (c.buttons.length > max) this.fail(`${path}.buttons`, `at most ${max} buttons${inCard ? ' in a card' : ''}; found ${c.buttons.length}`);
    const quickReplies = c.buttons.filter((b) => b?.type === 'QUICK_REPLY').length;
    if (quickReplies > TEMPLATE_LIMITS.quickReplies) this.fail(`${path}.buttons`, `at most ${TEMPLATE_LIMITS.quickReplies} QUICK_REPLY buttons`);
    const seen = new Map<string, number>();
    let group: 'before' | 'in' | 'after' = 'before';
    let groupBroken = false;
    c.buttons.forEach((b, j) => {
      if (b === null) return;
      const at = `${path}.buttons[${j}]`;
      const n = (seen.get(b.type) ?? 0) + 1;
      seen.set(b.type, n);
      const cap = BUTTON_CAPS[b.type];
      if (cap !== undefined && n > cap) this.fail(`${at}.type`, `at most ${cap} ${b.type} button${cap > 1 ? 's' : ''}`);
      if (inCard && (b.type === 'COPY_CODE' || b.type === 'REQUEST_CONTACT_INFO')) this.fail(`${at}.type`, 'card buttons are QUICK_REPLY, URL or PHONE_NUMBER');
      if (b.type === 'REQUEST_CONTACT_INFO' && this.category !== 'MARKETING' && this.category !== 'UTILITY') {
        this.fail(`${at}.type`, 'a REQUEST_CONTACT_INFO button is for UTILITY and MARKETING templates only');
      }
      if (b.type === 'QUICK_REPLY' && group === 'after' && !groupBroken) {
        groupBroken = true;
        this.fail(`${at}.type`, 'QUICK_REPLY buttons must form one group, before or after the other buttons');
      }
      if (b.type === 'QUICK_REPLY') group = 'in';
      else if (group === 'in') group = 'after';
      this.button(b, at);
    });
  }

  button(b: Button, at: string): void {
    if (b.type !== 'COPY_CODE' && b.type !== 'REQUEST_CONTACT_INFO') {
      if (b.text.trim() === '') this.fail(`${at}.text`, 'the button label must not be empty');
      this.length(b.text, TEMPLATE_LIMITS.buttonLabel, `${at}.text`, 'the button label');
    }
    if (b.type === 'URL') this.url(b.url, b.example, at);
    if (b.type === 'PHONE_NUMBER') {
      if (!/^\+?[0-9]+$/.test(b.phone_number)) this.fail(`${at}.phone_number`, 'phone_number is digits with an optional leading +');
      this.length(b.phone_number, TEMPLATE_LIMITS.phoneNumber, `${at}.phone_number`, 'phone_number');
    }
    if (b.type === 'COPY_CODE') {
      if (b.example === undefined) {
        if (this.requireExamples) this.fail(`${at}.example`, 'a COPY_CODE button needs an example code');
      } else if (b.example.trim() === '') this.fail(`${at}.example`, 'the example code must not be empty');
      else this.length(b.example, TEMPLATE_LIMITS.copyCode, `${at}.example`, 'the example code');
    }
  }

  url(url: string, example: string[] | undefined, at: string): void {
    if (url.trim() === '') {
      this.fail(`${at}.url`, 'url is required');
      return;
    }
    this.length(url, TEMPLATE_LIMITS.url, `${at}.url`, 'url');
    const tokens = extractPlaceholders(url);
    if (tokens.some((p) => p.name !== '1') || hasStrayBraces(url)) this.fail(`${at}.url`, 'the only url parameter is {{1}}');
    if (tokens.length > 1) this.fail(`${at}.url`, 'a url takes at most 1 parameter');
    if (tokens.length > 0 && tokens[tokens.length - 1].end !== url.length) {
      this.fail(`${at}.url`, 'the url parameter must be at the end of the url');
    }
    let parsed: URL | undefined;
    try {
      parsed = new URL(url.replace(/\{\{[^{}]*\}\}/g, 'x'));
    } catch {
      parsed = undefined;
    }
    if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') this.fail(`${at}.url`, 'url must be an http:// or https:// address');
    if (tokens.length === 0) return;
    if (example === undefined || example.length === 0) {
      if (this.requireExamples) this.fail(`${at}.example`, 'a url with a parameter needs an example value');
    } else if (example.length !== 1) this.fail(`${at}.example`, 'exactly one url example is expected');
    else if (example[0].trim() === '') this.fail(`${at}.example[0]`, 'the url example must not be empty');
  }

  carousel(c: DraftCarousel, path: string): void {
    const n = c.cards.length;
    if (n < TEMPLATE_LIMITS.minCards || n > TEMPLATE_LIMITS.maxCards) {
      this.fail(`${path}.cards`, `a carousel has ${TEMPLATE_LIMITS.minCards} to ${TEMPLATE_LIMITS.maxCards} cards; found ${n}`);
    }
    c.cards.forEach((card, j) => {
      if (card) this.card(card, `${path}.cards[${j}]`);
    });
    const first = c.cards[0] ? cardShape(c.cards[0]) : undefined;
    c.cards.forEach((card, j) => {
      if (j === 0 || !card || !first) return;
      const shape = cardShape(card);
      // The first difference only: later ones usually follow from it.
      const key = (['components', 'buttons', 'body parameters', 'url parameters'] as const).find((k) => shape[k] !== first[k]);
      if (key) {
        this.fail(`${path}.cards[${j}]`, `cards must be identical in structure: ${key} are [${shape[key]}] here but [${first[key]}] on card 0`);
      }
    });
  }

  card(card: DraftCard, path: string): void {
    const seen = new Set<string>();
    card.components.forEach((c, k) => {
      if (!c) return;
      const at = `${path}.components[${k}]`;
      if (seen.has(c.type)) this.fail(`${at}.type`, `a card has at most one ${c.type}`);
      seen.add(c.type);
      if (c.type === 'HEADER') this.header(c, at, true);
      if (c.type === 'BODY') this.body(c, at, true);
      if (c.type === 'BUTTONS') this.buttons(c, at, true);
    });
    if (!seen.has('HEADER')) this.fail(`${path}.components`, 'a card needs an IMAGE or VIDEO header');
  }

  /** Exactly one BODY; at most one of each other kind; a carousel template is a BODY and the CAROUSEL. */
  composition(components: (DraftComponent | null)[]): void {
    const at = (type: string) => components.flatMap((c, i) => (c?.type === type ? [i] : []));
    for (const type of LIMIT_ONE) {
      for (const i of at(type).slice(1)) this.fail(`components[${i}].type`, `a template has at most one ${type}`);
    }
    if (at('BODY').length === 0) this.fail('components', 'a BODY component is required');
    if (at('CAROUSEL').length === 0) return;
    for (const type of ['HEADER', 'FOOTER', 'BUTTONS']) {
      for (const i of at(type)) this.fail(`components[${i}].type`, `a carousel template has no top-level ${type}: put it in the cards`);
    }
    if (this.category !== 'MARKETING') this.fail('category', 'carousel templates must be MARKETING');
  }
}

/** The shape cards of one carousel must share (compared as strings). */
function cardShape(card: DraftCard): Record<'components' | 'buttons' | 'body parameters' | 'url parameters', string> {
  const comps = card.components.filter((c) => c !== null);
  const buttons = comps.flatMap((c) => (c.type === 'BUTTONS' ? c.buttons : []));
  return {
    components: [...new Set(comps.map((c) => c.type))].sort().join(','),
    buttons: buttons.map((b) => b?.type ?? '?').join(','),
    'body parameters': comps.flatMap((c) => (c.type === 'BODY' ? [variableNames(c.text).length] : [])).join(','),
    'url parameters': buttons.map((b) => (b?.type === 'URL' ? variableNames(b.url).length : '-')).join(','),
  };
}

/** Every rule broken by a template: name, category, language, then each component's errors in order; [] when valid. */
export function validateTemplate(input: TemplateInput, options: TemplateRuleOptions = {}): ErrorElement[] {
  const allowed = options.allowedCategories ?? CREATION_CATEGORIES;
  const errors = validateTemplateName(input.name);
  const { category, language } = input;
  const categoryOk = typeof category === 'string' && allowed.includes(category);
  if (!categoryOk) errors.push({ code: 'TEMPLATE_INVALID', message: `category must be one of ${allowed.join(', ')}`, field: 'category' });
  if (!isLanguage(language)) {
    const hint = typeof language === 'string' && isLanguage(normalizeLocale(language)) ? ` (did you mean ${normalizeLocale(language)}?)` : '';
    errors.push({ code: 'TEMPLATE_INVALID', message: `language must be a code of the languages list${hint}`, field: 'language' });
  }
  const draft = normalizeDraft(input.components);
  const rules = new Rules(category, options.maxBodyParams ?? 4, options.requireHeaderHandle ?? true, options.requireExamples ?? true);
  draft.components.forEach((c, i) => {
    const path = `components[${i}]`;
    if (c?.type === 'HEADER') rules.header(c, path, false);
    if (c?.type === 'BODY') rules.body(c, path, false);
    if (c?.type === 'FOOTER') rules.footer(c.text, path);
    if (c?.type === 'BUTTONS') rules.buttons(c, path, false);
    if (c?.type === 'CAROUSEL') rules.carousel(c, path);
  });
  if (Array.isArray(input.components)) rules.composition(draft.components);
  const shapeFields = new Set(draft.errors.map((e) => e.field));
  const ruleErrors = rules.errors.filter((e) => !shapeFields.has(e.field) && !(e.field === 'category' && !categoryOk));
  // Template fields first, then by component; within a component, shape errors before rule errors.
  const componentIndex = (e: ErrorElement) => Number(/^components\[(\d+)\]/.exec(e.field ?? '')?.[1] ?? -1);
  return [...errors, ...[...draft.errors, ...ruleErrors].sort((a, b) => componentIndex(a) - componentIndex(b))];
}
