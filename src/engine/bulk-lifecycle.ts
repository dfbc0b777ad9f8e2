/**
 * The bulk-send lifecycle beyond start and stop (beyond the interface; docs/bulk-send-lifecycle.md): the user's
 * pause and resume, and a new bulk send from the failed rows of a finished one. Scheduling is part of start
 * (bulk-start.ts) and of the dispatcher's maintenance (activateDueSchedules).
 */
import type { Kysely } from 'kysely';
import { BULK_SEND_MOVES, canMoveBulkSend, FINISHED_STATUSES, parseScheduledAt, QUEUEING_STATUSES, STORING_STATUS } from '../domain/bulk-send-states.js';
import { newId } from '../domain/ids.js';
import { AppError } from '../errors.js';
import {
  insertRetryRows,
  insertRetryBulkSend,
  lockBulkSend,
  markPausedByUser,
  releaseParkedSlots,
  resumeByUser,
} from '../store/bulk-lifecycle.js';
import type { Database } from '../store/schema.js';
import { acceptBulkSend, findBulkSend, parkBulkSendRows, WITHDRAW_BATCH, type BulkSendRow } from '../store/bulk-sends.js';
import type { BulkStartDeps } from './bulk-start.js';
import { readChannelHealth } from './channel-health.js';
import { applyCounterMoves } from './counters.js';
import { requireSendableTemplate } from './single-send.js';
import { requireChannel } from './templates.js';

/** Which bulk send: its id, and with family A the channel it must belong to. */
export interface BulkSendRef {
  companyId: string;
  id: string;
  /** Family A names the channel too (a bulk send of another channel is not found). */
  channelId?: string;
  /** The request field that named the id (for error paths): `send_wizard_id` (family A) or `id` (family B). */
  field: string;
}

function notFound(ref: BulkSendRef): AppError {
  return new AppError('NOT_FOUND', `Bulk send ${ref.id} was not found.`, { field: ref.field });
}

function conflict(ref: BulkSendRef, status: string, action: string): AppError {
  if (canMoveBulkSend(BULK_SEND_MOVES.activate, status)) {
    return new AppError('BULK_SEND_NOT_STARTED', `The bulk send is SCHEDULED; it cannot be ${action} before it starts (stop it instead).`, { field: ref.field });
  }
  return new AppError('BULK_SEND_FINISHED', `The bulk send is already ${status}.`, { field: ref.field });
}

/** The company's bulk send (404 for another company's, another channel's, or a start still storing its rows). */
async function requireBulkSend(db: Kysely<Database>, ref: BulkSendRef): Promise<BulkSendRow> {
  if (ref.channelId !== undefined) await requireChannel(db, ref.companyId, ref.channelId);
  const bulkSend = await findBulkSend(db, ref.companyId, ref.id);
  if (!bulkSend || bulkSend.status === STORING_STATUS || (ref.channelId !== undefined && bulkSend.channel_id !== ref.channelId)) throw notFound(ref);
  return bulkSend;
}

/** The answer of pause and resume. */
export interface PauseAnswer {
  send_wizard_id: string;
  status: string;
  paused_reason: string | null;
  /** Rows that went back to waiting (NONE) by this call. */
  parked_count: number;
}

/**
 * Pauses a bulk send for its user: RUNNING or PAUSED → PAUSED_BY_USER (a second pause answers the same, 200),
 * then every row not yet handed to the network waits again (NONE); rows already with the network keep
 * receiving events. The bulk send is marked first (alone), so from then on a claim of one of its rows parks it;
 * the rows are moved in batches of WITHDRAW_BATCH, each its own transaction, rows first, then the counters (lock
 * order).
 */
export async function pauseBulkSend(db: Kysely<Database>, ref: BulkSendRef): Promise<PauseAnswer> {
  await requireBulkSend(db, ref);
  const marked = await markPausedByUser(db, ref.companyId, ref.id);
  if (!marked) throw notFound(ref);
  if (!marked.paused && marked.before !== BULK_SEND_MOVES.userPause.to) throw conflict(ref, marked.before, 'paused');
  let parked = 0;
  for (;;) {
    const n = await db.transaction().execute(async (tx) => {
      const groups = await parkBulkSendRows(tx, ref.id, WITHDRAW_BATCH);
      await applyCounterMoves(tx, groups);
      return groups.reduce((sum, g) => sum + g.n, 0);
    });
    parked += n;
    if (n < WITHDRAW_BATCH) break;
  }
  await releaseParkedSlots(db, ref.id);
  const after = (await findBulkSend(db, ref.companyId, ref.id))!;
  return { send_wizard_id: ref.id, status: after.status, paused_reason: after.paused_reason, parked_count: parked };
}

