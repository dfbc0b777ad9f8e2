/** Applies `phone_number_quality_update` webhooks to the stored channels. */
import type { Logger } from 'pino';
import { authHoldReason, statusAfterQualityEvent } from '../domain/channel.js';
import { applyChannelQualityEvent, lockChannelsByWabaNumber } from '../store/channels.js';
import { refreshChannel, type ChannelHealthDeps } from './channel-health.js';
import { perChange, type ChangeHandler } from './webhook-inbox.js';

/** Tier name for the newer `max_daily_conversations_per_business` number. */
function tierFromDailyLimit(limit: unknown): string | undefined {
  const byLimit: Record<string, string> = {
    '50': 'TIER_50', '250': 'TIER_250', '1000': 'TIER_1K', '2000': 'TIER_2K',
    '10000': 'TIER_10K', '100000': 'TIER_100K',
  };
  if (typeof limit === 'number' || typeof limit === 'string') return byLimit[String(limit)];
  return undefined;
}

/**
 * The handler: the event changes status (FLAGGED/UNFLAGGED) and tier at once, in the event's transaction;
 * after commit the channel is re-read from the network, which is the authority for the quality rating
 * (the webhook does not carry it), unless a refused token holds it.
 */
export function phoneQualityHandler(health: ChannelHealthDeps, log: Logger): ChangeHandler {
  return perChange(async ({ tx, entryId, value, afterCommit }) => {
    const digits = String(value.display_phone_number ?? '').replace(/\D/g, '');
    if (!digits) return;
    const channels = await lockChannelsByWabaNumber(tx, entryId, digits);
    const event = String(value.event ?? '');
    const limit =
      typeof value.current_limit === 'string' ? value.current_limit : tierFromDailyLimit(value.max_daily_conversations_per_business);
    for (const channel of channels) {
      const status = statusAfterQualityEvent(event, channel.status);
      await applyChannelQualityEvent(tx, channel.id, status, limit ?? channel.messaging_limit_tier);
      log.info({ channelId: channel.id, event, status, tier: limit }, 'phone number quality update applied');
      // A channel whose token the network refused is not read until its back-off passes or the token is rotated
      // (a refused read would only lengthen the back-off); that read finds the channel stale and reads it.
      if (authHoldReason(channel)) continue;
      afterCommit(async () => {
        await refreshChannel(health, { ...channel, status }, { afterEvent: true });
      });
    }
  });
}
