/**
 * Send-time parameters: checked against the stored template, then written as the Cloud API's
 * `template.components` (research §4).
 *
 * Accepted input: an array (`undefined`/`null` = no parameters) of entries, `type` in any case:
 *  - `{type:'header'|'body', parameters:[…]}`
 *  - `{type:'button', sub_type?:'url'|'copy_code'|'quick_reply', index:0, parameters:[…]}` (Cloud API form)
 *  - `{type:'BUTTONS', buttons:[{index?, sub_type?, parameters:[…]}]}` (service form; an entry without `index`
 *    is the template's button at the entry's position)
 *  - `{type:'carousel', cards:[{card_index?, components:[header/body/button(s) entries]}]}` (a card without
 *    `card_index` is the card at its position)
 * A parameter is a Cloud API parameter object (`text`, `currency`, `date_time`; `image`/`video`/`document`
 * with `{id}` or `{link}`; `location`; `coupon_code`; `payload`) or a plain string, short for a text
 * parameter (a coupon code on a COPY_CODE button, a payload on a QUICK_REPLY button).
 * Named templates (`{{first_name}}`) need `parameter_name` on each body/header text parameter (any order,
 * each name once); positional templates must not carry `parameter_name` (the network refuses both mistakes).
 */
import { AppError, type ErrorElement } from '../../errors.js';
import { countVariables, extractPlaceholders, textLength, variableNames } from './placeholders.js';
import type { BodyComponent, Button, Component, HeaderComponent, StoredComponents } from './types.js';

/** One parameter as the Cloud API takes it. */
export type NetworkParameter = { type: string } & Record<string, unknown>;

/** One entry of the Cloud API's `template.components`. */
export type NetworkComponent =
  | { type: 'header' | 'body'; parameters: NetworkParameter[] }
  | { type: 'button'; sub_type: 'url' | 'copy_code' | 'quick_reply'; index: number; parameters: NetworkParameter[] }
  | { type: 'carousel'; cards: { card_index: number; components: NetworkComponent[] }[] };

type Raw = Record<string, unknown>;
interface Entry { path: string; parameters: unknown }
interface ButtonEntry extends Entry { index: number; subType: unknown }
interface Entries { header?: Entry; body?: Entry; buttons: ButtonEntry[]; carousel?: { path: string; cards: unknown } }

// REQUEST_CONTACT_INFO takes no parameters, so it is never sent as a button component; the name only checks a
// client's own sub_type.
const SUB_TYPES = {
  URL: 'url', COPY_CODE: 'copy_code', QUICK_REPLY: 'quick_reply', PHONE_NUMBER: 'phone_number', REQUEST_CONTACT_INFO: 'request_contact_info',
} as const;
const MAX_COUPON = 20;

/**
 * The fields each kind of entry has (the Cloud API's and the service's forms). Any other field is refused by name:
 * a value under a misspelt or foreign key (`params`, `text`) would otherwise be dropped and the message sent without it.
 */
const ENTRY_FIELDS = {
  header: ['type', 'parameters'],
  body: ['type', 'parameters'],
  button: ['type', 'sub_type', 'index', 'parameters'],
  buttons: ['type', 'buttons'],
  buttonsItem: ['type', 'sub_type', 'index', 'parameters'],
  carousel: ['type', 'cards'],
  card: ['card_index', 'components'],
} as const;

function isRecord(value: unknown): value is Raw {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
function lower(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim().toLowerCase() : undefined;
}
function indexOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^[0-9]+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}
function nonEmpty(value: unknown): value is string {
  return typeof value === 'string' && value.trim() !== '';
}

class Check {
  readonly errors: ErrorElement[] = [];

  fail(field: string, message: string): void {
    this.errors.push({ code: 'PARAMETERS_INVALID', message, field });
  }

  list(value: unknown, field: string): unknown[] {
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return value;
    this.fail(field, 'parameters must be an array');
    return [];
  }

  /** Refuses each field of `entry` that its kind does not have. */
  onlyFields(entry: Raw, kind: keyof typeof ENTRY_FIELDS, path: string): void {
    const allowed: readonly string[] = ENTRY_FIELDS[kind];
    for (const k of Object.keys(entry)) {
      if (allowed.includes(k)) continue;
      this.fail(`${path}.${k}`, `${k} is not a field of a ${kind === 'buttonsItem' ? 'button' : kind} entry (${allowed.join(', ')}); nothing is sent from it`);
    }
  }

