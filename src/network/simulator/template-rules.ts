/** The network's checks of a template creation and of a send's parameters against an approved template. */
import type { GraphTemplateComponent } from '../port.js';
import { SIM_HEADER_FORMAT_OF_TYPE, SIM_LANGUAGES } from './constants.js';
import { invalidParameter, messagingError } from './graph-errors.js';
import type { SimWorld } from './world.js';

const CATEGORIES = ['AUTHENTICATION', 'MARKETING', 'UTILITY'];
const MEDIA_FORMATS = ['IMAGE', 'VIDEO', 'DOCUMENT'];

/** Distinct placeholders (`{{1}}`, `{{name}}`) of a text. */
export function placeholders(text: unknown): string[] {
  if (typeof text !== 'string') return [];
  return [...new Set([...text.matchAll(/\{\{\s*([^{}]+?)\s*\}\}/g)].map((m) => m[1]))];
}

function formatError(subcode: number, title: string, msg: string) {
  return invalidParameter(msg, { subcode, userTitle: title, userMsg: msg });
}

/** A validated creation. */
export interface TemplateDraft {
  name: string;
  language: string;
  category: string;
  parameterFormat: string;
  components: GraphTemplateComponent[];
}

function normaliseComponent(c: unknown, i: number): GraphTemplateComponent {
  if (typeof c !== 'object' || c === null || typeof (c as { type?: unknown }).type !== 'string') {
    throw invalidParameter(`components[${i}] must be an object with a type`);
  }
  const comp = { ...(c as GraphTemplateComponent) };
  comp.type = comp.type.toUpperCase();
  if (typeof comp.format === 'string') comp.format = comp.format.toUpperCase();
  if (Array.isArray(comp.buttons)) {
    comp.buttons = comp.buttons.map((b) => ({ ...b, type: String(b?.type ?? '').toUpperCase() }));
  }
  if (Array.isArray(comp.cards)) {
    comp.cards = comp.cards.map((card) => ({ ...card, components: (card?.components ?? []).map(normaliseComponent) }));
  }
  return comp;
}

function checkHeader(world: SimWorld, h: GraphTemplateComponent, named: boolean): void {
  if (h.format === 'TEXT' || h.format === undefined) {
    const text = typeof h.text === 'string' ? h.text : '';
    if (text.length === 0 || text.length > 60) throw formatError(2388040, 'Header text too long', 'Header text must be 1-60 characters.');
    if (placeholders(text).length > 1) throw formatError(2388047, 'Invalid header format', 'A text header can have at most one variable.');
    checkParameterFormat(h, named);
  } else if (MEDIA_FORMATS.includes(h.format)) {
    const handle = h.example?.header_handle?.[0];
    const type = typeof handle === 'string' ? world.handles.get(handle) : undefined;
    if (!type || SIM_HEADER_FORMAT_OF_TYPE[type] !== h.format) {
      throw formatError(2388047, 'Invalid header handle', `A ${h.format} header needs example.header_handle from a finished upload of that media type.`);
    }
  } else if (h.format !== 'LOCATION') {
    throw invalidParameter(`Unknown header format ${h.format}`);
  }
}

const NAMED_PARAM = /^[a-z][a-z0-9_]*$/;
const POSITIONAL_PARAM = /^[1-9][0-9]*$/;

/**
 * The parameter_format rules of a TEXT header or BODY (Meta's, research §2): a NAMED template uses
 * `{{lower_snake}}` variables with `*_text_named_params` examples naming exactly those variables; a
 * POSITIONAL one uses `{{1}}`… with `header_text` / `body_text`, never the named examples.
 */
