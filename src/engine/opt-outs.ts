/**
 * Opt-out use cases (beyond the interface): the company's suppression list (list, add, remove, CSV import) by phone
 * number and/or BSUID, and its opt-out keywords. Numbers are stored in E.164 (`domain/phone.ts`), as messages store
 * them, BSUIDs as the network writes them (`domain/recipients.ts`), so the number check finds them. Bad input throws
 * catalogue errors and writes nothing.
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
  type NewOptOut,
  type OptOutKey,
  type OptOutRow,
} from '../store/opt-outs.js';
import { parseRecipient } from '../domain/recipients.js';

type Db = Kysely<Database>;

/** A reason given with an add or an import line is at most this long. */
export const MAX_REASON_LENGTH = 500;

/** The E.164 form of a number from a request, or a 400 naming `field`. */
export function requirePhone(input: string, field: string): string {
  const phone = normalizePhone(input);
  if (!phone.ok) throw invalid(field, phone.reason);
  return phone.e164;
}

/** A recipient given to the opt-out list: a phone number, a BSUID, or both (at least one). */
export interface OptOutInput {
  phone_number?: string | null;
  user_id?: string | null;
}

/** The checked phone number (E.164) and/or BSUID of a request, or a 400 naming the wrong (or missing) field. */
export function requireRecipient(input: OptOutInput): OptOutKey {
  const r = parseRecipient(input.phone_number, input.user_id, { phone: 'phone_number', userId: 'user_id' });
  if (!r.ok) throw invalid(r.field, r.reason);
  return { phone_number: r.phone, user_id: r.userId };
}

/** How an opt-out key reads in a message: the phone number, the BSUID, or both. */
const named = (key: OptOutKey) => [key.phone_number, key.user_id].filter(Boolean).join(' / ');

/**
 * Adds a recipient with source `api`. A phone number or BSUID already listed keeps its first entry (`created` false,
 * that entry returned); given both where one is listed, the other is added as an entry of its own.
 */
export async function addOptOut(db: Db, companyId: string, input: OptOutInput & { reason?: string | null }): Promise<{ optOut: OptOutRow; created: boolean }> {
  const key = requireRecipient(input);
  const entry = { source: 'api', reason: input.reason ?? null };
  const created = await insertOptOut(db, companyId, { ...key, ...entry });
  if (created) return { optOut: created, created: true };
  const existing = await findOptOuts(db, companyId, key);
  if (key.phone_number && key.user_id && existing.length === 1) {
    const other: OptOutKey = existing[0].phone_number === key.phone_number ? { phone_number: null, user_id: key.user_id } : { phone_number: key.phone_number, user_id: null };
    const added = await insertOptOut(db, companyId, { ...other, ...entry });
    if (added) return { optOut: added, created: true };
  }
  // Removed between the two statements: add it again (rare; the list then holds this request's entry).
  if (existing.length === 0) return addOptOut(db, companyId, input);
  return { optOut: existing[0], created: false };
}

/** The recipient a DELETE path names: a BSUID when it starts with a letter (`US.…`), else a phone number. */
export function recipientOfPath(raw: string): OptOutKey {
  return /^\s*[A-Za-z]/.test(raw) ? requireRecipient({ user_id: raw }) : requireRecipient({ phone_number: raw });
}

/**
 * Removes a recipient's opt-outs: the entries of its phone number or BSUID and of the identifiers the network linked
 * to it (the same person); 404 when the company has none.
 */
export async function removeOptOut(db: Db, companyId: string, key: OptOutKey): Promise<void> {
  if ((await deleteOptOutsOfRecipient(db, companyId, key)) === 0) {
    throw new AppError('NOT_FOUND', `${named(key)} is not on the opt-out list.`, { field: key.user_id && !key.phone_number ? 'user_id' : 'phone_number' });
  }
}

