/**
 * Recipient lists as spreadsheet files (CSV or XLSX, beyond the interface): which kind a file is, the text of
 * a spreadsheet cell, and the column plan — which file column feeds the phone number, the BSUID, the name, the row
 * reference and each template column, from a mapping (column header → target) or from the headers themselves.
 */
import { AppError, type ErrorElement } from '../errors.js';
import { namesTemplateValue, resolveColumn, V1_VALUE_FIELDS, v1Field, type Slot } from './bulk-rows.js';

/** The kinds of file a start takes. */
export type SheetKind = 'csv' | 'xlsx';

/** The targets besides the template's columns. */
export const PHONE_TARGET = 'phone_number';
export const NAME_TARGET = 'full_name';
export const ID_TARGET = 'id';
/** The recipient's BSUID (`CC.<id>`), for rows whose phone number is not known. */
export const USER_ID_TARGET = 'user_id';
/** start (v1) field names accepted as targets for the template column they feed. */
const V1_TARGETS: readonly string[] = V1_VALUE_FIELDS;

function extensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
}

/**
 * The kind of an uploaded file from its first bytes and its name: a ZIP container is XLSX; text (no NUL
 * byte, no UTF-16 mark) named .csv, .txt or without extension is CSV. Anything else is 415 FILE_TYPE_UNSUPPORTED.
 */
export function detectSheetKind(head: Buffer, fileName: string): SheetKind {
  const ext = extensionOf(fileName);
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) return 'xlsx';
  const unsupported = (why: string) => new AppError('FILE_TYPE_UNSUPPORTED', `${why} Send a CSV (UTF-8) or an XLSX file.`, { field: 'file' });
  if (head.length >= 4 && head.readUInt32BE(0) === 0xd0cf11e0) throw unsupported('The file is an old Excel (XLS) or encrypted workbook.');
  if (ext === 'xlsx' || ext === 'xlsm') throw unsupported('The file is named .xlsx but is not an XLSX workbook.');
  if (head.length >= 2 && (head.readUInt16BE(0) === 0xfffe || head.readUInt16BE(0) === 0xfeff)) throw unsupported('The file is UTF-16 text.');
  if (head.includes(0)) throw unsupported('The file is not text.');
  if (!['csv', 'txt', ''].includes(ext)) throw unsupported(`.${ext} files are not read.`);
  return 'csv';
}

/** The CSV delimiter from the header line: the most frequent of , ; and tab (comma when none). */
export function sniffDelimiter(head: Buffer): string {
  const text = head.toString('utf8');
  const end = text.search(/\r?\n/);
  const line = end < 0 ? text : text.slice(0, end);
  let best = ',';
  let most = 0;
  for (const d of [',', ';', '\t']) {
    const n = line.split(d).length - 1;
    if (n > most) {
      most = n;
      best = d;
    }
  }
  return best;
}

/** The text of a spreadsheet cell value (XLSX): numbers as written, dates as ISO 8601, rich text joined, formulas by result. */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) {
    const iso = value.toISOString();
    return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso;
  }
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if (Array.isArray(v.richText)) return v.richText.map((r: { text?: unknown }) => String(r.text ?? '')).join('');
    if ('result' in v) return cellText(v.result);
    if (typeof v.text === 'string') return v.text;
    if (typeof v.error === 'string') return v.error;
  }
  return null;
}

/** One file column the start reads. */
export interface PlannedColumn {
  /** 0-based index in the file's rows. */
  index: number;
  /** The column header as the file names it (errors name it). */
  label: string;
  /** `phone_number`, `USER_ID`, `FULL_NAME`, `ID` or a template column (`BODY.1`, `CAROUSEL.0.BODY.1`, …). */
  target: string;
}

/** The columns a start reads from a file: the phone column first (null when only a user_id column names recipients), then the others. */
export interface ColumnPlan {
  phone: PlannedColumn | null;
  others: PlannedColumn[];
}

function mappingError(field: string, message: string): ErrorElement {
  return { code: 'MAPPING_INVALID', message, field };
}

/** The canonical target a mapping value (or a header, when auto-mapping) names, or undefined. */
function resolveTarget(slots: Slot[], name: string): string | undefined {
  const trimmed = name.trim();
  const lower = trimmed.toLowerCase();
  if (lower === PHONE_TARGET) return PHONE_TARGET;
  if (lower === NAME_TARGET) return 'FULL_NAME';
  if (lower === ID_TARGET) return 'ID';
  if (lower === USER_ID_TARGET) return 'USER_ID';
  if (V1_TARGETS.includes(lower)) return slots.find((s) => v1Field(s) === lower)?.column;
  if (trimmed === '') return undefined;
  return resolveColumn(slots, trimmed);
}

