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

/**
 * What a refusal of `/marketing_messages` means (Meta's error-code page, Marketing Messages API section); each one is an
 * answer that created no message, so the same row may go by `/messages` in the same attempt:
 * - `not_onboarded` (134102, HTTP 500): the account is not onboarded; the channel's setting is switched off;
 * - `not_marketing` (134100, 131055): the network does not take this template there (its category is not MARKETING);
 * - `template_syncing` (134101): a new template is not synced to the endpoint yet (up to about 10 minutes).
 * Null: any other failure, handled like a failure of `/messages`.
 */
export function marketingRefusalOf(code: number | undefined): 'not_onboarded' | 'not_marketing' | 'template_syncing' | null {
  if (code === 134102) return 'not_onboarded';
  if (code === 134100 || code === 131055) return 'not_marketing';
  if (code === 134101) return 'template_syncing';
  return null;
}

/** The reason shown when the service switched a channel's setting off. */
export const NOT_ONBOARDED_REASON =
  'The network refused the Marketing Messages API for this account (134102: not onboarded); MARKETING templates go by /messages. ' +
  'Onboard the WhatsApp Business Account to the Marketing Messages API, then switch the setting on again.';
