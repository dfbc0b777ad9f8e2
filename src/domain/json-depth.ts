/**
 * How deep a JSON text nests, measured on the text before it is parsed, in one pass without recursion: a
 * body nested thousands of levels deep would otherwise overflow the stack of every recursive walk after the
 * parse (the NUL check, schema validation, canonical JSON). No request or network body the service takes
 * nests beyond a dozen levels, so the limit leaves ample room.
 */

/** The deepest nesting of objects and arrays a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** True when the text nests objects and arrays deeper than `max` (brackets inside strings do not count). */
export function jsonNestsDeeperThan(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: jump to its closing quote (one not escaped by an odd run of backslashes) with indexOf, which
      // skips the characters between much faster than a loop over them; an unterminated string ends the text.
      let end = text.indexOf('"', i + 1);
      for (;;) {
        if (end < 0) return false;
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c) backslashes++;
        if (backslashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      i = end;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/** The message of the refusal. */
export const TOO_DEEP_MESSAGE = `The body nests objects and arrays deeper than ${MAX_JSON_DEPTH} levels.`;
