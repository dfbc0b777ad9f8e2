/**
 * A bulk send's own name (`send_name`, beyond the interface): optional, one line, at most
 * MAX_SEND_NAME_LENGTH characters, trimmed. It tells apart sends of the same template in lists and
 * reports; the list item's `name` stays the template's name, as the interface fixes it.
 */

/** Most characters (code points) of a bulk send's name. */
export const MAX_SEND_NAME_LENGTH = 120;

/** Reads `send_name`: absent, null or blank is no name; otherwise the trimmed text, or why it is refused. */
export function parseSendName(value: unknown): { ok: true; name: string | null } | { ok: false; reason: string } {
  if (value === undefined || value === null) return { ok: true, name: null };
  if (typeof value !== 'string') return { ok: false, reason: 'send_name must be a string' };
  const name = value.trim();
  if (name === '') return { ok: true, name: null };
  if (/\p{Cc}/u.test(name)) return { ok: false, reason: 'send_name is one line of text (no line breaks, tabs or control characters)' };
  if ([...name].length > MAX_SEND_NAME_LENGTH) return { ok: false, reason: `send_name is at most ${MAX_SEND_NAME_LENGTH} characters` };
  return { ok: true, name };
}
