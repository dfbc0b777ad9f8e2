/**
 * The Marketing Messages API (`POST /{PNID}/marketing_messages`, research §9): which sends take it, and the TTL a bulk
 * send may give it. Only MARKETING templates go there, and only when the channel's setting is on; everything else
 * uses `/messages`.
 */

/** `message_send_ttl_seconds` of a marketing message: 12 hours to 30 days (research §2, marketing TTL). */
export const MARKETING_TTL_SECONDS = { min: 43_200, max: 2_592_000 } as const;

/** A TTL as given with a bulk start: absent or null = the network's default; else whole seconds in range. */
export function parseMarketingTtl(value: unknown): { ok: true; ttl: number | null } | { ok: false; reason: string } {
  if (value === undefined || value === null) return { ok: true, ttl: null };
  if (typeof value === 'number' && Number.isInteger(value) && value >= MARKETING_TTL_SECONDS.min && value <= MARKETING_TTL_SECONDS.max) {
    return { ok: true, ttl: value };
  }
  return {
    ok: false,
    reason: `message_send_ttl_seconds is whole seconds from ${MARKETING_TTL_SECONDS.min} (12 hours) to ${MARKETING_TTL_SECONDS.max} (30 days), or null`,
  };
}

/** Whether a send goes through the Marketing Messages API: a MARKETING template on a channel with the setting on. */
export function usesMarketingMessages(templateCategory: string, channelEnabled: boolean): boolean {
  return channelEnabled && templateCategory.toUpperCase() === 'MARKETING';
}
