/**
 * The template create form as plain data, its request body for `POST /api/v1/message-templates` (family B:
 * name checked first, `file_handle` for a media header, carousel card headers with their uploaded handles
 * in `example.header_handle`), and the way back from the service's field paths
 * (`components[2].buttons[0].url`) to the form field that shows the error.
 */
import type { paths } from '../../generated/api.js';
import { isPositional, variableNames, type ApiComponentInput } from './types.js';

/** Button kinds, as the form offers them. */
export const BUTTON_KINDS = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'REQUEST_CONTACT_INFO'] as const;
export type ButtonKind = (typeof BUTTON_KINDS)[number];

/** One button row of the form. */
export interface FormButton {
  kind: ButtonKind;
  /** Label (not for COPY_CODE nor REQUEST_CONTACT_INFO, which the network does not let be labelled). */
  text: string;
  /** URL; may end with {{1}}. */
  url: string;
  /** Example for the URL's {{1}}. */
  urlExample: string;
  /** Digits with an optional leading +. */
  phone: string;
  /** Example coupon code of a COPY_CODE button. */
  code: string;
}

/** An uploaded file (from `POST /api/v1/media`). */
export interface Upload {
  handle: string;
  fileName: string;
  /** A local object URL for the preview, when there is one. */
  previewUrl?: string;
}

/** Header kinds of the form. */
export const HEADER_KINDS = ['NONE', 'TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT'] as const;
export type HeaderKind = (typeof HEADER_KINDS)[number];

/** One carousel card. */
export interface FormCard {
  headerFormat: 'IMAGE' | 'VIDEO';
  media: Upload | null;
  body: string;
  /** Example per body variable, in order of first appearance. */
  bodyExamples: string[];
  buttons: FormButton[];
}

/** The whole form. */
export interface TemplateForm {
  name: string;
  language: string;
  category: string;
  allowCategoryChange: boolean;
  headerKind: HeaderKind;
  headerText: string;
  headerExample: string;
  headerMedia: Upload | null;
  body: string;
  bodyExamples: string[];
  footer: string;
  buttons: FormButton[];
  /** A carousel template: a BODY and 2–10 cards (no top-level header, footer or buttons). */
  carousel: boolean;
  cards: FormCard[];
}

/** A new button of a kind. */
export function newButton(kind: ButtonKind): FormButton {
  return { kind, text: '', url: '', urlExample: '', phone: '', code: '' };
}

/** A new card. */
export function newCard(): FormCard {
  return { headerFormat: 'IMAGE', media: null, body: '', bodyExamples: [], buttons: [] };
}

/** An empty form. */
export function emptyForm(language = 'en_US', category = 'MARKETING'): TemplateForm {
  return {
    name: '', language, category, allowCategoryChange: false,
    headerKind: 'NONE', headerText: '', headerExample: '', headerMedia: null,
    body: '', bodyExamples: [], footer: '', buttons: [],
    carousel: false, cards: [newCard(), newCard()],
  };
}

/** Lower-case letters, digits and `_`: what a name becomes as it is typed (spaces and dashes → `_`). */
export function cleanName(input: string): string {
  return input.toLowerCase().replace(/[\s-]+/g, '_');
}

/** The name rule of the service (shown at once, before the debounced check-name call). */
export function nameProblem(name: string): string | null {
  if (name === '') return 'A name is required.';
  if (name.length > 512) return 'At most 512 characters.';
  if (!/^[a-z0-9_]+$/.test(name)) return 'Only lower-case letters a-z, digits and _.';
  return null;
}

/** Example fields a text needs: one per distinct variable, labelled by the variable. */
export function exampleSlots(text: string): string[] {
  return [...variableNames(text)];
}

/** `example` of a BODY or TEXT header: positional `body_text`/`header_text`, or the named form. */
function textExample(kind: 'body' | 'header', text: string, values: string[]): ApiComponentInput['example'] | undefined {
  const names = variableNames(text);
  if (names.length === 0) return undefined;
  const filled = names.map((_, k) => values[k] ?? '');
  if (names.every(isPositional)) return kind === 'body' ? { body_text: [filled] } : { header_text: filled };
  const named = names.map((param_name, k) => ({ param_name, example: filled[k] }));
  return kind === 'body' ? { body_text_named_params: named } : { header_text_named_params: named };
}