  /** Sorts a scope's entries by kind (`carousel` only at the top level); null when `raw` is not a list. */
  entries(raw: unknown, path: string, top: boolean): Entries | null {
    const out: Entries = { buttons: [] };
    const list = raw === undefined || raw === null ? [] : raw;
    if (!Array.isArray(list)) {
      this.fail(path, 'must be an array of components');
      return null;
    }
    list.forEach((e, i) => {
      const p = `${path}[${i}]`;
      if (!isRecord(e)) return this.fail(p, 'a component entry must be an object');
      const type = lower(e.type);
      if (type === 'header' || type === 'body' || type === 'button' || type === 'buttons' || (type === 'carousel' && top)) this.onlyFields(e, type, p);
      if ((type === 'header' || type === 'body') && out[type]) return this.fail(`${p}.type`, `${type} is given twice`);
      if (type === 'header' || type === 'body') out[type] = { path: p, parameters: e.parameters };
      else if (type === 'button') this.addButton(out.buttons, e, p, undefined);
      else if (type === 'buttons') {
        if (!Array.isArray(e.buttons)) return this.fail(`${p}.buttons`, 'buttons must be an array');
        e.buttons.forEach((b, j) => this.addButton(out.buttons, b, `${p}.buttons[${j}]`, j));
      } else if (type === 'carousel' && top) {
        if (out.carousel) return this.fail(`${p}.type`, 'carousel is given twice');
        out.carousel = { path: p, cards: e.cards };
      } else this.fail(`${p}.type`, `unknown component type ${JSON.stringify(e.type)}: expected header, body, button(s)${top ? ' or carousel' : ''}`);
    });
    return out;
  }

  /** Adds a button entry (a `button` entry, or the item at `fallbackIndex` of a `buttons` entry) to a scope's buttons. */
  private addButton(buttons: ButtonEntry[], b: unknown, p: string, fallbackIndex: number | undefined): void {
    if (!isRecord(b)) return this.fail(p, 'a button entry must be an object');
    if (fallbackIndex !== undefined) this.onlyFields(b, 'buttonsItem', p);
    const index = indexOf(b.index ?? fallbackIndex);
    if (index === undefined) return this.fail(`${p}.index`, 'index must be a zero-based button position');
    if (buttons.some((e) => e.index === index)) return this.fail(`${p}.index`, `button ${index} is given twice`);
    // A `button` entry's own `type` names the entry ('button'), not the button: only a `buttons` item's may be its sub-type.
    buttons.push({ path: p, index, subType: fallbackIndex === undefined ? b.sub_type : (b.sub_type ?? b.type), parameters: b.parameters });
  }

  /** A text, currency or date_time parameter (plain string = text). */
  text(raw: unknown, field: string, max: number, names: readonly string[] | undefined): NetworkParameter | null {
    const p: Raw = typeof raw === 'string' ? { type: 'text', text: raw } : isRecord(raw) ? raw : {};
    const type = lower(p.type);
    let out: NetworkParameter | null = null;
    if (type === 'text') {
      if (!nonEmpty(p.text)) this.fail(field, 'a text parameter needs a non-empty text');
      else if (/[\n\t]| {5}/.test(p.text)) this.fail(field, 'parameter text may not hold new lines, tabs or more than 4 spaces in a row');
      else if (textLength(p.text) > max) this.fail(field, `parameter text is longer than ${max} characters`);
      else out = { type: 'text', text: p.text };
    } else if (type === 'currency') {
      const c = p.currency;
      if (isRecord(c) && nonEmpty(c.fallback_value) && nonEmpty(c.code) && Number.isInteger(c.amount_1000)) {
        out = { type: 'currency', currency: { fallback_value: c.fallback_value, code: c.code, amount_1000: c.amount_1000 } };
      } else this.fail(field, 'a currency parameter needs currency {fallback_value, code, amount_1000 (integer)}');
    } else if (type === 'date_time') {
      const d = p.date_time;
      if (isRecord(d) && nonEmpty(d.fallback_value)) out = { type: 'date_time', date_time: { fallback_value: d.fallback_value } };
      else this.fail(field, 'a date_time parameter needs date_time {fallback_value}');
    } else this.fail(field, 'expected a text, currency or date_time parameter (or a string)');
    if (out && names) {
      if (typeof p.parameter_name === 'string' && names.includes(p.parameter_name)) out.parameter_name = p.parameter_name;
      else if (!nonEmpty(p.parameter_name)) this.fail(`${field}.parameter_name`, `the template's parameters are named: parameter_name is required (one of ${names.join(', ')})`);
      else this.fail(`${field}.parameter_name`, `parameter_name ${JSON.stringify(p.parameter_name)} is not a parameter of the template: expected one of ${names.join(', ')}`);
    } else if (out && p.parameter_name !== undefined) {
      this.fail(`${field}.parameter_name`, "the template's parameters are positional ({{1}}, {{2}}…): leave out parameter_name");
      out = null;
    }
    return out;
  }

