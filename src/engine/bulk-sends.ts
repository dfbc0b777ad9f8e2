/** Bulk-send operations besides start: stop, the reports list and the per-row report. */
import type { Kysely } from 'kysely';
import { AppError } from '../errors.js';
import { allowedActions, BULK_SEND_MOVES, canMoveBulkSend, STORING_STATUS } from '../domain/bulk-send-states.js';
import type { Database } from '../store/schema.js';
import { findSkippedRows } from '../store/bulk-send-skipped-rows.js';
import type { MessageStatus } from '../domain/message-states.js';
import {
  cancelBulkSendRows, countReportRowsByStatus, countBulkSends, endCancelling, findReportRows, findReportRowsAfter, findReportRowsByStatus, findBulkSend,
  listCancellingBulkSends, findBulkSendsPage, markBulkSendStopped, WITHDRAW_BATCH, type BulkSendRow,
} from '../store/bulk-sends.js';
import { applyCounterMoves } from './counters.js';
import { requireChannel } from './templates.js';


function finished(status: string | undefined): AppError {
  return new AppError('BULK_SEND_FINISHED', `The bulk send is already ${status ?? 'finished'}.`, { field: 'send_wizard_id' });
}

/** The answer of a stop. */
export interface StopAnswer {
  send_wizard_id: string;
  status: typeof BULK_SEND_MOVES.stop.to;
  /** Rows cancelled by the stop's own transaction. */
  cancelled_count: number;
  /** Rows still to cancel: the dispatcher's maintenance cancels them in batches right after (0: none was left). */
  cancelling_count: number;
}

/**
 * Stops a bulk send: it is STOPPED at once, so no claim hands another of its rows to the network, and its rows not
 * yet handed over become CANCELLED in batches of WITHDRAW_BATCH: the first in the stop's own transaction, the rest
 * by the dispatcher's maintenance (`continueStopCancels`, which a restart runs too); `wake` starts it now. 409 when it
 * has finished. Lock order (src/store/README.md): the batch's rows first, in id order, then the bulk send, whose
 * status is checked again under its lock (a 409 rolls back).
 */
export async function stopBulkSend(db: Kysely<Database>, companyId: string, channelId: string, id: string, wake: () => void = () => undefined): Promise<StopAnswer> {
  await requireChannel(db, companyId, channelId);
  const bulkSend = await findBulkSend(db, companyId, id);
  if (!bulkSend || bulkSend.channel_id !== channelId) throw new AppError('NOT_FOUND', `Bulk send ${id} was not found.`, { field: 'send_wizard_id' });
  if (!canMoveBulkSend(BULK_SEND_MOVES.stop, bulkSend.status)) throw finished(bulkSend.status);
  const cancelled = await db.transaction().execute(async (tx) => {
    const moved = await cancelBulkSendRows(tx, id, WITHDRAW_BATCH);
    const n = moved.reduce((sum, g) => sum + g.n, 0);
    const stopped = await markBulkSendStopped(tx, companyId, id, n >= WITHDRAW_BATCH);
    if (!stopped?.stopped) throw finished(stopped?.status);
    await applyCounterMoves(tx, moved);
    return n;
  });
  const after = await findBulkSend(db, companyId, id);
  const cancelling = after?.cancelling ? after.waiting + after.queued : 0;
  if (after?.cancelling) wake();
  return { send_wizard_id: id, status: BULK_SEND_MOVES.stop.to, cancelled_count: cancelled, cancelling_count: cancelling };
}

/**
 * Cancels the rows that stops left to cancel, batch by batch (each its own transaction: rows in id order, then the
 * counters), oldest stop first, until none is left or `budgetMs` is spent; a bulk send with nothing left to cancel
 * loses its mark. Any instance may run it at once with another (the batches lock their rows; a row already
 * cancelled is not moved twice). Returns the rows cancelled.
 */
export async function continueStopCancels(db: Kysely<Database>, budgetMs: number): Promise<number> {
  const started = Date.now();
  let cancelled = 0;
  for (const id of await listCancellingBulkSends(db, 100)) {
    for (;;) {
      const moved = await db.transaction().execute(async (tx) => {
        const groups = await cancelBulkSendRows(tx, id, WITHDRAW_BATCH);
        await applyCounterMoves(tx, groups);
        return groups.reduce((sum, g) => sum + g.n, 0);
      });
      cancelled += moved;
      if (moved < WITHDRAW_BATCH && (await endCancelling(db, id))) break;
      if (Date.now() - started >= budgetMs) return cancelled;
      // Rows left that this batch could not take (still leased meanwhile): the next round looks again.
      if (moved === 0) break;
    }
  }
  return cancelled;
}

