/**
 * Column mapping: which column of the recipient list feeds the phone number, the BSUID (a customer known only by
 * the business-scoped user id the network gave), the name and each of the
 * template's slots; auto-mapped from the header names (`phone_number`, `full_name`, `BODY.1`,
 * `CAROUSEL.0.BODY.1`, the v1 row fields `params`, `url_button_param`, ...). Then the rows as a `startv2`
 * body, the checks the console can make before asking the service, and the service's row errors
 * (`rows[3].BODY.1`) turned back into a row and a mapping target.
 */
import { MAX_CELL_LENGTH } from '../../../../src/domain/bulk-limits.js';
import { normalizePhone } from '../../../../src/domain/phone.js';
import { parseBsuid } from '../../../../src/domain/recipients.js';
import type { Slot } from './slots.js';
import type { Table } from './table.js';

/** The phone-number target. */
export const PHONE = 'phone';
/** The BSUID target (`CC.<id>`): a row needs a phone number or a BSUID. */
export const USER_ID = 'user_id';
/** The recipient-name target. */
export const FULL_NAME = 'full_name';

/** A value given once for every row, instead of a column of the list. */
export interface FixedValue {
  fixed: string;
}

/** Target (PHONE, USER_ID, FULL_NAME or a slot column) → index of the list column that feeds it, a fixed value, or null. */
export type Mapping = Record<string, number | FixedValue | null>;

/** True when a target takes one value for every row. */
export function isFixed(source: Mapping[string] | undefined): source is FixedValue {
  return typeof source === 'object' && source !== null;
}

/** A problem with one row (or the whole list when row is null), at a target when known. */
export interface RowIssue {
  /** 0-based index into the table's rows; null for the whole list (or a row known only by its sheet row). */
  row: number | null;
  /** The row's number in the file (header = row 1), for problems the service found in an uploaded file. */
  sheetRow?: number;
  /** PHONE, USER_ID, FULL_NAME, a slot column, or null for the row as a whole. */
  target: string | null;
  message: string;
}


const PHONE_NAMES = ['phone_number', 'phone', 'phonenumber', 'phone_no', 'mobile', 'mobile_number', 'msisdn', 'gsm', 'tel', 'telephone', 'whatsapp', 'whatsapp_number', 'number', 'recipient', 'to', 'telefon', 'cep'];
const USER_ID_NAMES = ['user_id', 'userid', 'bsuid', 'business_scoped_user_id', 'wa_user_id', 'whatsapp_user_id', 'user_id_(bsuid)'];
const NAME_NAMES = ['full_name', 'fullname', 'name', 'customer_name', 'contact_name', 'recipient_name', 'customer', 'contact', 'ad_soyad', 'adsoyad', 'isim'];

/** A header as compared: lower case, `{{1}}` → `1`, spaces and dashes → `_`, trimmed. */
export function normalizeHeader(header: string): string {
  return header.trim().toLowerCase().replace(/\{\{\s*([^{}]*?)\s*\}\}/g, '$1').replace(/[\s-]+/g, '_');
}

/** The header spellings that name a slot, normalised. */
function slotAliases(slot: Slot): string[] {
  const column = slot.column.toLowerCase();
  const aliases = [column, column.replace(/\./g, '_'), column.replace(/\./g, ' ').replace(/\s+/g, '_')];
  if (slot.alias) aliases.push(slot.alias.toLowerCase());
  if (slot.kind === 'text' && slot.name && !/^\d+$/.test(slot.name)) aliases.push(slot.name);
  if (slot.card === undefined) {
    if (slot.part === 'HEADER') aliases.push('text_header_param', 'header_param', 'header');
    if (slot.kind === 'text' && slot.part === 'BODY') {
      const n = slot.index;
      aliases.push(`params[${n - 1}]`, `params_${n - 1}`, `param${n}`, `param_${n}`, `params${n}`, `parameter_${n}`);
    }
    if (slot.buttonType === 'URL' && slot.urlOrdinal === 1) aliases.push('url_button_param', 'url_param', 'url');
    if (slot.buttonType === 'URL' && slot.urlOrdinal === 2) aliases.push('url_button_param2');
    if (slot.buttonType === 'COPY_CODE') aliases.push('copy_code_param', 'coupon_code', 'code', 'coupon');
  }
  // The label the wizard shows (and writes as the sample file's header) names the slot too.
  aliases.push(slot.label.replace(/\s*\(optional\)$/, ''));
  return aliases.map(normalizeHeader);
}

/** The header row of a sample list for a template: the phone, the BSUID, the name, then each value in plain words (autoMap reads them back). */
export function sampleHeaders(slots: Slot[]): string[] {
  return ['Phone number', 'User ID (BSUID)', 'Name', ...slots.map((s) => s.label.replace(/\s*\(optional\)$/, ''))];
}

