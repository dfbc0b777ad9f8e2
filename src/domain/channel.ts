/** Channel (business phone number) states and the gating rule that follows from them. */

/** Phone number statuses the service knows by name; the network may send others (kept as strings). */
export const CHANNEL_STATUSES = [
  'PENDING', 'CONNECTED', 'FLAGGED', 'RESTRICTED', 'RATE_LIMITED', 'BANNED', 'DELETED', 'MIGRATED',
  'DISCONNECTED', 'UNKNOWN', 'UNVERIFIED', 'OFFLINE',
] as const;

/** Quality ratings (NA and UNKNOWN both mean "not rated yet"). */
export const QUALITY_RATINGS = ['GREEN', 'YELLOW', 'RED', 'NA', 'UNKNOWN'] as const;

/** Messaging limit tiers and the unique-recipient cap of each per rolling 24 h (null = no cap). */
export const TIER_LIMITS = {
  TIER_50: 50,
  TIER_250: 250,
  TIER_1K: 1000,
  TIER_2K: 2000,
  TIER_10K: 10000,
  TIER_100K: 100000,
  TIER_UNLIMITED: null,
  UNLIMITED: null,
  TIER_NOT_SET: 250,
} as const satisfies Record<string, number | null>;

/** A tier name the service knows. */
export type MessagingTier = keyof typeof TIER_LIMITS;
export const MESSAGING_TIERS = Object.keys(TIER_LIMITS) as MessagingTier[];

/** The recipient cap of a tier; unknown tiers are treated as the smallest portfolio limit (250). */
export function tierLimit(tier: string | null | undefined): number | null {
  if (!tier) return null;
  return tier in TIER_LIMITS ? TIER_LIMITS[tier as MessagingTier] : 250;
}

/** What the service knows of a channel's health. */
export interface ChannelHealth {
  status: string;
  qualityRating: string;
  messagingLimitTier: string | null;
}

/** Why a channel may not send now, or null when it may. */
export function channelBlockReason(health: ChannelHealth): string | null {
  if (health.status !== 'CONNECTED') return `channel status is ${health.status}`;
  if (health.qualityRating === 'RED') return 'channel quality rating is RED';
  return null;
}

/** The phone_number_quality_update events and what each does to the stored status. */
export function statusAfterQualityEvent(event: string, current: string): string {
  switch (event) {
    case 'FLAGGED':
      return 'FLAGGED';
    case 'UNFLAGGED':
      return current === 'FLAGGED' ? 'CONNECTED' : current;
    case 'RESTRICTED':
      return 'RESTRICTED';
    default:
      return current;
  }
}
