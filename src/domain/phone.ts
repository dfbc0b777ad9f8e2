/** Phone numbers: E.164 normalisation of what clients send ("digits with country code"). */

/** A normalised number (`+` and 8–15 digits) or why the input is not one. */
export type NormalizedPhone = { ok: true; e164: string } | { ok: false; reason: string };

/** 8–15 digits, the first not 0, with or without a leading `+`: E.164 as it is (with the `+`). */
const PLAIN = /^\+?[1-9][0-9]{7,14}$/;
const PLUS = 0x2b;

/**
 * Normalises to E.164: spaces, dots, dashes and parentheses are dropped, a leading `00` becomes `+`, a
 * missing `+` is added (the interface sends digits with the country code). 8–15 digits, no leading 0.
 */
export function normalizePhone(input: string): NormalizedPhone {
  // Most numbers are already digits (with or without their `+`) of a valid length: nothing to drop (a bulk start
  // normalises every row's number).
  if (PLAIN.test(input)) return { ok: true, e164: input.charCodeAt(0) === PLUS ? input : '+' + input };
  const compact = input.trim().replace(/[\s().-]/g, '');
  const withPlus = compact.startsWith('00') ? '+' + compact.slice(2) : compact.startsWith('+') ? compact : '+' + compact;
  if (!/^\+\d+$/.test(withPlus)) return { ok: false, reason: 'a phone number is digits with the country code, optionally with a leading +' };
  const digits = withPlus.slice(1);
  if (digits.startsWith('0')) return { ok: false, reason: 'the country code cannot start with 0' };
  if (digits.length < 8 || digits.length > 15) return { ok: false, reason: 'a phone number has 8 to 15 digits with its country code' };
  return { ok: true, e164: withPlus };
}