/** Maps each target to the first unused column whose header names it (phone and name first, then the slots). */
export function autoMap(headers: string[], slots: Slot[]): Mapping {
  const normalized = headers.map(normalizeHeader);
  const used = new Set<number>();
  const mapping: Mapping = {};
  const take = (target: string, names: string[]) => {
    for (const name of names) {
      const i = normalized.findIndex((h, k) => h === name && !used.has(k));
      if (i >= 0) {
        used.add(i);
        mapping[target] = i;
        return;
      }
    }
    mapping[target] = null;
  };
  // Exact slot columns win over the loose aliases (a "name" column must not steal BODY.name's header).
  take(PHONE, PHONE_NAMES);
  take(USER_ID, USER_ID_NAMES);
  for (const slot of slots) {
    const exact = normalizeHeader(slot.column);
    const i = normalized.findIndex((h, k) => (h === exact || h === exact.replace(/\./g, '_')) && !used.has(k));
    if (i >= 0) {
      used.add(i);
      mapping[slot.column] = i;
    }
  }
  for (const slot of slots) if (mapping[slot.column] === undefined) take(slot.column, slotAliases(slot));
  take(FULL_NAME, NAME_NAMES);
  return mapping;
}

/** The service's own E.164 check (src/domain/phone.ts); an empty cell is said as such. */
export function phoneProblem(input: string): string | null {
  if (input.trim() === '') return 'the phone number is empty';
  const phone = normalizePhone(input);
  return phone.ok ? null : phone.reason;
}

/** The number as the service keys duplicates: digits only, `00` prefix dropped. */
export function phoneKey(input: string): string {
  const compact = input.trim().replace(/[\s().-]/g, '');
  return (compact.startsWith('00') ? compact.slice(2) : compact).replace(/^\+/, '');
}

/** Why a BSUID cell is not one (the service's rule, src/domain/recipients.ts), or null. */
export function userIdProblem(input: string): string | null {
  const parsed = parseBsuid(input);
  return parsed.ok ? null : parsed.reason;
}

/** Whether a target is fed (a column, or a fixed value). */
function isMapped(mapping: Mapping, target: string): boolean {
  return mapping[target] !== null && mapping[target] !== undefined;
}

/** A row's cell for a target ('' when unmapped). */
export function cellOf(table: Table, mapping: Mapping, row: number, target: string): string {
  const k = mapping[target];
  if (isFixed(k)) return row < table.rows.length ? k.fixed : '';
  return k === null || k === undefined ? '' : (table.rows[row]?.[k] ?? '');
}

/** Targets the mapping still lacks: the phone (unless a BSUID column names the recipients) and every required slot. */
export function missingTargets(mapping: Mapping, slots: Slot[]): string[] {
  const needed = [...(isMapped(mapping, USER_ID) ? [] : [PHONE]), ...slots.filter((s) => !s.optional).map((s) => s.column)];
  return needed.filter((t) => {
    const m = mapping[t];
    return m === null || m === undefined || (isFixed(m) && m.fixed.trim() === '');
  });
}

/** What the console can tell before asking the service: bad phone numbers and BSUIDs, empty required cells, long cells. */
export function checkRows(table: Table, mapping: Mapping, slots: Slot[], limit = 1000): RowIssue[] {
  const issues: RowIssue[] = [];
  const byUserId = isMapped(mapping, USER_ID);
  for (let r = 0; r < table.rows.length && issues.length < limit; r++) {
    const phoneCell = cellOf(table, mapping, r, PHONE);
    const userIdCell = cellOf(table, mapping, r, USER_ID).trim();
    // A row names its recipient by phone number, by BSUID or both; each one given must be valid.
    if (phoneCell.trim() === '' && userIdCell === '') {
      issues.push({ row: r, target: PHONE, message: byUserId ? 'the row has neither a phone number nor a user ID' : 'the phone number is empty' });
    } else {
      const phone = phoneCell.trim() === '' ? null : phoneProblem(phoneCell);
      if (phone) issues.push({ row: r, target: PHONE, message: phone });
      const userId = userIdCell === '' ? null : userIdProblem(userIdCell);
      if (userId) issues.push({ row: r, target: USER_ID, message: userId });
    }
    for (const s of slots) {
      if (mapping[s.column] === null || mapping[s.column] === undefined) continue;
      const v = cellOf(table, mapping, r, s.column);
      if (!s.optional && v.trim() === '') issues.push({ row: r, target: s.column, message: `${s.label} is empty` });
      else if ([...v].length > MAX_CELL_LENGTH) issues.push({ row: r, target: s.column, message: `longer than ${MAX_CELL_LENGTH} characters` });
      else if (s.kind === 'text' && /[\n\t]| {5}/.test(v)) issues.push({ row: r, target: s.column, message: 'a parameter may not hold new lines, tabs or more than 4 spaces in a row' });
    }
  }
  return issues;
}

