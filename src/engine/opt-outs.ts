/**
 * Opt-out use cases (beyond the interface): the company's suppression list (list, add, remove,
 * CSV import) and its opt-out keywords. Numbers are stored in E.164 (`domain/phone.ts`), as messages store them,
 * so the number check finds them. Bad input throws catalogue errors and writes nothing.
 */
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { Kysely } from 'kysely';
import { AppError, invalid } from '../errors.js';
import { checkKeywords, DEFAULT_OPT_OUT_KEYWORDS } from '../domain/opt-outs.js';
import { normalizePhone } from '../domain/phone.js';
import type { Database } from '../store/schema.js';
import {
  countOptOuts,
  deleteOptOutsOfRecipient,
  findOptOuts,
  findOptOutKeywords,
  insertOptOut,
  insertOptOuts,
  listOptOuts,
  upsertOptOutKeywords,
  type OptOutRow,
} from '../store/opt-outs.js';

type Db = Kysely<Database>;

/** A reason given with an add or an import line is at most this long. */
export const MAX_REASON_LENGTH = 500;

/** The E.164 form of a number from a request, or a 400 naming `field`. */
export function requirePhone(input: string, field: string): string {
  const phone = normalizePhone(input);
  if (!phone.ok) throw invalid(field, phone.reason);
  return phone.e164;
}

/** Adds a number with source `api`; a number already listed keeps its first entry (`created` false). */
export async function addOptOut(db: Db, companyId: string, input: { phone_number: string; reason?: string | null }): Promise<{ optOut: OptOutRow; created: boolean }> {
  const phone = requirePhone(input.phone_number, 'phone_number');
  const created = await insertOptOut(db, companyId, { phone_number: phone, source: 'api', reason: input.reason ?? null });
  if (created) return { optOut: created, created: true };
  const existing = (await findOptOuts(db, companyId, { phone_number: phone, user_id: null }))[0];
  // Removed between the two statements: add it again (rare; the list then holds this request's entry).
  if (!existing) return addOptOut(db, companyId, input);
  return { optOut: existing, created: false };
}

/** Removes a number; 404 when the company has no opt-out for it. */
export async function removeOptOut(db: Db, companyId: string, rawPhone: string): Promise<void> {
  const phone = requirePhone(rawPhone, 'phone_number');
  if ((await deleteOptOutsOfRecipient(db, companyId, { phone_number: phone, user_id: null })) === 0) throw new AppError('NOT_FOUND', `${phone} is not on the opt-out list.`, { field: 'phone_number' });
}

/** One page of the list, newest first; `search` keeps numbers that contain its digits. */
export async function listOptOutPage(db: Db, companyId: string, q: { page: number; page_size: number; search?: string }) {
  let digits: string | undefined;
  if (q.search !== undefined) {
    digits = q.search.replace(/[\s().+-]/g, '');
    if (!/^\d{1,15}$/.test(digits)) throw invalid('phone_number', 'phone_number searches by 1 to 15 digits (spaces, +, -, ( ) and . are ignored)');
  }
  const [items, total] = await Promise.all([
    listOptOuts(db, companyId, { offset: (q.page - 1) * q.page_size, limit: q.page_size, digits }),
    countOptOuts(db, companyId, { digits }),
  ]);
  return { items, total };
}

/** The company's keywords and whether they are the defaults. */
export async function getOptOutKeywords(db: Db, companyId: string): Promise<{ keywords: string[]; is_default: boolean }> {
  const own = await findOptOutKeywords(db, companyId);
  return own ? { keywords: own, is_default: false } : { keywords: [...DEFAULT_OPT_OUT_KEYWORDS], is_default: true };
}

/** Replaces the company's keywords (normalised; an empty list turns keyword opt-outs off). */
export async function setOptOutKeywords(db: Db, companyId: string, input: string[]): Promise<{ keywords: string[]; is_default: boolean }> {
  const checked = checkKeywords(input);
  if (!checked.ok) {
    const details = checked.problems.map((p) => ({ code: 'VALIDATION_FAILED', message: p.message, field: p.index < 0 ? 'keywords' : `keywords[${p.index}]` }));
    throw new AppError('VALIDATION_FAILED', details[0].message, { details });
  }
  await upsertOptOutKeywords(db, companyId, checked.keywords);
  return { keywords: checked.keywords, is_default: false };
}

/** Limits of one import. */
export const IMPORT_LIMITS = { maxLines: 100_000, maxLineBytes: 4096, maxReportedErrors: 100 } as const;

/** What an import did. */
export interface ImportReport {
  /** Data lines read (the header and empty lines not counted). */
  lines: number;
  /** Numbers newly added to the list. */
  added: number;
  /** Lines whose number was already on the list, or repeated an earlier line of the file. */
  already_listed: number;
  /** Lines refused (see errors). */
  invalid: number;
  /** The first refused lines with their line number in the file (1 = the header). */
  errors: Array<{ line: number; message: string }>;
}

/** A line number for a parsed record: where it starts (a quoted field may span lines). */
function startLine(endLine: number, raw: string | undefined): number {
  const inner = (raw ?? '').replace(/^[\r\n]+|[\r\n]+$/g, '');
  return endLine - (inner.match(/\n/g)?.length ?? 0);
}

