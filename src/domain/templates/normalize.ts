/**
 * Raw JSON components → the stored form. Component `type`, button `type` and header `format` are accepted
 * in any case (v2 sends `carousel`, `header`, `url`…) and stored upper case; unknown keys are dropped.
 * Never throws: a bad shape is an error element naming the field, and the walk goes on.
 *
 * Named texts (`{{first_name}}`): the examples may come in the network's named form
 * (`body_text_named_params` / `header_text_named_params`, `[{param_name, example}]`) or in the positional
 * form (`body_text: [[…]]` / `header_text: […]`) holding one value per name in order of first appearance;
 * the positional form is turned into the named one when the count fits (otherwise the rules report it).
 * When a named text has both forms, the named form is kept.
 */
import type { ErrorElement } from '../../errors.js';
import { usesNamed, variableNames } from './placeholders.js';
import {
  BUTTON_TYPES, COMPONENT_TYPES, HEADER_FORMATS,
  type BodyComponent, type Button, type Component, type FooterComponent, type HeaderComponent, type NamedParamExample,
} from './types.js';

/** BUTTONS while validating: a `null` slot stands for an unusable input button, so indexes stay the input's. */
export interface DraftButtons {
  type: 'BUTTONS';
  buttons: (Button | null)[];
}
/** A component allowed inside a carousel card. */
export type DraftCardComponent = HeaderComponent | BodyComponent | DraftButtons;
/** A carousel card while validating (`null` slots as in `DraftButtons`). */
export interface DraftCard {
  components: (DraftCardComponent | null)[];
}
/** CAROUSEL while validating. */
export interface DraftCarousel {
  type: 'CAROUSEL';
  cards: (DraftCard | null)[];
}
/** A normalised component that may still hold `null` slots. */
export type DraftComponent = HeaderComponent | BodyComponent | FooterComponent | DraftButtons | DraftCarousel;

type Raw = Record<string, unknown>;

