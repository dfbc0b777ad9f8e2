/**
 * Starting a bulk send from an uploaded CSV or XLSX file (beyond the interface). The file, already on disk,
 * is read as a stream (csv-parse; exceljs' streaming WorkbookReader, first worksheet): the header row gives the
 * column plan (mapping or header names), then each data row goes to a JSON-lines spool in startv2's form
 * (`[sheet row, phone, cells…]`), and the spool is started like a startv2 body — the same checks and errors,
 * stored in batches, nothing stored on error. Memory stays flat whatever the row count (an XLSX's shared-strings
 * table, which every reader needs while reading the sheet, is kept in a scratch file: disk-string-table.ts).
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { rm } from 'node:fs/promises';
import { finished, pipeline } from 'node:stream/promises';
import { Parser } from 'csv-parse';
import ExcelJS from 'exceljs';
import { templateSlots } from '../domain/bulk-rows.js';
import { cellText, detectSheetKind, parseMapping, planColumns, sniffDelimiter, type SheetKind } from '../domain/sheet-files.js';
import type { StoredComponents } from '../domain/templates/types.js';
import { AppError, invalid } from '../errors.js';
import { DiskStringTable } from './disk-string-table.js';
import { startBulkSend, type BulkDryRun, type BulkStartDeps, type StartedBulkSend, type StartShape } from './bulk-start.js';
import { readChannelHealth } from './channel-health.js';
import { requireSendableTemplate } from './single-send.js';

/** An uploaded file staged on disk. */
export interface StagedSheet {
  path: string;
  fileName: string;
  /** The first bytes (up to 64 KiB): kind and CSV delimiter are read from them. */
  head: Buffer;
}

/** The phone column of a file whose recipients are named by BSUID only: every row's phone cell is empty. */
const NO_PHONE_COLUMN = { index: -1, label: 'phone_number', target: 'phone_number' };

/** The fields of startv2 a file gives instead of the form (its rows and their columns). */
const FROM_FILE = ['rows', 'param_headers'];

/** One row of a sheet: its row number in the sheet (the header is row 1 when it is the first line) and its cells. */
interface SheetRow {
  n: number;
  cells: Array<string | null>;
}

function fileError(message: string): AppError {
  return new AppError('FILE_INVALID', message, { field: 'file' });
}

/**
 * The form fields of a file start, as startBulkSend's fields (total_time a number, dry_run a boolean): startv2's
 * fields (from its schema, `shape`) but the rows and param_headers, which the file gives, and the file's `mapping`.
 */
function checkFileFields(fields: Record<string, string>, shape: StartShape) {
  const known = [...shape.fields.filter((f) => !FROM_FILE.includes(f)), 'mapping'];
  for (const key of Object.keys(fields)) if (!known.includes(key)) throw invalid(key, `${key} is not a known field`);
  for (const key of shape.required.filter((f) => !FROM_FILE.includes(f))) {
    if (fields[key] === undefined || fields[key] === '') throw invalid(key, `${key} is required`);
  }
  if (!/^\d{1,9}$/.test(fields.total_time.trim())) throw invalid('total_time', 'total_time is whole seconds (0 = as fast as the channel allows)');
  const dry = (fields.dry_run ?? 'false').trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(dry)) throw invalid('dry_run', 'dry_run must be true or false');
  const ttl = fields.message_send_ttl_seconds?.trim();
  if (ttl !== undefined && ttl !== '' && !/^\d{1,9}$/.test(ttl)) throw invalid('message_send_ttl_seconds', 'message_send_ttl_seconds is whole seconds');
  const skip = (fields.skip_invalid_rows ?? 'false').trim().toLowerCase();
  if (!['true', 'false', '1', '0'].includes(skip)) throw invalid('skip_invalid_rows', 'skip_invalid_rows must be true or false');
  return {
    templateId: fields.message_template_id,
    channelId: fields.channel_id,
    totalTime: Number(fields.total_time.trim()),
    dryRun: dry === 'true' || dry === '1',
    skipInvalid: skip === 'true' || skip === '1',
    mapping: parseMapping(fields.mapping),
    // Checked by startBulkSend like the JSON starts' (docs/bulk-send-lifecycle.md).
    scheduledAt: fields.scheduled_at?.trim(),
    sendName: fields.send_name,
    // Range and template category are checked by startBulkSend like the JSON starts'.
    ttl: ttl === undefined || ttl === '' ? undefined : Number(ttl),
  };
}