  /** Parameters for a text holder (TEXT header, BODY): count, named coverage, each value. */
  texts(text: string, entry: Entry, max: number, what: string): NetworkParameter[] {
    const field = `${entry.path}.parameters`;
    const params = this.list(entry.parameters, field);
    const need = variableNames(text).length;
    if (params.length !== need) this.fail(field, `the ${what} takes ${need} parameter(s); got ${params.length}`);
    const named = extractPlaceholders(text).some((p) => p.form === 'named') ? variableNames(text) : undefined;
    const out = params.map((raw, k) => this.text(raw, `${field}[${k}]`, max, named));
    const given = out.flatMap((p) => (p && typeof p.parameter_name === 'string' ? [p.parameter_name] : []));
    if (named && new Set(given).size !== given.length) this.fail(field, 'a parameter_name is given twice');
    return out.filter((p): p is NetworkParameter => p !== null);
  }

  media(h: HeaderComponent, entry: Entry): NetworkParameter[] {
    const field = `${entry.path}.parameters`;
    const params = this.list(entry.parameters, field);
    if (params.length !== 1) {
      this.fail(field, `the ${h.format} header takes 1 parameter; got ${params.length}`);
      return [];
    }
    const p = isRecord(params[0]) ? params[0] : {};
    const kind = h.format.toLowerCase();
    const at = `${field}[0]`;
    if (lower(p.type) !== kind) {
      this.fail(at, `the header is ${h.format}: expected a ${kind} parameter`);
      return [];
    }
    const value = p[kind];
    if (kind === 'location') {
      const coordinate = (v: unknown): boolean =>
        (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)));
      if (!isRecord(value) || !coordinate(value.latitude) || !coordinate(value.longitude)) {
        this.fail(at, 'a location parameter needs location {latitude, longitude}');
        return [];
      }
      const loc: Raw = { latitude: value.latitude, longitude: value.longitude };
      if (typeof value.name === 'string') loc.name = value.name;
      if (typeof value.address === 'string') loc.address = value.address;
      return [{ type: 'location', location: loc }];
    }
    const id = isRecord(value) ? value.id : undefined;
    const link = isRecord(value) ? value.link : undefined;
    if (nonEmpty(id) === nonEmpty(link) || (nonEmpty(link) && !/^https?:\/\/\S+$/i.test(link))) {
      this.fail(at, `a ${kind} parameter needs ${kind} {id} or ${kind} {link} (http or https), not both`);
      return [];
    }
    const media: Raw = nonEmpty(id) ? { id } : { link };
    if (kind === 'document' && isRecord(value) && typeof value.filename === 'string') media.filename = value.filename;
    return [{ type: kind, [kind]: media }];
  }

  button(b: Button, entry: ButtonEntry): NetworkComponent | null {
    const field = `${entry.path}.parameters`;
    const expected = SUB_TYPES[b.type];
    if (entry.subType !== undefined && lower(entry.subType) !== expected) {
      this.fail(`${entry.path}.sub_type`, `button ${entry.index} is a ${b.type} button (sub_type ${expected})`);
      return null;
    }
    const params = this.list(entry.parameters, field);
    // A QUICK_REPLY may carry one optional payload; the others take exactly what the template asks for.
    const allowed = b.type === 'QUICK_REPLY' ? [0, 1] : [countVariables(b)];
    if (!allowed.includes(params.length)) {
      this.fail(field, `button ${entry.index} (${b.type}) takes ${allowed.join(' or ')} parameter(s); got ${params.length}`);
      return null;
    }
    if (params.length === 0 || b.type === 'PHONE_NUMBER' || b.type === 'REQUEST_CONTACT_INFO') return null;
    const raw = params[0];
    const p: Raw = isRecord(raw) ? raw : {};
    const [key, paramType] = b.type === 'URL' ? ['text', 'text'] : b.type === 'COPY_CODE' ? ['coupon_code', 'coupon_code'] : ['payload', 'payload'];
    const value = typeof raw === 'string' ? raw : lower(p.type) === paramType ? p[key] : undefined;
    if (!nonEmpty(value)) {
      this.fail(`${field}[0]`, `a ${b.type} button parameter is a non-empty ${paramType} (or a string)`);
      return null;
    }
    if (b.type === 'COPY_CODE' && textLength(value) > MAX_COUPON) {
      this.fail(`${field}[0]`, `a coupon code is at most ${MAX_COUPON} characters`);
      return null;
    }
    return { type: 'button', sub_type: SUB_TYPES[b.type], index: entry.index, parameters: [{ type: paramType, [key]: value }] };
  }

  /** One scope (the template, or one carousel card): its entries against its components. */
  scope(template: Component[], entries: Entries, scopePath: string): NetworkComponent[] {
    const out: NetworkComponent[] = [];
    const header = template.find((c): c is HeaderComponent => c.type === 'HEADER');
    const body = template.find((c): c is BodyComponent => c.type === 'BODY');
    const buttons = template.find((c) => c.type === 'BUTTONS')?.buttons ?? [];
    if (entries.header && !header) this.fail(`${entries.header.path}.type`, 'the template has no HEADER');
    else if (entries.header && header) {
      const params = header.format === 'TEXT' ? this.texts(header.text ?? '', entries.header, 60, 'header') : this.media(header, entries.header);
      if (params.length > 0) out.push({ type: 'header', parameters: params });
    } else if (header && countVariables(header) > 0) this.fail(scopePath, `the ${header.format} header needs ${countVariables(header)} parameter(s)`);
    if (entries.body && !body) this.fail(`${entries.body.path}.type`, 'the template has no BODY');
    else if (entries.body && body) {
      // A parameter may be up to 1,024 characters, or 32,768 when the body is the template's only component.
      const max = template.length === 1 ? 32768 : 1024;
      const params = this.texts(body.text, entries.body, max, 'body');
      if (params.length > 0) out.push({ type: 'body', parameters: params });
    } else if (body && countVariables(body) > 0) this.fail(scopePath, `the body needs ${countVariables(body)} parameter(s)`);
    for (const entry of [...entries.buttons].sort((a, b) => a.index - b.index)) {
      const b = buttons[entry.index];
      if (!b) this.fail(`${entry.path}.index`, `the template has no button ${entry.index}`);
      const sent = b ? this.button(b, entry) : null;
      if (sent) out.push(sent);
    }
    buttons.forEach((b, i) => {
      if (countVariables(b) > 0 && !entries.buttons.some((e) => e.index === i)) {
        this.fail(scopePath, `button ${i} (${b.type}) needs ${countVariables(b)} parameter(s)`);
      }
    });
    return out;
  }

  carousel(template: StoredComponents, given: Entries['carousel'], root: string): NetworkComponent | null {
    const stored = template.find((c) => c.type === 'CAROUSEL');
    if (given && !stored) this.fail(`${given.path}.type`, 'the template has no CAROUSEL');
    else if (stored && !given) this.fail(root, `the carousel needs parameters for its ${stored.cards.length} cards`);
    else if (given && !Array.isArray(given.cards)) this.fail(`${given.path}.cards`, 'cards must be an array');
    if (!stored || !given || !Array.isArray(given.cards)) return null;
    if (given.cards.length !== stored.cards.length) {
      this.fail(`${given.path}.cards`, `the template has ${stored.cards.length} cards; got ${given.cards.length}`);
    }
    const cards: { card_index: number; components: NetworkComponent[] }[] = [];
    given.cards.forEach((card, j) => {
      const p = `${given.path}.cards[${j}]`;
      if (!isRecord(card)) return this.fail(p, 'a card must be an object');
      const index = indexOf(card.card_index ?? j);
      if (index === undefined || index >= stored.cards.length) {
        return this.fail(`${p}.card_index`, `card_index must be 0 to ${stored.cards.length - 1}`);
      }
      if (cards.some((c) => c.card_index === index)) return this.fail(`${p}.card_index`, `card ${index} is given twice`);
      this.onlyFields(card, 'card', p);
      const entries = this.entries(card.components, `${p}.components`, false);
      if (!entries) return;
      cards.push({ card_index: index, components: this.scope(stored.cards[index].components, entries, `${p}.components`) });
    });
    return { type: 'carousel', cards: cards.sort((a, b) => a.card_index - b.card_index) };
  }
}