function checkParameterFormat(c: GraphTemplateComponent, named: boolean): void {
  const isHeader = c.type === 'HEADER';
  const [subcode, title] = isHeader ? [2388047, 'Invalid header format'] : [2388072, 'Invalid body format'];
  const what = isHeader ? 'header' : 'body';
  const vars = placeholders(c.text);
  const namedKey = isHeader ? 'header_text_named_params' : 'body_text_named_params';
  const positionalKey = isHeader ? 'header_text' : 'body_text';
  const example = c.example ?? {};
  if (named) {
    const bad = vars.find((v) => !NAMED_PARAM.test(v));
    if (bad !== undefined) throw formatError(subcode, title, `The ${what} variable {{${bad}}} is not a named parameter; parameter_format NAMED takes {{lower_snake_case}} names.`);
    if (example[positionalKey] !== undefined) throw formatError(subcode, title, `A NAMED template gives ${what} examples in example.${namedKey}, not example.${positionalKey}.`);
    if (vars.length === 0) return;
    const given = example[namedKey];
    const names = Array.isArray(given) ? given.map((p) => (typeof p === 'object' && p !== null ? p.param_name : undefined)) : [];
    if (!Array.isArray(given) || given.some((p) => typeof p?.example !== 'string' || p.example.trim() === '')) {
      throw formatError(2388043, 'Missing example values', `Every ${what} variable needs an example value in example.${namedKey}.`);
    }
    const sameSet = names.length === vars.length && new Set(names).size === names.length && vars.every((v) => names.includes(v));
    if (!sameSet) {
      throw formatError(2388043, 'Missing example values', `example.${namedKey} must name each ${what} variable once: expected ${vars.join(', ')}, got ${names.map(String).join(', ')}.`);
    }
    return;
  }
  const bad = vars.find((v) => !POSITIONAL_PARAM.test(v));
  if (bad !== undefined) throw formatError(subcode, title, `The ${what} variable {{${bad}}} needs parameter_format NAMED; a POSITIONAL template uses {{1}}, {{2}}...`);
  if (example[namedKey] !== undefined) throw formatError(subcode, title, `example.${namedKey} is only for a template with parameter_format NAMED.`);
}

function checkBody(b: GraphTemplateComponent, named: boolean): void {
  const text = typeof b.text === 'string' ? b.text : '';
  if (text.trim().length === 0) throw formatError(2388072, 'Invalid body format', 'The body text is required.');
  if (text.length > 1024) throw formatError(2388040, 'Body text too long', 'The body text must be at most 1024 characters.');
  const vars = placeholders(text);
  if (vars.length === 0) return checkParameterFormat(b, named);
  if (/^\s*\{\{/.test(text) || /\}\}\s*$/.test(text)) {
    throw formatError(2388299, "Variables can't be at the start or end of the template", 'The body cannot start or end with a variable.');
  }
  checkParameterFormat(b, named);
  if (!named && (b.example?.body_text?.[0]?.length ?? 0) < vars.length) {
    throw formatError(2388043, 'Missing example values', 'Every body variable needs an example value.');
  }
}