/**
 * csv-parse's parser, each record pushed with its line number (the parser's `info.lines` as it pushes the record).
 * Its `info: true` option gives the same number but builds two info objects per record, which slows the parse
 * several times over and fills the heap between full collections on a large file.
 */
class NumberedCsvParser extends Parser {
  override push(record: unknown, encoding?: BufferEncoding): boolean {
    return super.push(record === null ? null : ({ n: this.info.lines, cells: record as string[] } satisfies SheetRow), encoding);
  }
}

async function* csvRows(path: string, head: Buffer): AsyncGenerator<SheetRow> {
  const parser = new NumberedCsvParser({
    bom: true,
    delimiter: sniffDelimiter(head),
    relax_column_count: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    max_record_size: 1024 * 1024,
  });
  const reading = pipeline(createReadStream(path), parser).catch(() => undefined);
  /** The line the last record ended on: an unclosed quote opened on the line after it. */
  let lastLine = 0;
  try {
    for await (const row of parser as AsyncIterable<SheetRow>) {
      lastLine = row.n;
      yield row;
    }
  } catch (error) {
    // The parser names the line where the file ended, which may be far past the quote.
    if ((error as { code?: string }).code === 'CSV_QUOTE_NOT_CLOSED') throw fileError(`The CSV cannot be read: a quote opened at line ${lastLine + 1} is never closed.`);
    throw fileError(`The CSV cannot be read: ${(error as Error).message}`);
  } finally {
    parser.destroy();
    await reading;
  }
}

/** The parts of exceljs' streaming reader used here (its typings do not declare them). */
interface XlsxRow {
  number: number;
  values: unknown[];
}

/** A shared-string item of exceljs' `parse()` with `sharedStrings: 'emit'` (undeclared in its typings). */
interface XlsxSharedString {
  index: number;
  text: unknown;
}

/**
 * The first worksheet's rows. The workbook's shared strings (a table of every distinct text, which every sheet row
 * refers to by index) go to a scratch file beside the staged file (`DiskStringTable`), not to memory: with
 * `sharedStrings: 'emit'` exceljs reads the worksheets after that table (it spools them to temporary files first).
 */
async function* xlsxRows(path: string): AsyncGenerator<SheetRow> {
  const input = createReadStream(path);
  const strings = new DiskStringTable(`${path}.strings`);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    sharedStrings: 'emit',
    hyperlinks: 'ignore',
    styles: 'cache',
    worksheets: 'emit',
    entries: 'emit',
  } as ExcelJS.stream.xlsx.WorkbookStreamReaderOptions);
  const parsed = (reader as unknown as { parse(): AsyncIterable<XlsxSharedString | { eventType?: string; value?: unknown }> }).parse();
  const text = (value: unknown) => {
    const shared = value && typeof value === 'object' && 'sharedString' in value ? (value as { sharedString: unknown }).sharedString : undefined;
    return cellText(shared === undefined ? value : strings.get(Number(shared)));
  };
  try {
    for await (const item of parsed) {
      if ('index' in item && typeof item.index === 'number') {
        strings.add(cellText(item.text) ?? '');
        continue;
      }
      if (!('eventType' in item) || item.eventType !== 'worksheet') continue;
      strings.seal();
      for await (const row of item.value as AsyncIterable<XlsxRow>) {
        const values = Array.isArray(row.values) ? row.values : [];
        const cells = Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => text(values[i + 1]));
        if (cells.some((c) => c !== null && c !== '')) yield { n: row.number, cells };
      }
      break; // the first worksheet only
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw fileError(`The XLSX workbook cannot be read: ${(error as Error).message}`);
  } finally {
    input.destroy();
    strings.close();
    await rm(`${path}.strings`, { force: true });
  }
}

/** Rows of a staged file, header first. */
export function sheetRows(kind: SheetKind, sheet: StagedSheet): AsyncGenerator<SheetRow> {
  return kind === 'csv' ? csvRows(sheet.path, sheet.head) : xlsxRows(sheet.path);
}

/**
 * A CSV is read as UTF-8: a byte sequence that is not UTF-8 becomes U+FFFD, which would reach the phone as "�", so a
 * cell holding U+FFFD is refused (a text that means that character is not a recipient list's). A row with more
 * non-empty cells than the header has data no column names (empty trailing cells, as a trailing separator makes,
 * carry nothing and are let through). Both errors name the sheet row and the column.
 */
