/** Where a parsed value holds the NUL character (U+0000), which PostgreSQL text and jsonb cannot store. */
import { Stream } from 'node:stream';

const NUL = '\u0000';

/** A field name as the error names it: NUL written out. */
export function shown(name: string): string {
  return name.split(NUL).join('\\u0000');
}

/** Parsed JSON, query and params objects (whatever their prototype), not a streamed body or raw bytes. */
function isParsed(value: unknown): value is Record<string, unknown> | unknown[] {
  return typeof value === 'object' && value !== null && !(value instanceof Stream) && !Buffer.isBuffer(value);
}

/**
 * Whether a JSON text may parse to a value holding NUL: JSON writes NUL in a string only as the escape `\u0000` (a raw
 * control character is not valid JSON, and a raw NUL is looked for too), so a text without either holds none, and the
 * walk of `nulField` over what it parses to can be skipped. (`\\u0000`, an escaped backslash, reads as maybe: safe.)
 */
export function textMayHoldNul(text: string): boolean {
  return text.includes('\\u0000') || text.includes(NUL);
}

/** The field path of the first string (value or key) holding NUL in a parsed value, if any. */
export function nulField(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes(NUL) ? path || 'body' : undefined;
  if (!isParsed(value)) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulField(value[i], `${path}[${i}]`);
      if (found) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes(NUL)) return shown(at);
    const found = nulField(item, at);
    if (found) return found;
  }
  return undefined;
}