/** Checks a `POST /{waba}/message_templates` body the way the network does; throws the Graph 100 error. */
export function validateCreation(world: SimWorld, body: unknown): TemplateDraft {
  if (typeof body !== 'object' || body === null) throw invalidParameter('The request body must be a JSON object.');
  const b = body as Record<string, unknown>;
  if ('allow_category_change' in b) throw invalidParameter('Param allow_category_change is no longer supported.');
  if (typeof b.name !== 'string' || !/^[a-z0-9_]{1,512}$/.test(b.name)) {
    throw formatError(2388042, 'Invalid template name', 'Template names can only contain lowercase letters, digits and underscores (at most 512 characters).');
  }
  if (typeof b.language !== 'string' || !SIM_LANGUAGES.has(b.language)) throw invalidParameter(`Param language is not a supported language: ${String(b.language)}`);
  const category = typeof b.category === 'string' ? b.category.toUpperCase() : '';
  if (!CATEGORIES.includes(category)) throw invalidParameter(`Param category must be one of {${CATEGORIES.join(', ')}}`);
  const parameterFormat = b.parameter_format === undefined ? 'POSITIONAL' : b.parameter_format;
  if (parameterFormat !== 'POSITIONAL' && parameterFormat !== 'NAMED') throw invalidParameter('Param parameter_format must be POSITIONAL or NAMED');
  if (!Array.isArray(b.components) || b.components.length === 0) throw invalidParameter('Param components is required.');
  const components = b.components.map(normaliseComponent);
  const bodies = components.filter((c) => c.type === 'BODY');
  if (bodies.length !== 1) throw formatError(2388072, 'Invalid body format', 'A template needs exactly one BODY component.');
  const named = parameterFormat === 'NAMED';
  for (const c of components) {
    if (c.type === 'HEADER') checkHeader(world, c, named);
    else if (c.type === 'BODY') checkBody(c, named);
    else if (c.type === 'FOOTER') {
      if (typeof c.text !== 'string' || c.text.length === 0 || c.text.length > 60) throw formatError(2388040, 'Footer text too long', 'Footer text must be 1-60 characters.');
      if (placeholders(c.text).length > 0) throw formatError(2388073, 'Invalid footer format', 'The footer cannot have variables.');
    } else if (c.type === 'BUTTONS') {
      if (!Array.isArray(c.buttons) || c.buttons.length === 0 || c.buttons.length > 10) throw invalidParameter('BUTTONS needs 1-10 buttons.');
      // The contact-request button belongs to utility and marketing templates (Meta's BSUID guide).
      if (category === 'AUTHENTICATION' && c.buttons.some((btn) => btn.type === 'REQUEST_CONTACT_INFO')) {
        throw invalidParameter('A REQUEST_CONTACT_INFO button can be added to utility and marketing templates only.');
      }
    } else if (c.type === 'CAROUSEL') {
      for (const card of c.cards ?? []) {
        for (const cc of card.components) if (cc.type === 'BODY' || (cc.type === 'HEADER' && cc.format === 'TEXT')) checkParameterFormat(cc, named);
      }
    } else {
      throw invalidParameter(`Unknown component type ${c.type}`);
    }
  }
  return { name: b.name, language: b.language, category, parameterFormat, components };
}

function countMismatch(where: string, given: number, expected: number) {
  return messagingError(
    132000,
    'Number of parameters does not match the expected number of params',
    `${where}: number of localizable_params (${given}) does not match the expected number of params (${expected})`,
  );
}

type SendComp = { type?: unknown; sub_type?: unknown; index?: unknown; parameters?: unknown; cards?: unknown };

function paramsOf(c: SendComp | undefined): Record<string, unknown>[] {
  if (!c) return [];
  if (!Array.isArray(c.parameters)) throw invalidParameter('Each component needs a parameters array.');
  for (const p of c.parameters) {
    if (typeof p !== 'object' || p === null || typeof (p as { type?: unknown }).type !== 'string') {
      throw invalidParameter('Each parameter needs a type.');
    }
  }
  return c.parameters as Record<string, unknown>[];
}

/**
 * The names of a header's or body's text parameters against the template's parameter_format (after the count
 * matched): NAMED needs a non-empty `parameter_name` on each (100 "Parameter name is missing or empty"),
 * naming a variable of the text (132018), each once (132018), in any order; POSITIONAL refuses
 * `parameter_name` (100).
 */
function checkParameterNames(where: string, params: Record<string, unknown>[], vars: string[], named: boolean): void {
  const names = params.map((p) => p.parameter_name);
  if (!named) {
    if (names.some((n) => n !== undefined)) {
      throw invalidParameter(`${where}: parameter_name is only accepted for templates with parameter_format NAMED; this template is POSITIONAL.`);
    }
    return;
  }
  if (names.some((n) => typeof n !== 'string' || n.trim() === '')) {
    throw messagingError(100, 'Invalid parameter', `${where}: Parameter name is missing or empty`);
  }
  const unknown = names.find((n) => !vars.includes(n as string));
  if (unknown !== undefined) {
    throw messagingError(132018, 'There was an issue with the parameters in your template.', `${where}: parameter_name (${String(unknown)}) does not exist in the template`);
  }
  const twice = names.find((n, k) => names.indexOf(n) !== k);
  if (twice !== undefined) {
    throw messagingError(132018, 'There was an issue with the parameters in your template.', `${where}: parameter_name (${String(twice)}) is given more than once`);
  }
}