/** Rows whose phone number or BSUID an earlier row already has (the service sends to each recipient once). */
export function countDuplicates(table: Table, mapping: Mapping): number {
  const seen = new Set<string>();
  let duplicates = 0;
  for (let r = 0; r < table.rows.length; r++) {
    const phone = cellOf(table, mapping, r, PHONE);
    const userId = cellOf(table, mapping, r, USER_ID).trim();
    const keys = [
      ...(phone.trim() !== '' && !phoneProblem(phone) ? [`+${phoneKey(phone)}`] : []),
      ...(userId !== '' && !userIdProblem(userId) ? [userId] : []),
    ];
    if (keys.length === 0) continue;
    if (keys.some((k) => seen.has(k))) duplicates += 1;
    else for (const k of keys) seen.add(k);
  }
  return duplicates;
}

/** The row-number and phone columns' names in the startv2 body. */
const ROW_HEADER = 'ROW';
const PHONE_HEADER = 'PHONE';
const USER_ID_HEADER = 'USER_ID';

/** The list as `startv2`'s `param_headers` and `rows` (row numbers 1..n in list order). */
export function toStartRows(table: Table, mapping: Mapping, slots: Slot[]): { param_headers: string[]; rows: (string | number | null)[][] } {
  const mapped = slots.filter((s) => mapping[s.column] !== null && mapping[s.column] !== undefined);
  const withName = isMapped(mapping, FULL_NAME);
  const withUserId = isMapped(mapping, USER_ID);
  const param_headers = [ROW_HEADER, PHONE_HEADER, ...mapped.map((s) => s.column), ...(withName ? ['FULL_NAME'] : []), ...(withUserId ? [USER_ID_HEADER] : [])];
  const orNull = (text: string) => (text === '' ? null : text);
  const rows = table.rows.map((_, r) => {
    const cells: (string | number | null)[] = [r + 1, orNull(cellOf(table, mapping, r, PHONE).trim())];
    for (const s of mapped) {
      const v = cellOf(table, mapping, r, s.column);
      cells.push(s.optional && v.trim() === '' ? null : v);
    }
    if (withName) cells.push(orNull(cellOf(table, mapping, r, FULL_NAME).trim()));
    if (withUserId) cells.push(orNull(cellOf(table, mapping, r, USER_ID).trim()));
    return cells;
  });
  return { param_headers, rows };
}

/**
 * The service's error elements as row issues: `rows[4].BODY.1` → row 4 at BODY.1, `rows[4].PHONE` → the
 * phone, `rows[4][0]` or `rows[4]` → the row; anything else (a field of the body) → the whole list.
 */
export function issuesFromErrors(errors: { field?: string; message: string }[], paramHeaders: string[]): RowIssue[] {
  return errors.map((e) => {
    const m = /^rows\[(\d+)\](?:\.(.+)|\[(\d+)\])?$/.exec(e.field ?? '');
    if (!m) return { row: null, target: null, message: e.message };
    const header = m[2] ?? (m[3] !== undefined ? paramHeaders[Number(m[3])] : undefined);
    const target =
      header === undefined || header === ROW_HEADER ? null
      : header === PHONE_HEADER ? PHONE
      : header === 'FULL_NAME' ? FULL_NAME
      : header === USER_ID_HEADER ? USER_ID
      : header;
    return { row: Number(m[1]), target, message: e.message };
  });
}

/** The `mapping` field of a file start (`start-file`): file column header → target (phone_number, user_id, full_name, a column). */
export function toFileMapping(headers: string[], mapping: Mapping): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [target, k] of Object.entries(mapping)) {
    // A file goes as it is: fixed values are not offered for it.
    if (k === null || k === undefined || isFixed(k)) continue;
    out[headers[k]] = target === PHONE ? 'phone_number' : target === FULL_NAME ? 'full_name' : target;
  }
  return out;
}

/**
 * A file start's errors as issues: `rows[12].phone` → sheet row 12 at the target the `phone` column feeds;
 * `mapping.<header>` → that header's target; anything else → the whole list.
 */
export function issuesFromFileErrors(errors: { field?: string; message: string }[], headers: string[], mapping: Mapping): RowIssue[] {
  const targetOf = (header: string): string | null => {
    const k = headers.findIndex((h) => h === header);
    return Object.entries(mapping).find(([, v]) => v === k && k >= 0)?.[0] ?? null;
  };
  return errors.map((e) => {
    const m = /^rows\[(\d+)\](?:\.(.+))?$/.exec(e.field ?? '');
    if (m) return { row: null, sheetRow: Number(m[1]), target: m[2] === undefined ? null : targetOf(m[2]), message: e.message };
    const map = /^mapping\.(.+)$/.exec(e.field ?? '');
    return { row: null, target: map ? targetOf(map[1]) : null, message: e.message };
  });
}
