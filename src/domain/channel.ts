/** Channel (business phone number) states and the gating rule that follows from them. */

/** Phone number statuses the service knows by name; the network may send others (kept as strings). */
export const CHANNEL_STATUSES = [
  'PENDING', 'CONNECTED', 'FLAGGED', 'RESTRICTED', 'RATE_LIMITED', 'BANNED', 'DELETED', 'MIGRATED',
  'DISCONNECTED', 'UNKNOWN', 'UNVERIFIED', 'OFFLINE',
] as const;

/** Quality ratings (NA and UNKNOWN both mean "not rated yet"). */
export const QUALITY_RATINGS = ['GREEN', 'YELLOW', 'RED', 'NA', 'UNKNOWN'] as const;

/**
 * Messaging limit tiers and the unique-recipient cap of each per rolling 24 h (null = no cap). The network's
 * names are kept as they are (`whatsapp_business_manager_messaging_limit`: TIER_250, TIER_2K, TIER_10K,
 * TIER_100K, TIER_UNLIMITED; the deprecated `messaging_limit_tier` adds TIER_50 and TIER_1K).
 */
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
  UNKNOWN: 250,
} as const satisfies Record<string, number | null>;

/** A tier name the service knows. */
export type MessagingTier = keyof typeof TIER_LIMITS;
export const MESSAGING_TIERS = Object.keys(TIER_LIMITS) as MessagingTier[];

/** The tier the service reports when the network named none (the interface's string is never null). */
export const UNKNOWN_TIER = 'UNKNOWN';

/**
 * The recipient cap of a tier. A tier the network did not name (null, UNKNOWN) or one the service does not
 * know counts as 250, the smallest limit any business portfolio has.
 */
export function tierLimit(tier: string | null | undefined): number | null {
  if (!tier) return TIER_LIMITS.UNKNOWN;
  return tier in TIER_LIMITS ? TIER_LIMITS[tier as MessagingTier] : TIER_LIMITS.UNKNOWN;
}

/** The tier from a phone number read: the current field first, then the deprecated one, else UNKNOWN. */
export function tierFromNetwork(current: string | null | undefined, deprecated: string | null | undefined): string {
  return current || deprecated || UNKNOWN_TIER;
}

/** Messages per second of each `throughput.level` (research §7: STANDARD 80, HIGH 1,000). */
export const THROUGHPUT_LEVEL_MPS: Readonly<Record<string, number>> = { STANDARD: 80, HIGH: 1000 };
/** The rate when the network names no level, or one the service does not know. */
export const DEFAULT_THROUGHPUT_MPS = 80;

/** Messages per second the network allows a number with this `throughput.level`. */
export function throughputOfLevel(level: string | null | undefined): number {
  return (level && THROUGHPUT_LEVEL_MPS[level]) || DEFAULT_THROUGHPUT_MPS;
}

/** The rate a channel sends at: the operator's override when set, else the network's level. */
export function effectiveThroughput(channel: { throughput_override_mps: number | null; throughput_mps: number }): number {
  return Math.min(1000, Math.max(1, channel.throughput_override_mps ?? channel.throughput_mps));
}

/** What the service knows of a channel's health. */
export interface ChannelHealth {
  status: string;
  qualityRating: string;
  messagingLimitTier: string | null;
}

/**
 * Statuses at which the network does not let a number send (research §1 and the interface's gating rules).
 * Every other status, including DISCONNECTED (a SANDBOX test number that Meta lets send reports it), PENDING,
 * UNKNOWN or no status at all, is left to the network's own answer to each send.
 */
export const BLOCKING_STATUSES: ReadonlySet<string> = new Set(['FLAGGED', 'RESTRICTED', 'BANNED', 'DELETED']);

/** Why a channel may not send now, or null when it may (blocked status, or quality RED). */
export function channelBlockReason(health: ChannelHealth): string | null {
  if (BLOCKING_STATUSES.has(health.status)) return `channel status is ${health.status}`;
  if (health.qualityRating === 'RED') return 'channel quality rating is RED';
  return null;
}

/** A Graph error as far as channel-level failures care. */
export interface GraphFailureInfo {
  code?: number;
  subcode?: number;
  message?: string;
}

/**
 * The paused_reason for a Graph error that concerns the whole channel rather than one message, or null:
 * `ACCESS_TOKEN_INVALID` (0, 102, 190: expired or revoked token, password changed, …),
 * `ACCESS_DENIED` (3, 10, 200-299, 131005: the token lacks a permission on the number or its WABA),
 * `ACCOUNT_BLOCKED` (131031 account locked, 368 temporarily blocked for policy violations).
 */
export function channelFailureReason(f: GraphFailureInfo): string | null {
  const code = f.code;
  if (code === undefined) return null;
  let kind: string | null = null;
  if (code === 0 || code === 102 || code === 190) kind = 'ACCESS_TOKEN_INVALID';
  else if (code === 3 || code === 10 || (code >= 200 && code <= 299) || code === 131005) kind = 'ACCESS_DENIED';
  else if (code === 131031 || code === 368) kind = 'ACCOUNT_BLOCKED';
  if (!kind) return null;
  const message = (f.message ?? '').replace(/^\(#\d+\)\s*/, '').slice(0, 300) || `Graph error ${code}`;
  const codes = f.subcode !== undefined ? `code ${code}, subcode ${f.subcode}` : `code ${code}`;
  return `${kind}: ${message} (${codes})`;
}

/** First wait before a channel with a channel-level failure is tried again (doubles per failure, capped). */
export const AUTH_RETRY_BASE_MS = 60_000;
/** Longest wait between two tries of such a channel. */
export const AUTH_RETRY_MAX_MS = 15 * 60_000;

/** How long to leave a channel alone after its `failures`-th consecutive channel-level failure (1-based). */
export function authRetryDelayMs(failures: number): number {
  return Math.min(AUTH_RETRY_MAX_MS, AUTH_RETRY_BASE_MS * 2 ** Math.max(0, failures - 1));
}

/** The recorded channel-level failure while it holds the channel, or null (none, or time to try again). */
export function authHoldReason(channel: { auth_error: string | null; auth_retry_at: Date | null }, now = Date.now()): string | null {
  if (!channel.auth_error) return null;
  if (channel.auth_retry_at && channel.auth_retry_at.getTime() <= now) return null;
  return channel.auth_error;
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