function isRecord(value: unknown): value is Raw {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function upper(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim().toUpperCase() : undefined;
}

function oneOf<T extends string>(value: string, allowed: readonly T[]): value is T {
  return (allowed as readonly string[]).includes(value);
}

/**
 * Positional-style examples of a named text as named examples: one value per name in order of first
 * appearance. Undefined when the text is not named or the count does not fit (the rules then name the field).
 */
function namedFromValues(text: string | undefined, values: string[] | undefined): NamedParamExample[] | undefined {
  if (values === undefined || !usesNamed(text)) return undefined;
  const names = variableNames(text ?? '');
  if (values.length !== names.length) return undefined;
  return names.map((param_name, k) => ({ param_name, example: values[k] }));
}

class Walker {
  readonly errors: ErrorElement[] = [];

  fail(field: string, message: string): void {
    this.errors.push({ code: 'TEMPLATE_INVALID', message, field });
  }

  /** A string field; '' (with an error) when required and missing, undefined when optional and missing. */
  text(obj: Raw, key: string, path: string, required: true): string;
  text(obj: Raw, key: string, path: string, required: false): string | undefined;
  text(obj: Raw, key: string, path: string, required: boolean): string | undefined {
    const value = obj[key];
    if (value === undefined || value === null) {
      if (required) this.fail(`${path}.${key}`, `${key} is required`);
      return required ? '' : undefined;
    }
    if (typeof value !== 'string') {
      this.fail(`${path}.${key}`, `${key} must be a string`);
      return required ? '' : undefined;
    }
    return value;
  }

  /** A list of strings; a lone string is taken as a list of one. */
  strings(value: unknown, path: string): string[] | undefined {
    if (value === undefined || value === null) return undefined;
    if (typeof value === 'string') return [value];
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
    this.fail(path, 'must be an array of strings');
    return undefined;
  }

  /** `body_text`: a list of rows of strings; a flat list of strings is taken as one row. */
  rows(value: unknown, path: string): string[][] | undefined {
    if (value === undefined || value === null) return undefined;
    if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return [value as string[]];
    if (Array.isArray(value) && value.every((r) => Array.isArray(r) && r.every((v) => typeof v === 'string'))) {
      return value as string[][];
    }
    this.fail(path, 'must be an array of arrays of strings');
    return undefined;
  }

  named(value: unknown, path: string): NamedParamExample[] | undefined {
    if (value === undefined || value === null) return undefined;
    const ok = Array.isArray(value) && value.every(
      (p) => isRecord(p) && typeof p.param_name === 'string' && typeof p.example === 'string',
    );
    if (!ok) {
      this.fail(path, 'must be an array of {param_name, example} strings');
      return undefined;
    }
    return (value as Raw[]).map((p) => ({ param_name: p.param_name as string, example: p.example as string }));
  }

  example(obj: Raw, path: string): Raw | undefined {
    const value = obj.example;
    if (value === undefined || value === null) return undefined;
    if (isRecord(value)) return value;
    this.fail(`${path}.example`, 'example must be an object');
    return undefined;
  }

  header(obj: Raw, path: string): HeaderComponent | null {
    const format = upper(obj.format);
    if (format === undefined) {
      this.fail(`${path}.format`, `format is required: one of ${HEADER_FORMATS.join(', ')}`);
      return null;
    }
    if (!oneOf(format, HEADER_FORMATS)) {
      this.fail(`${path}.format`, `unknown header format "${format}": expected one of ${HEADER_FORMATS.join(', ')}`);
      return null;
    }
    const out: HeaderComponent = { type: 'HEADER', format };
    if (format === 'TEXT') out.text = this.text(obj, 'text', path, true);
    const ex = this.example(obj, path);
    if (ex && format === 'TEXT') {
      const headerText = this.strings(ex.header_text, `${path}.example.header_text`);
      const named = this.named(ex.header_text_named_params, `${path}.example.header_text_named_params`);
      const asNamed = usesNamed(out.text) ? named ?? namedFromValues(out.text, headerText) : undefined;
      out.example = asNamed
        ? { header_text_named_params: asNamed }
        : { ...(headerText && { header_text: headerText }), ...(named && { header_text_named_params: named }) };
    } else if (ex && format !== 'LOCATION') {
      const handle = this.strings(ex.header_handle, `${path}.example.header_handle`);
      out.example = handle ? { header_handle: handle } : {};
    }
    return out;
  }

  body(obj: Raw, path: string): BodyComponent {
    const out: BodyComponent = { type: 'BODY', text: this.text(obj, 'text', path, true) };
    const ex = this.example(obj, path);
    if (ex) {
      const bodyText = this.rows(ex.body_text, `${path}.example.body_text`);
      const named = this.named(ex.body_text_named_params, `${path}.example.body_text_named_params`);
      const asNamed = usesNamed(out.text) ? named ?? namedFromValues(out.text, bodyText?.[0]) : undefined;
      out.example = asNamed
        ? { body_text_named_params: asNamed }
        : { ...(bodyText && { body_text: bodyText }), ...(named && { body_text_named_params: named }) };
    }
    return out;
  }

  button(raw: unknown, path: string): Button | null {
    if (!isRecord(raw)) {
      this.fail(path, 'a button must be an object');
      return null;
    }
    const type = upper(raw.type);
    if (type === undefined) {
      this.fail(`${path}.type`, `type is required: one of ${BUTTON_TYPES.join(', ')}`);
      return null;
    }
    switch (type) {
      case 'URL': {
        const example = this.strings(raw.example, `${path}.example`);
        const out: Button = { type, text: this.text(raw, 'text', path, true), url: this.text(raw, 'url', path, true) };
        return example ? { ...out, example } : out;
      }
      case 'PHONE_NUMBER':
        return { type, text: this.text(raw, 'text', path, true), phone_number: this.text(raw, 'phone_number', path, true) };
      case 'COPY_CODE': {
        const example = this.text(raw, 'example', path, false);
        return example === undefined ? { type } : { type, example };
      }
      case 'QUICK_REPLY':
        return { type, text: this.text(raw, 'text', path, true) };
      case 'REQUEST_CONTACT_INFO': {
        // The network's button takes nothing but its type; anything else is refused rather than dropped unseen.
        const extra = Object.keys(raw).filter((k) => k !== 'type');
        for (const key of extra) this.fail(`${path}.${key}`, 'a REQUEST_CONTACT_INFO button cannot be customised: it takes only its type');
        return { type };
      }
      default:
        this.fail(`${path}.type`, `unknown button type "${type}": expected one of ${BUTTON_TYPES.join(', ')}`);
        return null;
    }
  }

  list(obj: Raw, key: string, path: string): unknown[] {
    const value = obj[key];
    if (Array.isArray(value)) return value;
    this.fail(`${path}.${key}`, `${key} must be an array`);
    return [];
  }

  card(raw: unknown, path: string): DraftCard | null {
    if (!isRecord(raw)) {
      this.fail(path, 'a card must be an object');
      return null;
    }
    const components = this.list(raw, 'components', path).map((c, i) => this.component(c, `${path}.components[${i}]`, true));
    return { components: components as (DraftCardComponent | null)[] };
  }

  component(raw: unknown, path: string, inCard: boolean): DraftComponent | null {
    if (!isRecord(raw)) {
      this.fail(path, 'a component must be an object');
      return null;
    }
    const type = upper(raw.type);
    if (type === undefined) {
      this.fail(`${path}.type`, `type is required: one of ${COMPONENT_TYPES.join(', ')}`);
      return null;
    }
    if (!oneOf(type, COMPONENT_TYPES)) {
      this.fail(`${path}.type`, `unknown component type "${type}": expected one of ${COMPONENT_TYPES.join(', ')}`);
      return null;
    }
    if (inCard && (type === 'FOOTER' || type === 'CAROUSEL')) {
      this.fail(`${path}.type`, `a carousel card holds only HEADER, BODY and BUTTONS, not ${type}`);
      return null;
    }
    switch (type) {
      case 'HEADER':
        return this.header(raw, path);
      case 'BODY':
        return this.body(raw, path);
      case 'FOOTER':
        return { type, text: this.text(raw, 'text', path, true) };
      case 'BUTTONS':
        return { type, buttons: this.list(raw, 'buttons', path).map((b, i) => this.button(b, `${path}.buttons[${i}]`)) };
      case 'CAROUSEL':
        return { type, cards: this.list(raw, 'cards', path).map((c, i) => this.card(c, `${path}.cards[${i}]`)) };
    }
  }
}

/** Normalises keeping `null` slots for unusable items, so later rules can name input indexes. */
export function normalizeDraft(raw: unknown, path = 'components'): { components: (DraftComponent | null)[]; errors: ErrorElement[] } {
  const walker = new Walker();
  if (!Array.isArray(raw)) {
    walker.fail(path, 'components must be an array');
    return { components: [], errors: walker.errors };
  }
  const components = raw.map((c, i) => walker.component(c, `${path}[${i}]`, false));
  return { components, errors: walker.errors };
}

function present<T>(value: T | null): value is T {
  return value !== null;
}

function finish(draft: DraftComponent): Component {
  if (draft.type === 'BUTTONS') return { type: 'BUTTONS', buttons: draft.buttons.filter(present) };
  if (draft.type === 'CAROUSEL') {
    const cards = draft.cards.filter(present).map((card) => ({ components: card.components.filter(present).map(finish) }));
    return { type: 'CAROUSEL', cards };
  }
  return draft;
}

/** Raw JSON components (any case) → stored upper-case components, plus every shape error found. */
export function normalizeComponents(raw: unknown): { components: Component[]; errors: ErrorElement[] } {
  const { components, errors } = normalizeDraft(raw);
  return { components: components.filter(present).map(finish), errors };
}
