/** SQL for the rows a bulk start left out as invalid (table bulk_send_skipped_rows, `skipped_count`). */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A skipped row as stored. */
export interface SkippedRow {
  /** 1-based place in the request's rows. */
  position: number;
  /** The row's number as the client knows it. */
  row_no: number;
  row_ref: number | null;
  phone_number: string | null;
  field: string | null;
  message: string;
}

/** Stores a batch of a bulk send's skipped rows (one statement). */
export async function insertSkippedRows(db: Db, bulkSendId: string, rows: SkippedRow[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into bulk_send_skipped_rows (send_wizard_id, position, row_no, row_ref, phone_number, field, message)
    select ${bulkSendId}, r.position, r.row_no, r.row_ref, r.phone_number, r.field, r.message
    from unnest(${rows.map((r) => r.position)}::int[], ${rows.map((r) => String(r.row_no))}::bigint[],
                ${rows.map((r) => (r.row_ref === null ? null : String(r.row_ref)))}::bigint[],
                ${rows.map((r) => r.phone_number)}::text[], ${rows.map((r) => r.field)}::text[], ${rows.map((r) => r.message)}::text[])
      as r(position, row_no, row_ref, phone_number, field, message)`.execute(db);
}

/** Sets how many rows the start left out. */
export async function setSkippedCount(db: Db, bulkSendId: string, count: number): Promise<void> {
  await sql`update send_wizards set skipped_count = ${count} where id = ${bulkSendId}`.execute(db);
}

/** A page of a bulk send's skipped rows, in row order. */
export async function findSkippedRows(db: Db, bulkSendId: string, offset: number, limit: number): Promise<SkippedRow[]> {
  const result = await sql<{ position: number; row_no: string; row_ref: string | null; phone_number: string | null; field: string | null; message: string }>`
    select position, row_no::text as row_no, row_ref::text as row_ref, phone_number, field, message from bulk_send_skipped_rows
    where send_wizard_id = ${bulkSendId} and position > ${offset} order by position limit ${limit}`.execute(db);
  return result.rows.map((r) => ({ ...r, row_no: Number(r.row_no), row_ref: r.row_ref === null ? null : Number(r.row_ref) }));
}
