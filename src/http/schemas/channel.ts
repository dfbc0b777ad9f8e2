/** Schemas for channel phone status (both families) and the channel list. */
import { Type } from 'typebox';
import { authHoldReason, channelBlockReason, effectiveThroughput, tierLimit, UNKNOWN_TIER } from '../../domain/channel.js';
import type { ChannelRow } from '../../store/channels.js';
import type { WindowUse } from '../../store/tier-window.js';
import { marketingMessagesOf } from '../../engine/marketing-route.js';

const common = {
  status: Type.String({ description: 'Status of the phone number (CONNECTED, FLAGGED, RESTRICTED, ...)' }),
  id: Type.String({ description: 'Phone number id = channel_id' }),
  verified_name: Type.String(),
  display_phone_number: Type.String(),
  messaging_limit_tier: Type.String({
    description: "The network's messaging limit (TIER_250, TIER_2K, TIER_10K, TIER_100K, TIER_UNLIMITED; older numbers TIER_50, TIER_1K); UNKNOWN when the network names none",
  }),
};

/** Family A phone status: quality in `quality_score`. */
export const PhoneStatusA = Type.Object({ ...common, quality_score: Type.String() });
/** Family B phone status: quality in `quality_rating`. */
export const PhoneStatusB = Type.Object({ ...common, quality_rating: Type.String() });

/** The channel's Marketing Messages API setting (beyond the interface). */
export const MarketingMessagesSetting = Type.Object(
  {
    enabled: Type.Boolean({ description: 'MARKETING templates go through POST /{phone-number-id}/marketing_messages; other categories always use /messages' }),
    disabled_reason: Type.Union([Type.String(), Type.Null()], {
      description: 'why the service switched it off (the network refused the account: not onboarded, 134102); null when on or switched off by the user',
    }),
    disabled_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when the service switched it off' }),
  },
  { additionalProperties: false, examples: [{ enabled: false, disabled_reason: null, disabled_at: null }] },
);

/** `PUT /api/v1/channels/{channel_id}/marketing-messages` body. */
export const MarketingMessagesBody = Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false, examples: [{ enabled: true }] });

/** A channel in `GET /api/v1/channels`. */
export const ChannelItem = Type.Object({
  ...common,
  quality_rating: Type.String(),
  whatsapp_account_id: Type.String(),
  throughput_mps: Type.Integer({ description: 'Messages per second the channel sends at: the operator override, else the network level' }),
  throughput_level: Type.Union([Type.String(), Type.Null()], { description: "The network's throughput.level (STANDARD = 80, HIGH = 1000)" }),
  throughput_override_mps: Type.Union([Type.Integer(), Type.Null()], { description: 'Set with tms channel add|update --throughput; null = follow the network' }),
  auth_error: Type.Union([Type.String(), Type.Null()], {
    description: 'Why the network refused the channel (expired token, permission, locked account) until the back-off passes or the token is rotated',
  }),
  refreshed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  status_webhooks_stale_since: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description:
      'addition: set when messages have awaited a status for STATUS_WEBHOOK_ALERT_SECONDS and no status webhook arrived for the channel since this time (check the webhook subscription); null otherwise',
  }),
  tier_limit: Type.Union([Type.Integer(), Type.Null()], {
    description: 'addition: unique recipients the tier allows in a rolling 24 h (an unknown tier counts as 250); null = no cap',
  }),
  tier_used_24h: Type.Integer({ description: 'addition: unique recipients the channel reached (or holds a slot for) in the rolling 24 h' }),
  tier_left_24h: Type.Union([Type.Integer(), Type.Null()], { description: 'addition: new recipients the tier allows now (tier_limit - tier_used_24h, at least 0); null = no cap' }),
  tier_window_frees_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'addition: when the earliest recipient of the rolling window leaves it and frees a slot; null when the window is empty',
  }),
  blocked_reason: Type.Union([Type.String(), Type.Null()], {
    description:
      'addition: why the service does not send on the channel now (status FLAGGED/RESTRICTED/BANNED/DELETED, quality RED, or a channel-level network refusal such as an expired token until its back-off passes); null when it may send. A full tier window is not a block: see tier_left_24h',
  }),
  marketing_messages: MarketingMessagesSetting,
});

/** Query with a required channel_id. */
export const ChannelQuery = Type.Object(
  { channel_id: Type.String({ minLength: 1, maxLength: 64, description: 'the channel (phone number id)', examples: ['110000000000001'] }) },
  { additionalProperties: false },
);

function base(row: ChannelRow) {
  return {
    status: row.status,
    id: row.id,
    verified_name: row.verified_name,
    display_phone_number: row.display_phone_number,
    messaging_limit_tier: row.messaging_limit_tier ?? UNKNOWN_TIER,
  };
}

/** Family A view of a channel row. */
export function toPhoneStatusA(row: ChannelRow) {
  return { ...base(row), quality_score: row.quality_rating };
}

/** Family B view of a channel row. */
export function toPhoneStatusB(row: ChannelRow) {
  return { ...base(row), quality_rating: row.quality_rating };
}

/** The tier window fields of the channel list. */
export function tierUse(row: ChannelRow, use: WindowUse | undefined) {
  const limit = tierLimit(row.messaging_limit_tier);
  const used = use?.used ?? 0;
  return {
    tier_limit: limit,
    tier_used_24h: used,
    tier_left_24h: limit === null ? null : Math.max(0, limit - used),
    tier_window_frees_at: use ? use.frees_at.toISOString() : null,
  };
}

/** Why the channel may not send now, or null. */
export function blockedReason(row: ChannelRow, now = Date.now()): string | null {
  return channelBlockReason({ status: row.status, qualityRating: row.quality_rating, messagingLimitTier: row.messaging_limit_tier }) ?? authHoldReason(row, now);
}

/** Channel list view. */
export function toChannelItem(row: ChannelRow) {
  return {
    ...toPhoneStatusB(row),
    whatsapp_account_id: row.waba_id,
    throughput_mps: effectiveThroughput(row),
    throughput_level: row.throughput_level,
    throughput_override_mps: row.throughput_override_mps,
    auth_error: row.auth_error,
    refreshed_at: row.refreshed_at ? row.refreshed_at.toISOString() : null,
    marketing_messages: marketingMessagesOf(row),
  };
}
