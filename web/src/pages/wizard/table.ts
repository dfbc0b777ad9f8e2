/**
 * Recipient lists as a table of text cells: a CSV file or pasted text (papaparse: delimiter detected, so
 * a block copied from a spreadsheet, tab-separated, works too) or the first sheet of an XLSX file
 * (read-excel-file). The first row is the header row unless it already looks like data (a phone number
 * in it); then the columns are named "Column 1", "Column 2", ...
 */
import Papa from 'papaparse';
import { readSheet } from 'read-excel-file/universal';

/** A parsed list: column names and rows of text cells (every row as long as the header). */
export interface Table {
  headers: string[];
  rows: string[][];
}

/** Most rows the console edits in the browser; a bigger file is sent as a file (start-file) and checked by the service. */
export const MAX_EDIT_ROWS = 5_000;
/** A CSV bigger than this is not read whole: its first rows are the preview and the file goes to the service. */
export const LARGE_CSV_BYTES = 4 * 1024 * 1024;
/** Bytes read from the start of a large CSV for its preview. */
const HEAD_BYTES = 256 * 1024;

/** Raised for a file or text that is not a usable list; the message is for the user. */
export class TableError extends Error {}

const PHONE_LIKE = /^\+?[\d\s().-]{8,20}$/;

/** True when a cell looks like a phone number rather than a column name. */
function looksLikePhone(cell: string): boolean {
  return PHONE_LIKE.test(cell.trim()) && cell.replace(/\D/g, '').length >= 8;
}

/** Text of a spreadsheet cell: numbers as written, dates as YYYY-MM-DD, booleans as TRUE/FALSE. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? '' : value.toISOString().slice(0, 10);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (typeof value === 'number') return Number.isInteger(value) ? value.toFixed(0) : String(value);
  return String(value);
}

/**
 * Builds a table from raw rows: blank rows dropped, cells trimmed, a header row taken off (or generated),
 * rows padded to the header's length. `header: 'auto'` takes the first row as the header unless a cell
 * of it looks like a phone number.
 */
export function toTable(raw: unknown[][], header: boolean | 'auto' = 'auto'): Table {
  const cells = raw.map((r) => r.map((c) => cellText(c).trim())).filter((r) => r.some((c) => c !== ''));
  if (cells.length === 0) throw new TableError('The list is empty: no rows with values were found.');
  const first = cells[0];
  const hasHeader = header === 'auto' ? !first.some(looksLikePhone) : header;
  const width = Math.max(...cells.map((r) => r.length));
  const headers = hasHeader
    ? Array.from({ length: width }, (_, i) => first[i] || `Column ${i + 1}`)
    : Array.from({ length: width }, (_, i) => `Column ${i + 1}`);
  const rows = (hasHeader ? cells.slice(1) : cells).map((r) => Array.from({ length: width }, (_, i) => r[i] ?? ''));
  if (rows.length === 0) throw new TableError('The list has a header row but no recipients.');
  return { headers, rows };
}

/** Parses CSV or pasted text (comma, semicolon or tab separated; a leading byte-order mark is ignored). */
export function parseDelimited(text: string, header: boolean | 'auto' = 'auto'): Table {
  const clean = text.replace(/^\uFEFF/, '');
  if (clean.trim() === '') throw new TableError('The list is empty: no rows with values were found.');
  const result = Papa.parse<string[]>(clean, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t', '|'] });
  const fatal = result.errors.find((e) => e.type === 'Quotes');
  if (fatal) throw new TableError(`The CSV could not be read at row ${(fatal.row ?? 0) + 1}: ${fatal.message}.`);
  return toTable(result.data, header);
}

/** Parses the first sheet of an XLSX file (numbers kept as written, so long phone numbers stay exact). */
export async function parseXlsx(data: Blob | ArrayBuffer, header: boolean | 'auto' = 'auto'): Promise<Table> {
  let sheet: unknown[][];
  try {
    sheet = (await readSheet<string>(data, { parseNumber: (s: string) => s })) as unknown[][];
  } catch (error) {
    throw new TableError(`The file could not be read as an Excel (.xlsx) workbook: ${(error as Error).message}`);
  }
  return toTable(sheet, header);
}

/** The header and first rows of a CSV from its first bytes (the last, possibly cut, line is dropped). */
export function parseCsvHead(text: string, maxRows = 50): Table {
  const cut = text.length >= HEAD_BYTES ? text.slice(0, Math.max(0, text.lastIndexOf('\n'))) : text;
  const t = parseDelimited(cut, true);
  return { headers: t.headers, rows: t.rows.slice(0, maxRows) };
}

/** The preview of a large CSV file: its header and first rows, read from its first 256 KB. */
export async function parseLargeCsv(file: Blob, maxRows = 50): Promise<Table> {
  return parseCsvHead(await file.slice(0, HEAD_BYTES).text(), maxRows);
}

/** Parses a chosen file by its name: .xlsx as a workbook, anything else as CSV text. */
export async function parseFile(file: File, header: boolean | 'auto' = 'auto'): Promise<Table> {
  if (/\.xlsx$/i.test(file.name)) return parseXlsx(file, header);
  if (/\.xls$/i.test(file.name)) throw new TableError('Old .xls workbooks are not read: save the file as .xlsx or .csv.');
  return parseDelimited(await file.text(), header);
}