/** A component of a carousel card in a create request. */
type CardComponent = NonNullable<ApiComponentInput['cards']>[number]['components'][number];

/** Form field keys a server path may point at, registered as the body is built (longest prefix wins). */
type PathMap = [prefix: string, field: string][];

function buttonsComponent(buttons: FormButton[], at: string, fieldPrefix: string, paths: PathMap): CardComponent {
  paths.push([`${at}`, `${fieldPrefix}buttons`], [`${at}.buttons`, `${fieldPrefix}buttons`]);
  return {
    type: 'BUTTONS',
    buttons: buttons.map((b, j) => {
      const bp = `${at}.buttons[${j}]`;
      const f = `${fieldPrefix}buttons.${j}`;
      paths.push([bp, f], [`${bp}.type`, `${f}.kind`], [`${bp}.text`, `${f}.text`], [`${bp}.url`, `${f}.url`],
        [`${bp}.example`, b.kind === 'COPY_CODE' ? `${f}.code` : `${f}.urlExample`], [`${bp}.phone_number`, `${f}.phone`]);
      if (b.kind === 'URL') {
        return { type: 'URL', text: b.text, url: b.url, ...(variableNames(b.url).length > 0 ? { example: [b.urlExample] } : {}) };
      }
      if (b.kind === 'PHONE_NUMBER') return { type: 'PHONE_NUMBER', text: b.text, phone_number: b.phone };
      if (b.kind === 'COPY_CODE') return { type: 'COPY_CODE', example: b.code };
      if (b.kind === 'REQUEST_CONTACT_INFO') return { type: 'REQUEST_CONTACT_INFO' };
      return { type: 'QUICK_REPLY', text: b.text };
    }),
  };
}

function bodyComponent(text: string, examples: string[], at: string, fieldPrefix: string, paths: PathMap): CardComponent {
  paths.push([at, `${fieldPrefix}body`], [`${at}.text`, `${fieldPrefix}body`], [`${at}.example`, `${fieldPrefix}bodyExamples`]);
  variableNames(text).forEach((_, k) => {
    paths.push([`${at}.example.body_text[0][${k}]`, `${fieldPrefix}bodyExamples.${k}`],
      [`${at}.example.body_text_named_params[${k}]`, `${fieldPrefix}bodyExamples.${k}`]);
  });
  const example = textExample('body', text, examples);
  return { type: 'BODY', text, ...(example ? { example } : {}) };
}

/** The template's components from the form, with the form field of each path. */
export function formComponents(form: TemplateForm): { components: ApiComponentInput[]; paths: PathMap } {
  const paths: PathMap = [];
  const components: ApiComponentInput[] = [];
  const at = () => `components[${components.length}]`;
  if (form.carousel) {
    components.push(bodyComponent(form.body, form.bodyExamples, at(), '', paths));
    const c = at();
    paths.push([c, 'cards'], [`${c}.cards`, 'cards']);
    const cards = form.cards.map((card, j) => {
      const cp = `${c}.cards[${j}]`;
      const f = `cards.${j}.`;
      paths.push([cp, `cards.${j}`], [`${cp}.components`, `cards.${j}`]);
      const list: CardComponent[] = [];
      const hp = `${cp}.components[0]`;
      paths.push([hp, `${f}media`]);
      list.push({ type: 'HEADER', format: card.headerFormat, example: { header_handle: card.media ? [card.media.handle] : [] } });
      if (card.body.trim() !== '' || variableNames(card.body).length > 0) list.push(bodyComponent(card.body, card.bodyExamples, `${cp}.components[${list.length}]`, f, paths));
      if (card.buttons.length > 0) list.push(buttonsComponent(card.buttons, `${cp}.components[${list.length}]`, f, paths));
      return { components: list };
    });
    components.push({ type: 'CAROUSEL', cards });
    return { components, paths };
  }
  if (form.headerKind === 'TEXT') {
    const h = at();
    paths.push([h, 'headerText'], [`${h}.text`, 'headerText'], [`${h}.format`, 'headerKind'], [`${h}.example`, 'headerExample']);
    const example = textExample('header', form.headerText, [form.headerExample]);
    components.push({ type: 'HEADER', format: 'TEXT', text: form.headerText, ...(example ? { example } : {}) });
  } else if (form.headerKind !== 'NONE') {
    const h = at();
    paths.push([h, 'headerMedia'], [`${h}.format`, 'headerKind']);
    components.push({ type: 'HEADER', format: form.headerKind });
  }
  components.push(bodyComponent(form.body, form.bodyExamples, at(), '', paths));
  if (form.footer.trim() !== '') {
    const f = at();
    paths.push([f, 'footer']);
    components.push({ type: 'FOOTER', text: form.footer });
  }
  if (form.buttons.length > 0) components.push(buttonsComponent(form.buttons, at(), '', paths));
  return { components, paths };
}