/**
 * Checks a send's components against the template's (counts per header/body/button/carousel card, then
 * the parameter names for the template's `parameterFormat`, POSITIONAL or NAMED).
 */
export function checkSendParameters(templateComponents: GraphTemplateComponent[], sent: unknown, where = '', parameterFormat = 'POSITIONAL'): void {
  const named = parameterFormat === 'NAMED';
  if (sent !== undefined && !Array.isArray(sent)) throw invalidParameter('template.components must be an array.');
  const given = ((sent ?? []) as SendComp[]).map((c) => ({ ...c, type: String(c?.type ?? '').toLowerCase() }));
  const find = (type: string) => given.find((c) => c.type === type);
  const tmpl = (type: string) => templateComponents.find((c) => c.type === type);

  const header = tmpl('HEADER');
  const headerParams = paramsOf(find('header'));
  if (header && header.format && MEDIA_FORMATS.includes(header.format)) {
    const got = headerParams[0]?.type;
    if (headerParams.length !== 1 || String(got).toUpperCase() !== header.format) {
      throw messagingError(132012, 'Parameter format does not match format in the created template',
        `${where}header: Format mismatch, expected ${header.format}, received ${got === undefined ? 'UNKNOWN' : String(got).toUpperCase()}`);
    }
  } else {
    const expected = header && header.format === 'LOCATION' ? 1 : placeholders(header?.text).length;
    if (headerParams.length !== expected) throw countMismatch(`${where}header`, headerParams.length, expected);
    if (header?.format === 'TEXT') checkParameterNames(`${where}header`, headerParams, placeholders(header.text), named);
  }

  const bodyVars = placeholders(tmpl('BODY')?.text);
  const bodyParams = paramsOf(find('body'));
  if (bodyParams.length !== bodyVars.length) throw countMismatch(`${where}body`, bodyParams.length, bodyVars.length);
  checkParameterNames(`${where}body`, bodyParams, bodyVars, named);

  const buttons = tmpl('BUTTONS')?.buttons ?? [];
  const buttonComps = given.filter((c) => c.type === 'button');
  buttons.forEach((button, index) => {
    const needs = (button.type === 'URL' && placeholders(button.url).length > 0) || button.type === 'COPY_CODE' ? 1 : 0;
    const comp = buttonComps.find((c) => Number(c.index) === index);
    const got = paramsOf(comp).length;
    if (needs > 0 ? got !== needs : got > 1) throw countMismatch(`${where}button at index ${index}`, got, needs);
  });
  const stray = buttonComps.find((c) => !(Number(c.index) >= 0 && Number(c.index) < buttons.length));
  if (stray) throw invalidParameter(`${where}button index ${String(stray.index)} does not exist in the template`);

  const carousel = tmpl('CAROUSEL');
  if (carousel) {
    const cards = find('carousel')?.cards;
    const tmplCards = carousel.cards ?? [];
    const n = Array.isArray(cards) ? cards.length : 0;
    if (n !== tmplCards.length) {
      throw messagingError(132000, 'Number of parameters does not match the expected number of params',
        `${where}carousel: number of cards (${n}) does not match the expected number of cards (${tmplCards.length})`);
    }
    (cards as { card_index?: unknown; components?: unknown }[]).forEach((card, i) => {
      const index = Number(card?.card_index ?? i);
      checkSendParameters(tmplCards[index]?.components ?? [], card?.components, `card ${index} `, parameterFormat);
    });
  }
}
