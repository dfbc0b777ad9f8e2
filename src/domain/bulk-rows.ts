/**
 * Bulk-send rows → send parameters. A template's variables become named slots (columns): `HEADER.1` or
 * `HEADER` (media), `BODY.<n>`, `BUTTONS.<i>`, `CAROUSEL.<card>.HEADER`, `CAROUSEL.<card>.BODY.<n>`,
 * `CAROUSEL.<card>.BUTTONS.<i>`. A named template's text variables are `HEADER.<name>` and `BODY.<name>`
 * (e.g. `BODY.first_name`); the 1-based position (`BODY.1` = the first name in order of first appearance)
 * is accepted for them too. startv2 names its columns with these headers; start (v1) fills them from
 * the row fields (`text_header_param`, `params` in order of first appearance, `url_button_param`,
 * `url_button_param2`, `copy_code_param`). Each row then goes through the same checks as a single send,
 * and a named template's text parameters carry `parameter_name`.
 */
import type { ErrorElement } from '../errors.js';
import { countVariables, extractPlaceholders, textLength, variableNames } from './templates/placeholders.js';
import { prepareSendComponents, type NetworkComponent } from './templates/send-parameters.js';
import type { Button, Component, StoredComponents } from './templates/types.js';

/** The cell limit, declared in bulk-limits.ts (re-exported for the readers of rows). */
export { MAX_CELL_LENGTH } from './bulk-limits.js';

/** One value a row must (or may) give. */
export interface Slot {
  column: string;
  kind: 'text' | 'media' | 'button' | 'payload';
  /** Media header format (IMAGE, VIDEO, DOCUMENT). */
  format?: string;
  card?: number;
  part: 'HEADER' | 'BODY' | 'BUTTONS';
  /** Variable number (1-based) or button index (0-based). */
  index: number;
  /** The variable's name: `first_name` for a named template, the number (`1`) for a positional one. */
  name?: string;
  /** The other header a startv2 column may use for this slot (`BODY.1` for `BODY.first_name`). */
  alias?: string;
  /** URL buttons with a variable are numbered among themselves (v1's url_button_param, url_button_param2). */
  urlOrdinal?: number;
  buttonType?: Button['type'];
  optional: boolean;
}

function isPositional(name: string | undefined): boolean {
  return name === undefined || /^\d+$/.test(name);
}

/** A TEXT header or BODY variable: `<part>.<n>` when positional, `<part>.<name>` (alias `<part>.<n>`) when named. */
function textSlot(base: string, part: 'HEADER' | 'BODY', name: string, index: number, card: number | undefined): Slot {
  const slot: Slot = { column: `${base}.${isPositional(name) ? index : name}`, kind: 'text', part, index, name, card, optional: false };
  if (!isPositional(name)) slot.alias = `${base}.${index}`;
  return slot;
}

/**
 * The slot column a startv2 header names, or undefined. Part names are matched in any case
 * (`body.1`, `Carousel.0.Body.1`); a named variable is matched by its lower-case name or by its position.
 */
export function resolveColumn(slots: Slot[], header: string): string | undefined {
  const parts = header.trim().split('.');
  const canonical = parts.map((p, k) => (k === parts.length - 1 && parts.length > 1 && /^(HEADER|BODY)$/i.test(parts[k - 1]) && !/^\d+$/.test(p) ? p.toLowerCase() : p.toUpperCase())).join('.');
  return slots.find((s) => s.column === canonical || s.alias === canonical)?.column;
}

function scopeSlots(components: Component[], card: number | undefined): Slot[] {
  const prefix = card === undefined ? '' : `CAROUSEL.${card}.`;
  const slots: Slot[] = [];
  let urlOrdinal = 0;
  for (const c of components) {
    if (c.type === 'HEADER' && c.format === 'TEXT') {
      variableNames(c.text ?? '').forEach((name, i) => slots.push(textSlot(`${prefix}HEADER`, 'HEADER', name, i + 1, card)));
    } else if (c.type === 'HEADER' && ['IMAGE', 'VIDEO', 'DOCUMENT'].includes(c.format)) {
      slots.push({ column: `${prefix}HEADER`, kind: 'media', format: c.format, part: 'HEADER', index: 0, card, optional: false });
    } else if (c.type === 'BODY') {
      variableNames(c.text).forEach((name, i) => slots.push(textSlot(`${prefix}BODY`, 'BODY', name, i + 1, card)));
    } else if (c.type === 'BUTTONS') {
      c.buttons.forEach((b, i) => {
        const column = `${prefix}BUTTONS.${i}`;
        if (b.type === 'URL' && variableNames(b.url).length > 0) {
          urlOrdinal += 1;
          slots.push({ column, kind: 'button', part: 'BUTTONS', index: i, card, urlOrdinal, buttonType: b.type, optional: false });
        } else if (b.type === 'COPY_CODE') {
          slots.push({ column, kind: 'button', part: 'BUTTONS', index: i, card, buttonType: b.type, optional: false });
        } else if (b.type === 'QUICK_REPLY') {
          slots.push({ column, kind: 'payload', part: 'BUTTONS', index: i, card, buttonType: b.type, optional: true });
        }
      });
    }
  }
  return slots;
}

