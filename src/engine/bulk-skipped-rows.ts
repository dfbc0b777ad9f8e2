/**
 * The rows a bulk start leaves out as invalid when asked to (`skip_invalid_rows`): each goes to a spool file as it
 * is found (a list may have a million bad rows; memory stays flat), is counted, and is stored with the bulk send so
 * its report lists it. Never dropped without a trace: the start answers the count, the dry run the first rows.
 */
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import type { Kysely } from 'kysely';
import type { ErrorElement } from '../errors.js';
import { insertSkippedRows, setSkippedCount, type SkippedRow } from '../store/bulk-send-skipped-rows.js';
import type { Database } from '../store/schema.js';

/** Skipped rows a dry run answers in full (the count covers all of them). */
export const SKIPPED_ROWS_SHOWN = 100;
/** Skipped rows stored per statement. */
const STORE_BATCH = 1000;
/** Longest phone text and problem text kept for a skipped row. */
const MAX_PHONE_TEXT = 64;
const MAX_MESSAGE = 1000;

/** The row's number as the client knows it, its reference, and its phone as given. */
function identity(raw: unknown, index: number): Pick<SkippedRow, 'row_no' | 'row_ref' | 'phone_number'> {
  const text = (v: unknown) => (typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)) ? String(v).slice(0, MAX_PHONE_TEXT) : null);
  if (Array.isArray(raw)) {
    // startv2 and file rows: [row number (a file's sheet row), phone, cells...].
    const n = Number.isSafeInteger(raw[0]) ? (raw[0] as number) : index + 1;
    return { row_no: n, row_ref: null, phone_number: text(raw[1]) };
  }
  const row = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return { row_no: index + 1, row_ref: Number.isSafeInteger(row.id) ? (row.id as number) : null, phone_number: text(row.phone_number) };
}

/** The skipped rows of one start, spooled to a file. */
export class SkippedRows {
  count = 0;
  /** The first SKIPPED_ROWS_SHOWN, for a dry run's answer. */
  readonly first: SkippedRow[] = [];
  private readonly out: WriteStream;

  constructor(private readonly path: string) {
    this.out = createWriteStream(path);
  }

  /** Notes a row left out: `index` is its 0-based place in the request, `errors` its problems. */
  async add(raw: unknown, index: number, errors: ErrorElement[]): Promise<void> {
    this.count += 1;
    const row: SkippedRow = {
      position: this.count,
      ...identity(raw, index),
      field: errors[0]?.field ?? null,
      message: errors.map((e) => e.message).join('; ').slice(0, MAX_MESSAGE),
    };
    if (this.first.length < SKIPPED_ROWS_SHOWN) this.first.push(row);
    if (!this.out.write(`${JSON.stringify(row)}\n`)) await once(this.out, 'drain');
  }

  /** Ends the spool (before it is read, or when the start fails). */
  async close(): Promise<void> {
    if (this.out.closed) return;
    await new Promise<void>((resolve, reject) => this.out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  }

  /** Stores every skipped row with the bulk send and its count (in the accepting transaction). */
  async store(db: Kysely<Database>, bulkSendId: string): Promise<void> {
    if (this.count === 0) return;
    let batch: SkippedRow[] = [];
    for await (const line of createInterface({ input: createReadStream(this.path, 'utf8'), crlfDelay: Infinity })) {
      if (!line) continue;
      batch.push(JSON.parse(line) as SkippedRow);
      if (batch.length >= STORE_BATCH) {
        await insertSkippedRows(db, bulkSendId, batch);
        batch = [];
      }
    }
    await insertSkippedRows(db, bulkSendId, batch);
    await setSkippedCount(db, bulkSendId, this.count);
  }
}
