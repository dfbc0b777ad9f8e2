/**
 * A bulk send's report detail as a CSV or XLSX file (beyond the interface), streamed: rows are read in keyset
 * batches (row order, optionally one status) and written through csv-stringify or exceljs' streaming
 * WorkbookWriter as the client reads, so memory stays flat on 1,000,000 rows.
 */
import { once } from 'node:events';
import { PassThrough, Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import ExcelJS from 'exceljs';
import type { Kysely } from 'kysely';
import type { MessageStatus } from '../domain/message-states.js';
import type { Database } from '../store/schema.js';
import { findExportRowsAfter, type ExportRow } from '../store/bulk-sends.js';
import { isBilled } from '../domain/pricing/rate-card.js';
import { requireReportableBulkSend } from './bulk-sends.js';
import { marketOf, rateCardOf } from './pricing.js';

/** Where a stream that stopped half-way is noted (the client already has the headers). */
interface Logger {
  warn(details: object, message: string): void;
}

/** The export formats. */
export const EXPORT_FORMATS = ['csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/**
 * The columns of an export: the report detail item's fields (webhook_response left out), the bulk send's own name,
 * then what the row cost: its market, the network's pricing, `billed` (billable pricing and delivered or read) and
 * `list_price` (the rate card's figure for a billed row; empty when unknown or not billed). The column `list_price`
 * summed is the bulk send's estimated cost at Meta's list price, not an invoice.
 */
export const EXPORT_COLUMNS = [
  'row',
  'row_id',
  'phone_number',
  'user_id',
  'parent_user_id',
  'username',
  'full_name',
  'status',
  'backend_sended_time',
  'sended_time',
  'delivered_time',
  'seen_time',
  'failed_time',
  'error_message',
  'error_message_detail',
  'message_id',
  'send_name',
  'market',
  'pricing_category',
  'pricing_type',
  'billed',
  'list_price',
] as const;

/** Rows read per statement. */
const BATCH = 5000;

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};

/** An export ready to stream. */
export interface ReportExport {
  fileName: string;
  contentType: string;
  body: Readable;
}

type Cells = Array<string | number | null>;

/** One stored row as export cells: numbers for row and row_id, times already ISO 8601 text, unset fields null. */
function cells(r: ExportRow, sendName: string | null, prices: PriceOf): Cells {
  const market = marketOf(r);
  const billed = r.pricing_category !== null && isBilled(r.pricing_billable, r.reached_rank);
  return [
    Number(r.row_no),
    r.row_ref === null ? null : Number(r.row_ref),
    r.phone_number,
    r.user_id,
    r.parent_user_id,
    r.username,
    r.full_name,
    r.status,
    r.backend_sended_time,
    r.sended_time,
    r.delivered_time,
    r.seen_time,
    r.failed_time,
    r.error_message,
    r.error_message_detail,
    r.id,
    sendName,
    market,
    r.pricing_category,
    r.pricing_type,
    r.pricing_category === null ? null : billed ? 'true' : 'false',
    billed && market ? prices(market, r.pricing_category!) : null,
  ];
}

/** The card's price of a market and category (null when unknown). */
type PriceOf = (market: string, category: string) => number | null;

/** Batches of rows in row order (keyset on row_no). */
async function* batchesOf(db: Kysely<Database>, bulkSend: { id: string; company_id: string; send_name: string | null }, status: MessageStatus | undefined, size: number): AsyncGenerator<Cells[]> {
  const card = await rateCardOf(db, bulkSend.company_id);
  const table = new Map(card.rates.map((r) => [`${r.market}/${r.category}`, r.price]));
  const prices: PriceOf = (market, category) => table.get(`${market}/${category}`) ?? null;
  let after = 0;
  for (;;) {
    const batch = await findExportRowsAfter(db, bulkSend.id, after, size, status);
    if (batch.length) yield batch.map((r) => cells(r, bulkSend.send_name, prices));
    if (batch.length < size) return;
    after = Number(batch[batch.length - 1].row_no);
  }
}

/** CSV: each batch becomes one chunk (csv-stringify), pulled as the client reads. */
function csvBody(batches: AsyncGenerator<Cells[]>, log: Logger): Readable {
  async function* chunks() {
    yield stringify([[...EXPORT_COLUMNS]]);
    for await (const batch of batches) yield stringify(batch, { cast: { number: (n) => String(n) } });
  }
  const body = Readable.from(chunks(), { objectMode: false });
  body.on('error', (error) => log.warn({ err: error }, 'report export stopped'));
  return body;
}

/** XLSX: exceljs' streaming writer (inline strings, no styles); waits for the client between batches. */
function xlsxBody(batches: AsyncGenerator<Cells[]>, log: Logger): Readable {
  const out = new PassThrough();
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useSharedStrings: false, useStyles: false });
  const sheet = workbook.addWorksheet('report');
  const write = async () => {
    sheet.addRow([...EXPORT_COLUMNS]).commit();
    for await (const batch of batches) {
      if (out.destroyed) return;
      for (const row of batch) sheet.addRow(row).commit();
      // The workbook writer does not wait for the client: wait here whenever the response is behind.
      if (out.writableNeedDrain) await once(out, 'drain');
    }
    sheet.commit();
    await workbook.commit();
  };
  write().catch((error) => {
    log.warn({ err: error }, 'report export stopped');
    out.destroy(error as Error);
  });
  return out;
}

/**
 * The export of a company's bulk send: 404 NOT_FOUND (before anything is streamed) for a missing one, another
 * company's or one still storing its rows.
 */
export async function exportReport(
  db: Kysely<Database>,
  log: Logger,
  companyId: string,
  id: string,
  format: ExportFormat,
  status?: MessageStatus,
  batchSize = BATCH,
): Promise<ReportExport> {
  const bulkSend = await requireReportableBulkSend(db, companyId, id);
  const rows = batchesOf(db, bulkSend, status, batchSize);
  const fileName = `report-${id}${status ? `-${status.toLowerCase()}` : ''}.${format}`;
  return { fileName, contentType: CONTENT_TYPES[format], body: format === 'csv' ? csvBody(rows, log) : xlsxBody(rows, log) };
}
