/**
 * Who a recipient is (DESIGN §6, "Who a recipient is (2026)"): a phone number (E.164), a business-scoped user id
 * (BSUID: `CC.<id>`, a parent BSUID `CC.ENT.<id>`), or both. Meta writes a BSUID as an ISO country code, a dot and
 * an alphanumeric id (`US.13491208655302741918`); it is kept exactly as received (never re-cased).
 *
 * The recipient key, one value per person, is what dedupe, the tier window, pair pacing and opt-outs count by: the
 * BSUID when one is known (given with the row, or linked to the phone number by the network's own webhooks), else
 * the phone number.
 */
import { normalizePhone } from './phone.js';

/** Longest BSUID accepted (Meta's are about 23 characters; the rest is room, not a promise). */
export const BSUID_MAX_LENGTH = 80;

const BSUID = /^([A-Z]{2})\.(ENT\.)?([A-Za-z0-9]{1,64})$/;

/** A checked BSUID, or why the text is not one. */
export type ParsedBsuid = { ok: true; userId: string; parent: boolean; country: string } | { ok: false; reason: string };

/** Checks a BSUID (`CC.<id>`) or parent BSUID (`CC.ENT.<id>`); surrounding spaces are dropped, nothing else changes. */
export function parseBsuid(input: string): ParsedBsuid {
  const text = input.trim();
  const m = text.length <= BSUID_MAX_LENGTH ? BSUID.exec(text) : null;
  if (!m || m[3] === 'ENT') {
    return { ok: false, reason: 'a user_id (BSUID) is a country code, a dot and the id, e.g. US.13491208655302741918 (a parent BSUID: US.ENT.11815799212886844830)' };
  }
  return { ok: true, userId: text, parent: m[2] !== undefined, country: m[1] };
}

/** Whether a text is a BSUID or parent BSUID as the network writes it. */
export function isBsuid(text: string): boolean {
  // parseBsuid's rule on the text as it is (a text with surrounding spaces is not one): nothing is allocated for a
  // text that is not a BSUID, as most `recipient_id`s of status webhooks are not (they are phone numbers).
  if (text.length > BSUID_MAX_LENGTH) return false;
  const m = BSUID.exec(text);
  return m !== null && m[3] !== 'ENT';
}

/** Whether a BSUID is a parent BSUID (`CC.ENT.…`), shared by linked business portfolios. */
export function isParentBsuid(userId: string): boolean {
  return /^[A-Z]{2}\.ENT\./.test(userId);
}

/** A recipient as a send names it: an E.164 phone number, a BSUID, or both (at least one). */
export interface RecipientIds {
  phone: string | null;
  userId: string | null;
}

/** A checked recipient, or the one field that is wrong (or missing) and why. */
export type ParsedRecipient = ({ ok: true } & RecipientIds) | { ok: false; field: string; reason: string };

/** The text of an optional cell: absent, null and blank are "not given". */
function given(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : typeof value === 'string' ? value : undefined;
  if (text === undefined) return '\u0000';
  return text.trim() === '' ? null : text;
}

/**
 * Checks a recipient given as a phone number and/or a BSUID (either may be absent, null or blank, not both).
 * `fields` names them for the error (`phone_number` / `recipient`, `rows[3].phone_number` / `rows[3].user_id`): a
 * malformed value names its own field, a recipient with neither names the phone field.
 */
export function parseRecipient(phoneInput: unknown, userIdInput: unknown, fields: { phone: string; userId: string }): ParsedRecipient {
  const phoneText = given(phoneInput);
  const userText = given(userIdInput);
  let phone: string | null = null;
  let userId: string | null = null;
  if (phoneText !== null) {
    const p = phoneText === '\u0000' ? { ok: false as const, reason: 'a phone number is a string of digits' } : normalizePhone(phoneText);
    if (!p.ok) return { ok: false, field: fields.phone, reason: p.reason };
    phone = p.e164;
  }
  if (userText !== null) {
    const b = userText === '\u0000' ? { ok: false as const, reason: 'a user_id (BSUID) is a string' } : parseBsuid(userText);
    if (!b.ok) return { ok: false, field: fields.userId, reason: b.reason };
    userId = b.userId;
  }
  if (phone === null && userId === null) {
    return { ok: false, field: fields.phone, reason: `a recipient needs ${fields.phone} or ${fields.userId} (a BSUID)` };
  }
  return { ok: true, phone, userId };
}

/**
 * The recipient key: the BSUID when known (the row's own, else the one the network linked to its phone number),
 * else the phone number.
 */
export function recipientKey(ids: RecipientIds, linkedUserId: string | null = null): string {
  const key = ids.userId ?? linkedUserId ?? ids.phone;
  if (key === null) throw new RangeError('a recipient has a phone number or a BSUID');
  return key;
}

/**
 * Who the network's send request names: `to` (the phone number) when one is known, else `recipient` (the BSUID).
 * Graph uses `to` when both are given, so a request with a phone number carries only `to`.
 */
export function sendTarget(ids: RecipientIds): { to: string } | { recipient: string } {
  if (ids.phone !== null) return { to: ids.phone };
  if (ids.userId !== null) return { recipient: ids.userId };
  throw new RangeError('a recipient has a phone number or a BSUID');
}

/** A recipient as a person reads it in a message: the phone number, else the BSUID. */
export function recipientLabel(ids: RecipientIds): string {
  return ids.phone ?? ids.userId ?? '';
}

/** A recipient's key and its other identities (a window entry or a pair-rate entry made under one of them counts). */
export interface RecipientIdentity {
  key: string;
  aliases: string[];
}

/**
 * The key of a recipient and its aliases: its own phone number and BSUID and those the network linked to them
 * (`linkedUserId`: the BSUID of its phone number; `linkedPhone`: the phone number of its BSUID), the key left out.
 */
export function recipientIdentity(ids: RecipientIds, linkedUserId: string | null = null, linkedPhone: string | null = null): RecipientIdentity {
  const key = recipientKey(ids, linkedUserId);
  const aliases = [...new Set([ids.phone, linkedPhone, ids.userId, linkedUserId])].filter((v): v is string => v !== null && v !== key);
  return { key, aliases };
}
