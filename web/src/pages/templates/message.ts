/**
 * A template with values, as a WhatsApp message shows it: header, body, footer, buttons, carousel cards.
 * Pure: the preview component draws the result. Values are looked up by the send column of each
 * variable (`BODY.1`, `HEADER.1`, `BUTTONS.0`, `CAROUSEL.1.BODY.1`, `HEADER` for a media header); a
 * missing value leaves the `{{1}}` in place and is listed in `missing`. `formatSpans` splits a text into
 * WhatsApp's *bold*, _italic_, ~strike~ and ```mono``` runs.
 */
import { isPositional, variableNames, MEDIA_FORMATS, type ShownButton, type ShownComponent } from './types.js';

/** A header as shown. */
export type HeaderView =
  | { kind: 'text'; text: string }
  | { kind: 'media'; format: string; src: string | null }
  | { kind: 'location' };

/** A button as shown. */
export interface ButtonView {
  type: string;
  label: string;
  /** Where it leads: the URL with its suffix, the phone number, the code to copy. */
  detail: string | null;
}

/** One carousel card as shown. */
export interface CardView {
  header: HeaderView | null;
  body: string;
  buttons: ButtonView[];
}

/** A whole message as shown. */
export interface MessageView {
  header: HeaderView | null;
  body: string;
  footer: string | null;
  buttons: ButtonView[];
  cards: CardView[];
  /** Send columns with no value (their `{{…}}` stays in the text). */
  missing: string[];
}

/** Value of a send column, or undefined. */
export type ValueOf = (column: string) => string | undefined;

const TOKEN = /\{\{([^{}]*)\}\}/g;

function fill(text: string, prefix: string, valueOf: ValueOf, missing: string[]): string {
  const names = variableNames(text);
  return text.replace(TOKEN, (whole, name: string) => {
    const k = names.indexOf(name);
    if (k < 0) return whole;
    const column = `${prefix}.${isPositional(name) ? k + 1 : name}`;
    const v = valueOf(column) ?? (isPositional(name) ? undefined : valueOf(`${prefix}.${k + 1}`));
    if (v === undefined || v === '') {
      if (!missing.includes(column)) missing.push(column);
      return whole;
    }
    return v;
  });
}

function button(b: ShownButton, column: string, valueOf: ValueOf, missing: string[]): ButtonView {
  const type = b.type.toUpperCase();
  if (type === 'URL') {
    const url = b.url ?? '';
    const hasVar = variableNames(url).length > 0;
    const v = hasVar ? valueOf(column) : undefined;
    if (hasVar && (v === undefined || v === '') && !missing.includes(column)) missing.push(column);
    return { type, label: b.text ?? '', detail: hasVar && v ? url.replace(TOKEN, v) : url };
  }
  if (type === 'PHONE_NUMBER') return { type, label: b.text ?? '', detail: b.phone_number ?? null };
  if (type === 'COPY_CODE') {
    const v = valueOf(column);
    if ((v === undefined || v === '') && !missing.includes(column)) missing.push(column);
    const example = Array.isArray(b.example) ? b.example[0] : b.example;
    return { type, label: 'Copy offer code', detail: v || example || null };
  }
  if (type === 'REQUEST_CONTACT_INFO') return { type, label: 'Share phone number', detail: null };
  return { type, label: b.text ?? '', detail: null };
}

interface Scope {
  header: HeaderView | null;
  body: string;
  footer: string | null;
  buttons: ButtonView[];
}

function scope(components: ShownComponent[], prefix: string, valueOf: ValueOf, missing: string[]): Scope {
  const out: Scope = { header: null, body: '', footer: null, buttons: [] };
  const p = prefix ? `${prefix}.` : '';
  for (const c of components) {
    const type = c.type.toUpperCase();
    const format = (c.format ?? '').toUpperCase();
    if (type === 'HEADER' && format === 'TEXT') out.header = { kind: 'text', text: fill(c.text ?? '', `${p}HEADER`, valueOf, missing) };
    else if (type === 'HEADER' && MEDIA_FORMATS.includes(format)) {
      const v = valueOf(`${p}HEADER`);
      if (!v && !missing.includes(`${p}HEADER`)) missing.push(`${p}HEADER`);
      const src = v && /^(https?:|blob:|data:)/i.test(v) ? v : null;
      out.header = { kind: 'media', format, src };
    } else if (type === 'HEADER' && format === 'LOCATION') out.header = { kind: 'location' };
    else if (type === 'BODY') out.body = fill(c.text ?? '', `${p}BODY`, valueOf, missing);
    else if (type === 'FOOTER') out.footer = c.text ?? '';
    else if (type === 'BUTTONS') out.buttons = (c.buttons ?? []).map((b, i) => button(b, `${p}BUTTONS.${i}`, valueOf, missing));
  }
  return out;
}