/** A page of the channel's bulk sends with their counters. */
export async function listBulkSends(db: Kysely<Database>, companyId: string, channelId: string, page: number, pageSize: number) {
  await requireChannel(db, companyId, channelId);
  const [rows, total] = await Promise.all([
    findBulkSendsPage(db, companyId, channelId, pageSize, (page - 1) * pageSize),
    countBulkSends(db, companyId, channelId),
  ]);
  return { rows, total };
}

/** A company's started bulk send; 404 for a missing one, another company's or one still storing its rows. */
export async function requireReportableBulkSend(db: Kysely<Database>, companyId: string, id: string, field = 'id') {
  const bulkSend = await findBulkSend(db, companyId, id);
  if (!bulkSend || bulkSend.status === STORING_STATUS) throw new AppError('NOT_FOUND', `Bulk send ${id} was not found.`, { field });
  return bulkSend;
}

/** Beyond the interface: one message status to list, and a keyset cursor (the last row number seen). */
export interface ReportFilter {
  status?: MessageStatus;
  afterRow?: number;
}

/**
 * A page of a bulk send's rows (row order). Unfiltered pages are index ranges (row numbers are 1..n), so a
 * deep page costs what the first does; a status filter reads its page from the (send_wizard_id, status,
 * row_no) index and counts its total there; `afterRow` pages by keyset.
 */
export async function bulkSendReport(db: Kysely<Database>, companyId: string, id: string, page: number, pageSize: number, filter: ReportFilter = {}) {
  const bulkSend = await requireReportableBulkSend(db, companyId, id);
  const { status, afterRow } = filter;
  if (afterRow !== undefined) {
    const [rows, total] = await Promise.all([
      findReportRowsAfter(db, id, afterRow, pageSize, status),
      status ? countReportRowsByStatus(db, id, status) : Promise.resolve(bulkSend.summary),
    ]);
    return { bulkSend, rows, total };
  }
  if (status) {
    const [rows, total] = await Promise.all([findReportRowsByStatus(db, id, status, (page - 1) * pageSize, pageSize), countReportRowsByStatus(db, id, status)]);
    return { bulkSend, rows, total };
  }
  const from = (page - 1) * pageSize + 1;
  const rows = from > bulkSend.summary ? [] : await findReportRows(db, id, from, Math.min(bulkSend.summary, from + pageSize - 1));
  return { bulkSend, rows, total: bulkSend.summary };
}

/** A page of the rows a bulk send's start left out as invalid (404 as for its report). */
export async function bulkSendSkippedRows(db: Kysely<Database>, companyId: string, id: string, page: number, pageSize: number) {
  const bulkSend = await requireReportableBulkSend(db, companyId, id);
  const rows = await findSkippedRows(db, id, (page - 1) * pageSize, pageSize);
  return { bulkSend, rows };
}

/** The list item view of a bulk send (interface fields, then extras). */
export function toListItem(w: BulkSendRow) {
  return {
    name: w.template_name,
    send_wizard_id: w.id,
    status: w.status,
    from_number: w.from_number,
    summary: w.summary,
    waiting: w.waiting,
    queued: w.queued,
    processed_count: w.processed_count,
    awaiting_backend_count: w.awaiting_backend_count,
    failed_count: w.failed_count,
    delivered_count: w.delivered_count,
    sent_count: w.sent_count,
    seen_count: w.seen_count,
    created_at: w.created_at.getTime(),
    has_button: w.has_button,
    cancelled_count: w.cancelled_count,
    cancelling_count: w.cancelling ? w.waiting + w.queued : 0,
    duplicate_count: w.duplicate_count,
    total_time: w.total_time,
    paused_reason: w.paused_reason,
    message_template_id: w.template_id,
    channel_id: w.channel_id,
    scheduled_at: w.scheduled_at ? w.scheduled_at.toISOString() : null,
    retry_of: w.retry_of,
    send_name: w.send_name,
    allowed_actions: allowedActions(w),
    skipped_count: w.skipped_count,
  };
}