function refuseBadCsvCells(row: SheetRow, header: string[]): void {
  const bad = row.cells.findIndex((c) => typeof c === 'string' && c.includes('\uFFFD'));
  if (bad >= 0) {
    const field = `rows[${row.n}].${header[bad] || `column ${bad + 1}`}`;
    throw new AppError('VALIDATION_FAILED', `${field} is not valid UTF-8: save the file as CSV UTF-8.`, { field });
  }
  const extra = row.cells.findIndex((c, k) => k >= header.length && c !== null && c !== '');
  if (extra >= 0) {
    const field = `rows[${row.n}]`;
    throw new AppError('VALIDATION_FAILED', `${field} has a value in column ${extra + 1}, but the header names ${header.length} columns.`, { field });
  }
}

async function write(out: WriteStream, line: string): Promise<void> {
  if (!out.write(line)) await once(out, 'drain');
}

/**
 * Starts (or, with dry_run, only checks) a bulk send from a staged file; `spool` is a scratch file path in a
 * directory the caller removes. Errors as for startv2, naming `rows[<sheet row>].<file column>`.
 */
export async function startBulkSendFromFile(
  deps: BulkStartDeps,
  companyId: string,
  fields: Record<string, string>,
  sheet: StagedSheet,
  spool: string,
  limits: { maxRows: number },
  inTransaction?: Parameters<typeof startBulkSend>[5],
): Promise<StartedBulkSend | BulkDryRun> {
  const f = checkFileFields(fields, deps.shapes.v2);
  const kind = detectSheetKind(sheet.head, sheet.fileName);
  const channel = await readChannelHealth(deps.health, companyId, f.channelId);
  const template = await requireSendableTemplate(deps.db, companyId, channel.waba_id, f.templateId);
  const slots = templateSlots(template.components as StoredComponents);

  const rows = sheetRows(kind, sheet);
  const out = createWriteStream(spool);
  let rowCount = 0;
  let plan: ReturnType<typeof planColumns> | undefined;
  let header: string[] = [];
  try {
    for await (const row of rows) {
      if (!plan) {
        header = row.cells.map((c) => c ?? '');
        plan = planColumns(header, slots, f.mapping);
        continue;
      }
      if (kind === 'csv') refuseBadCsvCells(row, header);
      rowCount += 1;
      if (rowCount > limits.maxRows) throw new AppError('PAYLOAD_TOO_LARGE', `A bulk send has at most ${limits.maxRows} rows.`, { field: 'file' });
      const cells = [row.n, plan.phone ? (row.cells[plan.phone.index] ?? null) : null, ...plan.others.map((c) => row.cells[c.index] ?? null)];
      // PostgreSQL text cannot hold NUL; the JSON starts refuse it while reading the body (engine/bulk-spool.ts).
      const nul = cells.findIndex((c, k) => k > 0 && typeof c === 'string' && c.includes('\u0000'));
      if (nul > 0) {
        const field = `rows[${row.n}].${[plan.phone ?? NO_PHONE_COLUMN, ...plan.others][nul - 1].label}`;
        throw new AppError('VALIDATION_FAILED', `${field} must not contain the NUL character (U+0000)`, { field });
      }
      await write(out, JSON.stringify(cells) + '\n');
    }
  } finally {
    await rows.return(undefined);
    out.end();
    await finished(out).catch(() => undefined);
  }
  if (!plan) throw fileError('The file is empty: the first row must name the columns.');
  if (rowCount === 0) throw fileError('The file has a header row but no data rows.');
  const columns = [plan.phone ?? NO_PHONE_COLUMN, ...plan.others];
  return startBulkSend(
    deps,
    companyId,
    'file',
    {
      fields: {
        message_template_id: f.templateId,
        channel_id: f.channelId,
        total_time: f.totalTime,
        rows: true,
        param_headers: ['row', ...columns.map((c) => c.target)],
        dry_run: f.dryRun,
        skip_invalid_rows: f.skipInvalid,
        ...(f.scheduledAt === undefined ? {} : { scheduled_at: f.scheduledAt }),
        ...(f.sendName === undefined ? {} : { send_name: f.sendName }),
        ...(f.ttl === undefined ? {} : { message_send_ttl_seconds: f.ttl }),
      },
      rowCount,
      labels: ['row', ...columns.map((c) => c.label)],
    },
    spool,
    inTransaction,
  );
}