/**
 * The separator of the file, from its first line (comma, semicolon as spreadsheets in many locales export, or tab),
 * and the file again as a stream (the bytes read to decide are put back in front).
 */
async function sniffDelimiter(file: Readable): Promise<{ delimiter: string; stream: Readable }> {
  const it = file[Symbol.asyncIterator]() as AsyncIterator<Buffer | string>;
  const head: Buffer[] = [];
  let bytes = 0;
  for (;;) {
    const next = await it.next();
    if (next.done) break;
    const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    head.push(chunk);
    bytes += chunk.length;
    if (chunk.includes(0x0a) || bytes >= IMPORT_LIMITS.maxLineBytes) break;
  }
  const firstLine = Buffer.concat(head).toString('utf8').split('\n')[0];
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const best = counts.reduce((a, b) => (b[1] > a[1] ? b : a));
  async function* rest() {
    yield* head;
    for (;;) {
      const next = await it.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { delimiter: best[1] > 0 ? best[0] : ',', stream: Readable.from(rest()) };
}

/**
 * Imports a CSV file (streamed through csv-parse; comma, semicolon or tab separated, as its header line shows): a
 * header line naming a `phone_number` column and optionally a `reason` column (other columns are ignored), then one
 * number per line. Lines with a bad number or reason are
 * reported with their line number and skipped; every good line is stored (source `import`), all in one
 * transaction once the whole file was read. A file that is not CSV (an unclosed quote, a line over 4 KB), has no
 * such header or more than 100,000 lines is refused as a whole: nothing is written.
 */
export async function importOptOuts(db: Db, companyId: string, file: Readable): Promise<ImportReport> {
  let lastEnd = 0;
  const { delimiter, stream } = await sniffDelimiter(file);
  const parser = stream.pipe(
    parse({
      delimiter,
      bom: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, trim: true, info: true, raw: true,
      max_record_size: IMPORT_LIMITS.maxLineBytes,
      // Called as each record is parsed (before it is read below): where the last good record ended.
      on_record: (record, context) => {
        lastEnd = context.lines;
        return record;
      },
    }),
  );
  stream.on('error', (error) => parser.destroy(error));
  const report: ImportReport = { lines: 0, added: 0, already_listed: 0, invalid: 0, errors: [] };
  const entries = new Map<string, { phone_number: string; source: string; reason: string | null }>();
  let columns: { phone: number; reason: number } | null = null;
  const refuse = (line: number, message: string) => {
    report.invalid += 1;
    if (report.errors.length < IMPORT_LIMITS.maxReportedErrors) report.errors.push({ line, message });
  };
  try {
    for await (const { record, info, raw } of parser as AsyncIterable<{ record: string[]; info: { lines: number }; raw?: string }>) {
      const line = startLine(info.lines, raw);
      if (!columns) {
        const names = record.map((c) => c.toLowerCase());
        const phone = names.indexOf('phone_number');
        if (phone < 0) throw invalid('file', `The first line must be a header naming a phone_number column (and optionally reason); line ${line} is "${record.join(',').slice(0, 80)}".`);
        columns = { phone, reason: names.indexOf('reason') };
        continue;
      }
      report.lines += 1;
      if (report.lines > IMPORT_LIMITS.maxLines) {
        throw new AppError('PAYLOAD_TOO_LARGE', `An import holds at most ${IMPORT_LIMITS.maxLines} lines; split the file.`, { field: 'file' });
      }
      const cell = record[columns.phone] ?? '';
      if (cell === '') {
        refuse(line, 'phone_number is empty');
        continue;
      }
      const phone = normalizePhone(cell);
      if (!phone.ok) {
        refuse(line, `phone_number ${JSON.stringify(cell.slice(0, 40))}: ${phone.reason}`);
        continue;
      }
      const reason = columns.reason >= 0 && record[columns.reason] ? record[columns.reason] : null;
      if (reason !== null && (reason.length > MAX_REASON_LENGTH || reason.includes('\u0000'))) {
        refuse(line, `reason has at most ${MAX_REASON_LENGTH} characters and no NUL`);
        continue;
      }
      if (entries.has(phone.e164)) {
        report.already_listed += 1;
        continue;
      }
      entries.set(phone.e164, { phone_number: phone.e164, source: 'import', reason });
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    const e = error as { code?: string; lines?: number; message?: string };
    if (e.code === 'CSV_QUOTE_NOT_CLOSED') {
      // The parser names the line where the file ended; the quote was opened on the line after the last good record.
      throw invalid('file', `The file is not valid CSV: a quote opened at line ${lastEnd + 1} is never closed.`);
    }
    if (typeof e.code === 'string' && e.code.startsWith('CSV_')) {
      throw invalid('file', `The file is not valid CSV at line ${e.lines ?? '?'}: ${e.message}`);
    }
    throw error;
  }
  if (!columns) throw invalid('file', 'The file is empty: the first line must be a header naming a phone_number column.');
  const all = [...entries.values()];
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < all.length; i += 1000) report.added += await insertOptOuts(tx, companyId, all.slice(i, i + 1000));
  });
  report.already_listed += all.length - report.added;
  return report;
}