/**
 * Resumes a bulk send the user paused. It goes back to RUNNING, or to PAUSED when the service's own reason was
 * in force at the pause (the service lifts it as soon as rows go out again, so a reason that no longer holds
 * lasts about a second). The rest of the total_time window, frozen at the pause, restarts now: the waiting rows
 * are spread over it (0 s left: as fast as the channel's throughput allows). Resuming a running or
 * service-paused bulk send changes nothing (200 with its status).
 */
export async function resumeBulkSend(db: Kysely<Database>, ref: BulkSendRef, wake: () => void): Promise<PauseAnswer & { window_seconds: number }> {
  const bulkSend = await requireBulkSend(db, ref);
  const resumed = await resumeByUser(db, ref.companyId, ref.id);
  if (!resumed) {
    const now = (await findBulkSend(db, ref.companyId, ref.id)) ?? bulkSend;
    // Running on its own (RUNNING, or held by the service, which lifts the hold itself): nothing to resume.
    if (!(QUEUEING_STATUSES as readonly string[]).includes(now.status)) throw conflict(ref, now.status, 'resumed');
    return { send_wizard_id: ref.id, status: now.status, paused_reason: now.paused_reason, parked_count: 0, window_seconds: 0 };
  }
  wake();
  return { send_wizard_id: ref.id, status: resumed.status, paused_reason: resumed.paused_reason, parked_count: 0, window_seconds: Math.round(resumed.window_seconds) };
}

/** Options of a retry. */
export interface RetryOptions {
  error_codes?: number[];
  scheduled_at?: string;
  total_time?: number;
}

/** The answer of a retry. */
export interface RetryAnswer {
  send_wizard_id: string;
  retry_of: string;
  status: typeof BULK_SEND_MOVES.start.to | typeof BULK_SEND_MOVES.schedule.to;
  summary: number;
  failed_count: number;
  filtered_count: number;
  excluded_count: number;
  scheduled_at: string | null;
}

/**
 * A new bulk send from the failed rows of a finished one (COMPLETED or STOPPED; else 409), optionally only rows
 * whose network error code is in `error_codes`, due from now or `scheduled_at` over `total_time` (default 0).
 * A recipient who may have got the message is never taken (rule in insertRetryRows). The source is locked for
 * the copy, so two retries of one bulk send never take the same row (the second finds none left: 409).
 */
export async function retryBulkSend(deps: BulkStartDeps & { started: () => void }, ref: BulkSendRef, options: RetryOptions): Promise<RetryAnswer> {
  const scheduled = options.scheduled_at === undefined ? null : parseScheduledAt(options.scheduled_at, new Date());
  if (scheduled && !scheduled.ok) throw new AppError('VALIDATION_FAILED', scheduled.reason, { field: 'scheduled_at' });
  const scheduledAt = scheduled?.ok ? scheduled.at : null;
  const totalTime = options.total_time ?? 0;
  const source = await requireBulkSend(deps.db, ref);
  const finished = (FINISHED_STATUSES as readonly string[]).includes(source.status);
  if (!finished) throw new AppError('BULK_SEND_NOT_FINISHED', `The bulk send is ${source.status}; only a COMPLETED or STOPPED one can be retried.`, { field: ref.field });
  const channel = await readChannelHealth(deps.health, ref.companyId, source.channel_id);
  await requireSendableTemplate(deps.db, ref.companyId, channel.waba_id, source.template_id);
  const id = newId();
  const counts = await deps.db.transaction().execute(async (tx) => {
    await lockBulkSend(tx, ref.companyId, ref.id);
    await insertRetryBulkSend(tx, ref.id, id, totalTime);
    const c = await insertRetryRows(tx, { companyId: ref.companyId, sourceId: ref.id, newId: id, codes: options.error_codes ?? null, startAt: scheduledAt ?? new Date(), totalTime });
    if (c.taken === 0) {
      throw new AppError('NO_ROWS_TO_RETRY', `No row to retry: ${c.failed} failed, ${c.failed - c.matched} without the asked error codes, ${c.matched} whose recipient may have got the message or is already being sent to.`, { field: ref.field });
    }
    await acceptBulkSend(tx, id, c.taken, 0, scheduledAt);
    return c;
  });
  deps.started();
  return {
    send_wizard_id: id,
    retry_of: ref.id,
    status: scheduledAt ? BULK_SEND_MOVES.schedule.to : BULK_SEND_MOVES.start.to,
    summary: counts.taken,
    failed_count: counts.failed,
    filtered_count: counts.failed - counts.matched,
    excluded_count: counts.matched - counts.taken,
    scheduled_at: scheduledAt?.toISOString() ?? null,
  };
}
