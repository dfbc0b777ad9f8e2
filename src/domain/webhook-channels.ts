/**
 * Which channel (phone number id) a webhook change or body concerns. Graph names it in each change's
 * `value.metadata.phone_number_id`; template, account and quality changes name none. The inbox stores the one channel
 * a body concerns with it, so a backlog can be applied in lanes of channels at once (webhook-inbox.ts).
 */

/** The longest phone number id taken (Graph's are about 15 digits). */
const MAX_PHONE_NUMBER_ID_LENGTH = 64;

/** The channel a change's value names (`metadata.phone_number_id`), or null when it names none usable. */
export function changePhoneNumberId(value: unknown): string | null {
  if (typeof value !== 'object' || value === null) return null;
  const metadata = (value as { metadata?: unknown }).metadata;
  const id = typeof metadata === 'object' && metadata !== null ? (metadata as { phone_number_id?: unknown }).phone_number_id : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= MAX_PHONE_NUMBER_ID_LENGTH && !id.includes('\u0000') ? id : null;
}

/**
 * The one channel every change of a parsed body names, or null when a change names none or two changes name
 * different ones (such a body is applied apart from the channels' lanes).
 */
export function bodyPhoneNumberId(body: unknown): string | null {
  const entries = typeof body === 'object' && body !== null ? (body as { entry?: unknown }).entry : undefined;
  if (!Array.isArray(entries)) return null;
  let found: string | null = null;
  for (const entry of entries) {
    const changes = typeof entry === 'object' && entry !== null ? (entry as { changes?: unknown }).changes : undefined;
    if (!Array.isArray(changes)) return null;
    for (const change of changes) {
      const id = changePhoneNumberId(typeof change === 'object' && change !== null ? (change as { value?: unknown }).value : undefined);
      if (id === null || (found !== null && id !== found)) return null;
      found = id;
    }
  }
  return found;
}