/** The create body of `POST /api/v1/message-templates` (generated), its components built as one shape. */
export type CreateBody = Omit<NonNullable<paths['/api/v1/message-templates']['post']['requestBody']>['content']['application/json'], 'components'> & {
  components: ApiComponentInput[];
};

/** The create request for the form on a channel. */
export function toCreateBody(form: TemplateForm, channelId: string): CreateBody {
  const { components } = formComponents(form);
  const body: CreateBody = {
    name: form.name, category: form.category, language: form.language, components,
    allow_category_change: form.allowCategoryChange, channel_id: channelId,
  };
  if (!form.carousel && form.headerKind !== 'NONE' && form.headerKind !== 'TEXT' && form.headerMedia) body.file_handle = form.headerMedia.handle;
  return body;
}

const TOP_FIELDS: Record<string, string> = { name: 'name', language: 'language', category: 'category', file_handle: 'headerMedia', allow_category_change: 'allowCategoryChange' };

/**
 * The form field a service error path names: the longest registered prefix of `components[…]` paths
 * (a prefix ends where the path ends or at `.` / `[`), the top fields by name; `form` when nothing fits.
 */
export function fieldOfPath(form: TemplateForm, path: string | undefined): string {
  if (!path) return 'form';
  if (TOP_FIELDS[path]) return TOP_FIELDS[path];
  const { paths } = formComponents(form);
  let best: [string, string] | undefined;
  for (const entry of paths) {
    const [prefix] = entry;
    const fits = path === prefix || path.startsWith(`${prefix}.`) || path.startsWith(`${prefix}[`);
    if (fits && (!best || prefix.length > best[0].length)) best = entry;
  }
  return best ? best[1] : path === 'components' ? 'body' : 'form';
}

/** Errors of the service grouped by form field (several may land on one field). */
export function errorsByField(form: TemplateForm, errors: { field?: string; message: string }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors) {
    const key = fieldOfPath(form, e.field);
    (out[key] ??= []).push(e.message);
  }
  return out;
}

/** Values for the live preview: the form's examples under their send columns, uploads as links. */
export function previewValues(form: TemplateForm): Record<string, string> {
  const values: Record<string, string> = {};
  const put = (prefix: string, text: string, examples: string[]) => {
    variableNames(text).forEach((name, k) => {
      if (examples[k]) values[`${prefix}.${isPositional(name) ? k + 1 : name}`] = examples[k];
    });
  };
  const buttons = (prefix: string, list: FormButton[]) => list.forEach((b, i) => {
    const v = b.kind === 'URL' ? b.urlExample : b.kind === 'COPY_CODE' ? b.code : '';
    if (v) values[`${prefix}BUTTONS.${i}`] = v;
  });
  if (form.carousel) {
    put('BODY', form.body, form.bodyExamples);
    form.cards.forEach((card, j) => {
      put(`CAROUSEL.${j}.BODY`, card.body, card.bodyExamples);
      buttons(`CAROUSEL.${j}.`, card.buttons);
      if (card.media?.previewUrl) values[`CAROUSEL.${j}.HEADER`] = card.media.previewUrl;
    });
    return values;
  }
  put('HEADER', form.headerText, [form.headerExample]);
  put('BODY', form.body, form.bodyExamples);
  buttons('', form.buttons);
  if (form.headerMedia?.previewUrl) values.HEADER = form.headerMedia.previewUrl;
  return values;
}