/** One page of the list, newest first; `search` keeps numbers that contain its digits, `user_id` BSUIDs that contain it. */
export async function listOptOutPage(db: Db, companyId: string, q: { page: number; page_size: number; search?: string; user_id?: string }) {
  let digits: string | undefined;
  if (q.search !== undefined) {
    digits = q.search.replace(/[\s().+-]/g, '');
    if (!/^\d{1,15}$/.test(digits)) throw invalid('phone_number', 'phone_number searches by 1 to 15 digits (spaces, +, -, ( ) and . are ignored)');
  }
  const userIdPart = q.user_id?.trim();
  if (userIdPart !== undefined && !/^[A-Za-z0-9.]{1,80}$/.test(userIdPart)) {
    throw invalid('user_id', 'user_id searches by 1 to 80 letters, digits and dots of a BSUID, e.g. US.1349 or 1349');
  }
  const search = { digits, userIdPart };
  const [items, total] = await Promise.all([
    listOptOuts(db, companyId, { offset: (q.page - 1) * q.page_size, limit: q.page_size, ...search }),
    countOptOuts(db, companyId, search),
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
 * header line naming a `phone_number` and/or a `user_id` (BSUID) column and optionally a `reason` column (other
 * columns are ignored), then one recipient per line (a phone number, a BSUID or both). A line whose phone number or
 * BSUID is already listed counts as already listed. Lines with a bad number, BSUID or reason are
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
  const entries: NewOptOut[] = [];
  const seenPhones = new Set<string>();
  const seenUserIds = new Set<string>();
  let columns: { phone: number; userId: number; reason: number } | null = null;
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
        const userId = names.indexOf('user_id');
        if (phone < 0 && userId < 0) {
          throw invalid('file', `The first line must be a header naming a phone_number and/or a user_id column (and optionally reason); line ${line} is "${record.join(',').slice(0, 80)}".`);
        }
        columns = { phone, userId, reason: names.indexOf('reason') };
        continue;
      }
      report.lines += 1;
      if (report.lines > IMPORT_LIMITS.maxLines) {
        throw new AppError('PAYLOAD_TOO_LARGE', `An import holds at most ${IMPORT_LIMITS.maxLines} lines; split the file.`, { field: 'file' });
      }
      const phoneCell = columns.phone >= 0 ? (record[columns.phone] ?? '') : '';
      const userCell = columns.userId >= 0 ? (record[columns.userId] ?? '') : '';
      if (phoneCell === '' && userCell === '') {
        refuse(line, columns.userId < 0 ? 'phone_number is empty' : columns.phone < 0 ? 'user_id is empty' : 'phone_number and user_id are both empty');
        continue;
      }
      const r = parseRecipient(phoneCell, userCell, { phone: 'phone_number', userId: 'user_id' });
      if (!r.ok) {
        const cell = r.field === 'user_id' ? userCell : phoneCell;
        refuse(line, `${r.field} ${JSON.stringify(cell.slice(0, 40))}: ${r.reason}`);
        continue;
      }
      const reason = columns.reason >= 0 && record[columns.reason] ? record[columns.reason] : null;
      if (reason !== null && (reason.length > MAX_REASON_LENGTH || reason.includes('\u0000'))) {
        refuse(line, `reason has at most ${MAX_REASON_LENGTH} characters and no NUL`);
        continue;
      }
      // A phone number or BSUID seen on an earlier line: that line's entry holds it.
      const phone = r.phone !== null && !seenPhones.has(r.phone) ? r.phone : null;
      const userId = r.userId !== null && !seenUserIds.has(r.userId) ? r.userId : null;
      if (phone === null && userId === null) {
        report.already_listed += 1;
        continue;
      }
      if (phone) seenPhones.add(phone);
      if (userId) seenUserIds.add(userId);
      entries.push({ phone_number: phone, user_id: userId, source: 'import', reason });
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
  if (!columns) throw invalid('file', 'The file is empty: the first line must be a header naming a phone_number and/or a user_id column.');
  const all = entries;
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < all.length; i += 1000) report.added += await insertOptOuts(tx, companyId, all.slice(i, i + 1000));
  });
  report.already_listed += all.length - report.added;
  return report;
}