/**
 * Checks send parameters against the stored template and converts them in one walk: the Cloud API components, and
 * every mismatch (code PARAMETERS_INVALID; none when they fit, and only then are the components meant to be sent).
 */
export function prepareSendComponents(template: StoredComponents, sendComponents: unknown, root = 'message_template'): { components: NetworkComponent[]; errors: ErrorElement[] } {
  const check = new Check();
  const entries = check.entries(sendComponents, root, true);
  if (!entries) return { components: [], errors: check.errors };
  const components = check.scope(template, entries, root);
  const carousel = check.carousel(template, entries.carousel, root);
  if (carousel) components.push(carousel);
  return { components, errors: check.errors };
}

/** Every mismatch between send parameters and the stored template (code PARAMETERS_INVALID); [] when they fit. */
export function checkSendComponents(template: StoredComponents, sendComponents: unknown, root = 'message_template'): ErrorElement[] {
  return prepareSendComponents(template, sendComponents, root).errors;
}

/** The Cloud API `template.components` for accepted input; throws AppError PARAMETERS_INVALID when it does not fit. */
export function toNetworkComponents(template: StoredComponents, sendComponents: unknown, root = 'message_template'): NetworkComponent[] {
  const { components, errors } = prepareSendComponents(template, sendComponents, root);
  if (errors.length > 0) throw new AppError('PARAMETERS_INVALID', errors[0].message, { field: errors[0].field, details: errors });
  return components;
}