/** Every target a file column can be mapped to, for messages. */
export function knownTargets(slots: Slot[]): string[] {
  const v1 = V1_TARGETS.filter((t) => slots.some((s) => v1Field(s) === t));
  return [PHONE_TARGET, USER_ID_TARGET, NAME_TARGET, ID_TARGET, ...slots.map((s) => s.column), ...v1];
}

/**
 * The column plan from the header row and the mapping (`null`: headers that already name a target are used,
 * a header that names a template value the template does not take is refused, other headers are ignored). Throws 400 MAPPING_INVALID naming `mapping.<header>` (or `mapping`) for a header the
 * file lacks, an unknown or repeated target, neither a phone nor a user_id column, or a template column nothing feeds.
 */
export function planColumns(headers: string[], slots: Slot[], mapping: Record<string, string> | null): ColumnPlan {
  const errors: ErrorElement[] = [];
  const chosen: PlannedColumn[] = [];
  const targets = knownTargets(slots).join(', ');
  if (mapping) {
    for (const [header, target] of Object.entries(mapping)) {
      const at = `mapping.${header}`;
      const matches = headers.flatMap((h, i) => (h.trim() === header.trim() ? [i] : []));
      if (matches.length === 0) {
        errors.push(mappingError(at, `The file has no column "${header}" (its header row: ${headers.filter((h) => h.trim()).join(', ')}).`));
        continue;
      }
      if (matches.length > 1) {
        errors.push(mappingError(at, `The file has ${matches.length} columns named "${header}"; rename one.`));
        continue;
      }
      const resolved = resolveTarget(slots, target);
      if (!resolved) {
        errors.push(mappingError(at, `"${target}" is not a target of this template (targets: ${targets}).`));
        continue;
      }
      chosen.push({ index: matches[0], label: headers[matches[0]], target: resolved });
    }
  } else {
    headers.forEach((h, index) => {
      const resolved = resolveTarget(slots, h);
      if (resolved) chosen.push({ index, label: h, target: resolved });
      // A column that names a template value the template does not take is refused (its values would be dropped).
      else if (namesTemplateValue(h)) {
        errors.push(mappingError(`mapping.${h.trim()}`, `The column "${h.trim()}" names a value this template does not take (its columns: ${targets}); remove the column or send a mapping that leaves it out.`));
      }
    });
  }
  const byTarget = new Map<string, PlannedColumn>();
  for (const c of chosen) {
    const first = byTarget.get(c.target);
    if (first) {
      errors.push(mappingError(mapping ? `mapping.${c.label}` : 'mapping', `Columns "${first.label}" and "${c.label}" both feed ${c.target}.`));
    } else {
      byTarget.set(c.target, c);
    }
  }
  const phone = byTarget.get(PHONE_TARGET) ?? null;
  if (!phone && !byTarget.has('USER_ID') && errors.length === 0) {
    errors.push(
      mappingError('mapping', mapping ? 'Map one column to phone_number (or user_id, for BSUIDs).' : 'No column is named phone_number (or user_id, for BSUIDs): name one so, or send a mapping.'),
    );
  }
  const missing = slots.filter((s) => !s.optional && !byTarget.has(s.column));
  if (missing.length && errors.length === 0) {
    errors.push(mappingError('mapping', `The template needs the columns ${missing.map((s) => s.column).join(', ')}; map a file column to each.`));
  }
  if (errors.length) {
    throw new AppError('MAPPING_INVALID', errors[0].message, { field: errors[0].field, details: errors });
  }
  return { phone, others: [...byTarget.values()].filter((c) => c.target !== PHONE_TARGET) };
}

/** The mapping field: a JSON object of column header → target strings, or 400 MAPPING_INVALID. */
export function parseMapping(text: string | undefined): Record<string, string> | null {
  if (text === undefined || text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError('MAPPING_INVALID', 'mapping must be a JSON object: {"<column header>": "<target>", …}.', { field: 'mapping' });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new AppError('MAPPING_INVALID', 'mapping must be a JSON object: {"<column header>": "<target>", …}.', { field: 'mapping' });
  }
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > 200) throw new AppError('MAPPING_INVALID', 'mapping has more than 200 columns.', { field: 'mapping' });
  for (const [k, v] of entries) {
    if (typeof v !== 'string' || v.length > 64) throw new AppError('MAPPING_INVALID', `mapping.${k} must be a target name (a string of at most 64 characters).`, { field: `mapping.${k}` });
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
