/**
 * The checks a status item of a signed webhook body must pass before it is applied. The
 * signature proves who sent the body, not that each item is usable: an item that is not an object, has no usable id,
 * a timestamp no date can hold (`"99999999999999999999"`, `1e308`) or a NUL character (which PostgreSQL text and jsonb
 * cannot store) would fail the transaction of every item beside it. Such an item is set apart with its reason and
 * the others are applied.
 */
import { nulField } from './nul.js';

/** The latest event time accepted, in Unix seconds (year 5138; the network sends the current time). */
const MAX_TIMESTAMP_SECONDS = 1e11;
/** The longest id accepted (a wamid is about 60 characters). */
const MAX_ID_LENGTH = 512;

/**
 * Why a status item cannot be applied, or undefined when it can. `nulFree`: the body's text was found to hold no NUL
 * (`textMayHoldNul`), so the item's strings are not walked again for one.
 */
export function statusItemProblem(item: unknown, nulFree = false): string | undefined {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return `a status must be an object, got ${item === null ? 'null' : Array.isArray(item) ? 'an array' : typeof item}`;
  const s = item as Record<string, unknown>;
  if (typeof s.id !== 'string' || s.id.length === 0 || s.id.length > MAX_ID_LENGTH) return `id must be a string of 1 to ${MAX_ID_LENGTH} characters`;
  if (typeof s.status !== 'string') return 'status must be a string';
  if (s.timestamp !== undefined) {
    const seconds = typeof s.timestamp === 'string' && /^\d{1,12}$/.test(s.timestamp) ? Number(s.timestamp) : typeof s.timestamp === 'number' ? s.timestamp : NaN;
    if (!Number.isFinite(seconds) || seconds < 0 || seconds > MAX_TIMESTAMP_SECONDS) return `timestamp must be Unix seconds up to ${MAX_TIMESTAMP_SECONDS}, got ${JSON.stringify(s.timestamp).slice(0, 40)}`;
  }
  const nul = nulFree ? undefined : nulField(item);
  if (nul !== undefined) return `${nul} holds the NUL character (U+0000)`;
  return undefined;
}
