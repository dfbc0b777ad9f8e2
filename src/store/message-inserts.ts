/**
 * SQL that stores messages (one insert statement, or a bulk send's rows with COPY) and reads them back by id.
 * The moves of the state machine are in message-moves.ts, status events in message-status-events.ts.
 */
import { sql, type Kysely, type Selectable } from 'kysely';
import type { MessageStatus } from '../domain/message-states.js';
import { copyIn } from './db.js';
import type { Database, MessagesTable } from './schema.js';

type Db = Kysely<Database>;

/** A message row as the service reads it (status typed by the state machine). */
export type MessageRow = Omit<Selectable<MessagesTable>, 'status'> & { status: MessageStatus };

/** A message to insert. */
export interface NewMessage {
  id: string;
  company_id: string;
  channel_id: string;
  template_id: string;
  waba_id: string;
  send_wizard_id: string | null;
  row_no: number | null;
  row_ref?: number | null;
  /** E.164; null for a message to a BSUID only. */
  phone_number: string | null;
  /** The BSUID given with the send (null: none). */
  user_id?: string | null;
  full_name: string | null;
  status: MessageStatus;
  payload: unknown;
  due_at: Date;
}

const json = (value: unknown) => JSON.stringify(value);

/** Inserts messages in one statement (callers batch large sets). */
export async function insertMessages(db: Db, rows: NewMessage[]): Promise<void> {
  if (rows.length === 0) return;
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, row_ref,
                          phone_number, user_id, full_name, status, payload, due_at)
    select id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, row_ref, phone_number, user_id, full_name,
           status, payload, due_at
    from jsonb_to_recordset(${json(rows)}::jsonb) as r(id text, company_id text, channel_id text, template_id text,
      waba_id text, send_wizard_id text, row_no integer, row_ref bigint, phone_number text, user_id text, full_name text,
      status text, payload jsonb, due_at timestamptz)`.execute(db);
}

/** The columns of a bulk send's stored rows as `copyBulkSendRows` takes them: the order of each line's fields. */
export const BULK_ROW_COLUMNS = [
  'id', 'row_no', 'due_at', 'company_id', 'channel_id', 'template_id', 'waba_id', 'send_wizard_id', 'status',
  'row_ref', 'phone_number', 'user_id', 'full_name', 'payload',
] as const;

const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** A value as a field of COPY's text format: null is `\N`; backslash, tab, newline and carriage return are escaped. */
export function copyField(value: string | number | null): string {
  if (value === null) return '\\N';
  const text = String(value);
  return /[\\\t\n\r]/.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]) : text;
}

/**
 * Stores rows of a bulk send given as COPY text lines (tab-separated fields in BULK_ROW_COLUMNS order, made
 * with copyField, each line ending in a newline), in pieces of whole lines: one `copy` statement, all of them or
 * none. Not in a transaction.
 */
export async function copyBulkSendRows(db: Kysely<Database>, lines: AsyncIterable<string>): Promise<void> {
  await copyIn(db, BULK_ROWS_COPY, lines);
}

/** The COPY statement of `copyBulkSendRows` (also run by a `transactionWithCopy` loader, db.ts). */
export const BULK_ROWS_COPY = `copy messages (${BULK_ROW_COLUMNS.join(', ')}) from stdin`;

/** The company's messages with these ids (others' ids are simply absent). */
export async function findMessagesByIds(db: Db, companyId: string, ids: string[]): Promise<MessageRow[]> {
  if (ids.length === 0) return [];
  const result = await sql<MessageRow>`
    select * from messages where company_id = ${companyId} and id = any(${ids}::text[]) order by id`.execute(db);
  return result.rows;
}