/** Every slot of a template, top level then cards. */
export function templateSlots(components: StoredComponents): Slot[] {
  const top = scopeSlots(components.filter((c) => c.type !== 'CAROUSEL'), undefined);
  const carousel = components.find((c) => c.type === 'CAROUSEL');
  const cards = carousel && carousel.type === 'CAROUSEL' ? carousel.cards.flatMap((card, i) => scopeSlots(card.components, i)) : [];
  return [...top, ...cards];
}

/** The value a media cell names: an http(s) link, or a media id. */
function mediaParameter(format: string, value: string) {
  const kind = format.toLowerCase();
  return { type: kind, [kind]: /^https?:\/\//i.test(value) ? { link: value } : { id: value } };
}

/** One scope's slots (the template's own, or one carousel card's) by part, and its fixed columns. */
interface ScopeSlots {
  header: Slot[];
  body: Slot[];
  buttons: Slot[];
  headerColumns: string[];
  bodyColumns: string[];
}

function scopeSlotsOf(slots: Slot[]): ScopeSlots {
  const header = slots.filter((s) => s.part === 'HEADER');
  const body = slots.filter((s) => s.part === 'BODY');
  return {
    header, body, buttons: slots.filter((s) => s.part === 'BUTTONS'),
    headerColumns: header.map((s) => s.column), bodyColumns: body.map((s) => s.column),
  };
}

/** A text slot's value as a parameter: the plain string when positional, with its parameter_name when named. */
function textParameter(s: Slot, v: string) {
  return isPositional(s.name) ? v : { type: 'text', text: v, parameter_name: s.name };
}

/** The Cloud-form entries of one scope from slot values, with the column behind each parameter. */
function scopeEntries(scope: ScopeSlots, value: (column: string) => string | undefined): { entries: unknown[]; columns: string[][] } {
  const entries: unknown[] = [];
  const columns: string[][] = [];
  if (scope.header.length) {
    entries.push({
      type: 'header',
      parameters: scope.header.map((s) => (s.kind === 'media' ? mediaParameter(s.format!, value(s.column) ?? '') : textParameter(s, value(s.column) ?? ''))),
    });
    columns.push(scope.headerColumns);
  }
  if (scope.body.length) {
    entries.push({ type: 'body', parameters: scope.body.map((s) => textParameter(s, value(s.column) ?? '')) });
    columns.push(scope.bodyColumns);
  }
  for (const s of scope.buttons) {
    const v = value(s.column);
    if (s.optional && !v) continue;
    entries.push({ type: 'button', index: s.index, parameters: [v ?? ''] });
    columns.push([s.column]);
  }
  return { entries, columns };
}

/** A converted row: the network components, or the problems named by column. */
export type RowResult = { ok: true; components: NetworkComponent[] } | { ok: false; errors: ErrorElement[] };

/** Checks and converts one row: `value(column)` reads a cell; `field(column)` names it for errors (e.g. `rows[41].BODY.2`); `label` says which row (e.g. "row 42"). */
export type RowConverter = (value: (column: string) => string | undefined, field: (column: string) => string, label: string) => RowResult;

/**
 * The row converter of one template and its slots: what depends on the template alone (its slots by scope and part)
 * is sorted once, not for each of a bulk send's rows.
 */
export function rowConverter(components: StoredComponents, slots: Slot[]): RowConverter {
  const required = slots.filter((s) => !s.optional);
  const top = scopeSlotsOf(slots.filter((s) => s.card === undefined));
  const carousel = components.find((c) => c.type === 'CAROUSEL');
  const cards = carousel && carousel.type === 'CAROUSEL' ? carousel.cards.map((_, i) => scopeSlotsOf(slots.filter((s) => s.card === i))) : null;
  return (value, field, label) => {
    const errors: ErrorElement[] = [];
    for (const s of required) {
      const v = value(s.column);
      if (v === undefined || v.trim() === '') {
        errors.push({ code: 'PARAMETERS_INVALID', message: `${label}: ${s.column} is required by the template and is empty`, field: field(s.column) });
      }
    }
    if (errors.length) return { ok: false, errors };
    const scope = scopeEntries(top, value);
    const cardColumns: string[][][] = [];
    if (cards) {
      const entries = cards.map((card) => scopeEntries(card, value));
      entries.forEach((c) => cardColumns.push(c.columns));
      scope.entries.push({ type: 'carousel', cards: entries.map((c, i) => ({ card_index: i, components: c.entries })) });
    }
    const prepared = prepareSendComponents(components, scope.entries, 'R');
    if (prepared.errors.length) {
      return {
        ok: false,
        errors: prepared.errors.map((p) => ({ code: 'PARAMETERS_INVALID', message: `${label}: ${p.message}`, field: field(columnOf(p.field ?? '', scope.columns, cardColumns)) })),
      };
    }
    return { ok: true, components: prepared.components };
  };
}

/** A row's slot values, `values[j]` for `slots[j]` (undefined: the row gives none). */
export type SlotValues = ReadonlyArray<string | undefined>;

/** How one value is checked on the fast path (each check is the one the converter makes, or stricter). */
type ValueCheck = 'text' | 'url' | 'code' | 'payload' | 'media';

/** One value of an entry: its slot, its check, and the JSON around its text (`{"type":"text","text":` … `}`). */
interface FastValue {
  j: number;
  check: ValueCheck;
  /** Most characters (code points) of a text parameter. */
  max: number;
  /** The media kind (`image`) of a media header. */
  kind: string;
  before: string;
  after: string;
}

/** One network component of the fast path: its JSON before and after its values; an optional one is left out without a value. */
interface FastEntry {
  open: string;
  values: FastValue[];
  close: string;
  optional: boolean;
}

const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'] as const;
const LINK = /^https?:\/\//i;
const WHOLE_LINK = /^https?:\/\/\S+$/i;
const BAD_TEXT = /[\n\t]| {5}/;

/** Whether a value passes its fast check; a value that fails may still be one the converter takes (it decides). */
function passes(p: FastValue, v: string): boolean {
  if (v.trim() === '') return false;
  switch (p.check) {
    case 'text':
      return !BAD_TEXT.test(v) && (v.length <= p.max || textLength(v) <= p.max);
    case 'code':
      return v.length <= p.max || textLength(v) <= p.max;
    case 'media':
      return !LINK.test(v) || WHOLE_LINK.test(v);
    default:
      return true;
  }
}

/** The fast path's entries of a template, or null when it does not cover the template (see rowComponentsJson). */
function fastEntries(components: StoredComponents, slots: Slot[]): FastEntry[] | null {
  if (components.some((c) => c.type === 'CAROUSEL') || slots.some((s) => s.card !== undefined)) return null;
  const only = <T extends Component['type']>(type: T) => components.filter((c): c is Extract<Component, { type: T }> => c.type === type);
  const [header, ...moreHeaders] = only('HEADER');
  const [body, ...moreBodies] = only('BODY');
  const [buttons, ...moreButtons] = only('BUTTONS');
  if (moreHeaders.length || moreBodies.length || moreButtons.length) return null;
  const entries: FastEntry[] = [];
  const used = new Set<number>();
  const slotsOf = (part: Slot['part']) => slots.flatMap((s, j) => (s.part === part ? [j] : []));
  // A TEXT header or the body: one text parameter per variable, in order of first appearance, named or not.
  const texts = (type: 'header' | 'body', text: string, js: number[], max: number): boolean => {
    const names = variableNames(text);
    const named = extractPlaceholders(text).some((p) => p.form === 'named');
    if (js.length !== names.length) return false;
    const values: FastValue[] = [];
    for (const [k, j] of js.entries()) {
      const s = slots[j];
      if (s.kind !== 'text' || s.name !== names[k] || isPositional(s.name) === named) return false;
      const after = named ? `,"parameter_name":${JSON.stringify(s.name)}}` : '}';
      values.push({ j, check: 'text', max, kind: '', before: '{"type":"text","text":', after });
      used.add(j);
    }
    if (values.length) entries.push({ open: `{"type":"${type}","parameters":[`, values, close: ']}', optional: false });
    return true;
  };
  const headerSlots = slotsOf('HEADER');
  if (!header) {
    if (headerSlots.length) return null;
  } else if (header.format === 'TEXT') {
    if (!texts('header', header.text ?? '', headerSlots, 60)) return null;
  } else if ((MEDIA_FORMATS as readonly string[]).includes(header.format)) {
    const [j, ...more] = headerSlots;
    if (j === undefined || more.length || slots[j].kind !== 'media' || slots[j].format !== header.format) return null;
    const kind = header.format.toLowerCase();
    entries.push({ open: '{"type":"header","parameters":[', values: [{ j, check: 'media', max: 0, kind, before: '', after: '' }], close: ']}', optional: false });
    used.add(j);
  } else if (headerSlots.length || countVariables(header) > 0) return null;
  const bodySlots = slotsOf('BODY');
  if (!body) {
    if (bodySlots.length) return null;
  } else if (!texts('body', body.text, bodySlots, components.length === 1 ? 32768 : 1024)) return null;
  const buttonSlots = slotsOf('BUTTONS');
  if (buttonSlots.length && !buttons) return null;
  let last = -1;
  for (const j of buttonSlots) {
    const s = slots[j];
    const b = buttons!.buttons[s.index];
    if (!b || b.type !== s.buttonType || s.index <= last) return null;
    last = s.index;
    const kind: [string, string, ValueCheck] | null =
      b.type === 'URL' && s.kind === 'button' && countVariables(b) === 1 ? ['url', 'text', 'url']
      : b.type === 'COPY_CODE' && s.kind === 'button' ? ['copy_code', 'coupon_code', 'code']
      : b.type === 'QUICK_REPLY' && s.kind === 'payload' && s.optional ? ['quick_reply', 'payload', 'payload']
      : null;
    if (!kind) return null;
    const [subType, param, check] = kind;
    entries.push({
      open: `{"type":"button","sub_type":"${subType}","index":${s.index},"parameters":[`,
      values: [{ j, check, max: 20, kind: '', before: `{"type":"${param}","${param}":`, after: '}' }],
      close: ']}',
      // Only a payload may be left out (rowConverter sends no entry for it); the other buttons need their value.
      optional: check === 'payload',
    });
    used.add(j);
  }
  // Every button that needs a value has a slot, and every slot is in an entry.
  if (buttons?.buttons.some((b, i) => countVariables(b) > 0 && !buttonSlots.some((j) => slots[j].index === i))) return null;
  return used.size === slots.length ? entries : null;
}

/**
 * The JSON text of a row's network components made straight from its slot values, with no object built per row:
 * the text JSON.stringify makes of rowConverter's components for the same row ('' when there are none). Every
 * check rowConverter makes on a value is made here as well (or a stricter one); a row with a value that fails one
 * gets undefined, and the caller converts it with rowConverter, whose answer (its errors included) is the
 * reference. Null for a template this does not cover (a carousel, a part rowConverter refuses for every row), whose
 * rows all go through rowConverter. A bulk start converts every row: this is the share of its CPU that depends on
 * the template only, done once.
 */
export function rowComponentsJson(components: StoredComponents, slots: Slot[]): ((values: SlotValues) => string | undefined) | null {
  let entries: FastEntry[] | null;
  try {
    entries = fastEntries(components, slots);
  } catch {
    entries = null;
  }
  if (!entries) return null;
  const list = entries;
  return (values) => {
    let json = '';
    for (const e of list) {
      if (e.optional) {
        const v = values[e.values[0].j];
        if (v === undefined || v === '') continue;
      }
      let text = e.open;
      for (let k = 0; k < e.values.length; k += 1) {
        const p = e.values[k];
        const v = values[p.j];
        if (v === undefined || !passes(p, v)) return undefined;
        if (k) text += ',';
        text += p.check === 'media'
          ? `{"type":"${p.kind}","${p.kind}":{"${LINK.test(v) ? 'link' : 'id'}":${JSON.stringify(v)}}}`
          : p.before + JSON.stringify(v) + p.after;
      }
      json += (json ? ',' : '[') + text + e.close;
    }
    return json && `${json}]`;
  };
}

/**
 * Checks and converts one row. `value(column)` reads a cell; `field(column)` names it for errors
 * (e.g. `rows[41].BODY.2`); `label` says which row (e.g. "row 42").
 */
export function convertRow(
  components: StoredComponents,
  slots: Slot[],
  value: (column: string) => string | undefined,
  field: (column: string) => string,
  label: string,
): RowResult {
  return rowConverter(components, slots)(value, field, label);
}

/** Maps a checker path (`R[k].parameters[j]`, `R[k].cards[c].components[k].parameters[j]`) to its column. */
function columnOf(path: string, top: string[][], cards: string[][][]): string {
  const card = /^R\[\d+\]\.cards\[(\d+)\]\.components\[(\d+)\](?:\.parameters(?:\[(\d+)\])?)?/.exec(path);
  if (card) return cards[Number(card[1])]?.[Number(card[2])]?.[Number(card[3] ?? 0)] ?? `CAROUSEL.${card[1]}`;
  const entry = /^R\[(\d+)\](?:\.parameters(?:\[(\d+)\])?)?/.exec(path);
  if (entry) return top[Number(entry[1])]?.[Number(entry[2] ?? 0)] ?? 'row';
  return 'row';
}

/** start (v1) row fields that carry a template value, besides `params` (the BODY values in order). */
export const V1_VALUE_FIELDS = ['text_header_param', 'url_button_param', 'url_button_param2', 'copy_code_param'] as const;

/** What a start (v1) value field fills, for the message that refuses it on a template without that part. */
const V1_FIELD_PART: Record<(typeof V1_VALUE_FIELDS)[number], string> = {
  text_header_param: 'a header variable or a media header',
  url_button_param: 'a URL button with a variable',
  url_button_param2: 'a second URL button with a variable',
  copy_code_param: 'a COPY_CODE button',
};

/** Whether a cell holds a value (an empty or blank string, null and a missing field hold none). */
function given(value: unknown): boolean {
  return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
}

/** A start (v1) row's value that its template does not take, refused. */
function notTaken(name: string, why: string, field: (name: string) => string, label: string): ErrorElement {
  return { code: 'PARAMETERS_INVALID', message: `${label}: ${name} is not taken: ${why}`, field: field(name) };
}

/**
 * The check of a start (v1) row's values that its template does not take — a `params` entry past the body's
 * variables, or a value field no slot reads — refused as a missing value is (PARAMETERS_INVALID), never dropped.
 * Made once per template; `field(name)` names the field for errors (e.g. `rows[4].params[2]`); `label` says which row.
 */
export function v1UnusedValueCheck(slots: Slot[]): (row: Record<string, unknown>, field: (name: string) => string, label: string) => ErrorElement[] {
  const taken = new Set(slots.map(v1Field));
  const body = slots.filter((s) => s.part === 'BODY' && s.card === undefined).length;
  // Per template, not per row: which params positions and value fields no slot reads.
  const takenParams = new Set([...taken].flatMap((f) => /^params\[(\d+)\]$/.exec(f ?? '')?.slice(1).map(Number) ?? []));
  const untaken = V1_VALUE_FIELDS.filter((f) => !taken.has(f));
  return (row, field, label) => {
    let errors: ErrorElement[] | undefined;
    const params = Array.isArray(row.params) ? row.params : [];
    for (let k = 0; k < params.length; k += 1) {
      if (!takenParams.has(k) && given(params[k])) (errors ??= []).push(notTaken(`params[${k}]`, `the template's body has ${body} variable(s)`, field, label));
    }
    for (const f of untaken) if (given(row[f])) (errors ??= []).push(notTaken(f, `the template has no ${V1_FIELD_PART[f]}`, field, label));
    return errors ?? [];
  };
}

/**
 * Whether a column name addresses a part of a template (`BODY.2`, `HEADER`, `BUTTONS.0`, `CAROUSEL.1.BODY.1`) or
 * a start (v1) value field: such a column on a template that has no such part is refused, not ignored.
 */
export function namesTemplateValue(name: string): boolean {
  const n = name.trim();
  return /^(HEADER|BODY|BUTTONS|CAROUSEL)(\..*)?$/i.test(n) || /^params(\[\d+\])?$/i.test(n) || (V1_VALUE_FIELDS as readonly string[]).includes(n.toLowerCase());
}

/** Which v1 row field feeds a slot (v1 has no carousel columns). */
export function v1Field(slot: Slot): string | null {
  if (slot.card !== undefined) return null;
  if (slot.part === 'HEADER') return 'text_header_param';
  if (slot.part === 'BODY') return `params[${slot.index - 1}]`;
  if (slot.buttonType === 'URL') return slot.urlOrdinal === 1 ? 'url_button_param' : slot.urlOrdinal === 2 ? 'url_button_param2' : null;
  if (slot.buttonType === 'COPY_CODE') return 'copy_code_param';
  return null;
}

/** The header names startv2 accepts besides the slots (the first two columns are row number and phone). */
export const V2_EXTRA_COLUMNS = ['FULL_NAME'] as const;
