/**
 * Bounded waits, run by the dispatcher's maintenance: a handed-off message that no status
 * event reaches within the status wait ends SENT_TO_BACKEND_FAILED ("No status from the network"; a late event
 * still raises it); a message QUEUED on a blocked channel past the queue wait ends SENT_TO_BACKEND_FAILED, never
 * sent; and a channel whose messages await a status while no status webhook arrived for the alert time is marked
 * stale (one warning, shown in `GET /api/v1/channels`). Every move keeps the bulk-send counters exact.
 */
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { channelBlockReason } from '../domain/channel.js';
import { NO_STATUS_ERROR, noStatusDetail, QUEUE_EXPIRED_ERROR, queueExpiredDetail, statusWebhooksStaleSince } from '../domain/waits.js';
import { clearStatusWebhooksStale, listStatusWebhookMarks, markStatusWebhooksStale } from '../store/channel-status-webhooks.js';
import { findChannelById } from '../store/channels.js';
import { failOverdueMessages, listChannelsWithOverdueQueue, listOldestAwaitingStatus } from '../store/message-waits.js';
import type { MovedRow } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { applyCounterMoves } from './counters.js';

/** The bounds (seconds). */
export interface BoundedWaitOptions {
  /** A handed-off message with no status event after this long fails with NO_STATUS_ERROR. */
  statusWaitSeconds: number;
  /** A message QUEUED on a blocked channel and due this long ago fails with QUEUE_EXPIRED_ERROR. */
  queueWaitSeconds: number;
  /** Messages awaiting a status and no status webhook for the channel this long: the channel is marked stale. */
  statusAlertSeconds: number;
}

/** Rows per statement and statements per channel and round (the next round goes on). */
const BATCH = 1000;
const ROUNDS = 20;

async function moveInBatches(db: Kysely<Database>, move: (tx: Kysely<Database>) => Promise<MovedRow[]>): Promise<number> {
  let total = 0;
  for (let round = 0; round < ROUNDS; round += 1) {
    const moved = await db.transaction().execute(async (tx) => {
      const rows = await move(tx);
      await applyCounterMoves(tx, rows);
      return rows;
    });
    total += moved.length;
    if (moved.length < BATCH) break;
  }
  return total;
}

/** Fails handed-off messages whose status wait ran out, and raises or clears the channels' stale-webhook alert. */
export async function settleStatuslessSends(db: Kysely<Database>, log: Logger, options: BoundedWaitOptions, now = Date.now()): Promise<void> {
  const awaiting = await listOldestAwaitingStatus(db);
  const marks = new Map((await listStatusWebhookMarks(db)).map((m) => [m.channel_id, m]));
  const error = { message: NO_STATUS_ERROR, detail: noStatusDetail(options.statusWaitSeconds) };
  const notStale: string[] = [];
  for (const { channel_id: channelId, oldest } of awaiting) {
    const mark = marks.get(channelId);
    const since = statusWebhooksStaleSince(oldest, mark?.last_status_at ?? null, options.statusAlertSeconds, now);
    if (since && !mark?.stale_since && (await markStatusWebhooksStale(db, channelId, since))) {
      log.warn({ channelId, since: since.toISOString() }, 'messages await a status but no status webhook arrived for the channel: check the webhook subscription');
    } else if (!since && mark?.stale_since) {
      notStale.push(channelId);
    }
    if (now - oldest.getTime() < options.statusWaitSeconds * 1000) continue;
    const failed = await moveInBatches(db, (tx) => failOverdueMessages(tx, channelId, 'statusless', options.statusWaitSeconds, BATCH, error));
    if (failed) log.warn({ channelId, count: failed, waitSeconds: options.statusWaitSeconds }, 'sends with no status event failed after the status wait');
  }
  // Channels with nothing awaiting a status any more are not stale.
  const awaitingIds = new Set(awaiting.map((a) => a.channel_id));
  for (const mark of marks.values()) if (mark.stale_since && !awaitingIds.has(mark.channel_id)) notStale.push(mark.channel_id);
  await clearStatusWebhooksStale(db, notStale);
}

/** Fails messages that waited in the queue of a blocked channel past the queue wait (never sent). */
export async function expireBlockedQueues(db: Kysely<Database>, log: Logger, options: BoundedWaitOptions): Promise<void> {
  for (const channelId of await listChannelsWithOverdueQueue(db, options.queueWaitSeconds)) {
    const channel = await findChannelById(db, channelId);
    if (!channel) continue;
    const reason =
      channelBlockReason({ status: channel.status, qualityRating: channel.quality_rating, messagingLimitTier: channel.messaging_limit_tier }) ??
      channel.auth_error;
    if (!reason) continue;
    const error = { message: QUEUE_EXPIRED_ERROR, detail: queueExpiredDetail(options.queueWaitSeconds, reason) };
    const failed = await moveInBatches(db, (tx) => failOverdueMessages(tx, channelId, 'queued', options.queueWaitSeconds, BATCH, error));
    if (failed) log.warn({ channelId, count: failed, reason, waitSeconds: options.queueWaitSeconds }, 'queued messages of a blocked channel failed after the queue wait');
  }
}