/** The message a template makes with the given values. */
export function renderMessage(components: ShownComponent[], valueOf: ValueOf = () => undefined): MessageView {
  const missing: string[] = [];
  const top = scope(components.filter((c) => c.type.toUpperCase() !== 'CAROUSEL'), '', valueOf, missing);
  const carousel = components.find((c) => c.type.toUpperCase() === 'CAROUSEL');
  const cards = (carousel?.cards ?? []).map((card, i) => {
    const s = scope(card.components, `CAROUSEL.${i}`, valueOf, missing);
    return { header: s.header, body: s.body, buttons: s.buttons };
  });
  return { ...top, cards, missing };
}

/**
 * The template's own examples as values (what the network reviewed), so a template can be previewed
 * without a recipient: body/header examples, URL examples, copy codes, header handles are not shown.
 */
export function exampleValues(components: ShownComponent[]): Record<string, string> {
  const values: Record<string, string> = {};
  const fromScope = (list: ShownComponent[], p: string) => {
    for (const c of list) {
      const type = c.type.toUpperCase();
      if (type === 'BODY' || (type === 'HEADER' && (c.format ?? '').toUpperCase() === 'TEXT')) {
        const part = type === 'BODY' ? 'BODY' : 'HEADER';
        const positional = type === 'BODY' ? c.example?.body_text?.[0] : c.example?.header_text;
        const named = type === 'BODY' ? c.example?.body_text_named_params : c.example?.header_text_named_params;
        variableNames(c.text).forEach((name, k) => {
          const v = isPositional(name) ? positional?.[k] : named?.find((e) => e.param_name === name)?.example ?? positional?.[k];
          if (v) values[`${p}${part}.${isPositional(name) ? k + 1 : name}`] = v;
        });
      } else if (type === 'BUTTONS') {
        (c.buttons ?? []).forEach((b, i) => {
          const example = Array.isArray(b.example) ? b.example[0] : b.example;
          if (example) values[`${p}BUTTONS.${i}`] = example;
        });
      }
    }
  };
  fromScope(components.filter((c) => c.type.toUpperCase() !== 'CAROUSEL'), '');
  const carousel = components.find((c) => c.type.toUpperCase() === 'CAROUSEL');
  (carousel?.cards ?? []).forEach((card, i) => fromScope(card.components, `CAROUSEL.${i}.`));
  return values;
}

/** A run of text with WhatsApp formatting. */
export interface Span {
  text: string;
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  mono?: boolean;
}

const MARKS: [string, keyof Omit<Span, 'text'>][] = [['```', 'mono'], ['*', 'bold'], ['_', 'italic'], ['~', 'strike']];

/**
 * Splits a text into formatted runs: a marker pair (`*…*`, `_…_`, `~…~`, ```` ```…``` ````) on one line with
 * text between formats that text; markers may nest (`*_a_*`); an unpaired marker stays as written.
 */
export function formatSpans(text: string, style: Omit<Span, 'text'> = {}): Span[] {
  const spans: Span[] = [];
  let plain = '';
  let i = 0;
  const flush = () => {
    if (plain) spans.push({ text: plain, ...style });
    plain = '';
  };
  while (i < text.length) {
    const mark = MARKS.find(([m]) => text.startsWith(m, i));
    if (mark) {
      const [m, key] = mark;
      const end = text.indexOf(m, i + m.length);
      const inner = end > i + m.length ? text.slice(i + m.length, end) : '';
      if (inner && !inner.includes('\n') && inner.trim() === inner) {
        flush();
        spans.push(...(key === 'mono' ? [{ text: inner, ...style, mono: true }] : formatSpans(inner, { ...style, [key]: true })));
        i = end + m.length;
        continue;
      }
    }
    plain += text[i];
    i += 1;
  }
  flush();
  return spans;
}
