/**
 * Who a webhook names (research §9): the phone number, BSUID, parent BSUID and username the network gives for the
 * recipient of a status, the sender of an inbound message, a contact-request answer, a BSUID change and a marketing
 * preference. Every field is optional in 2026 (a user with a username writes with no phone number; a failed status
 * has no `contacts`), so each reader returns nulls rather than assume one. A malformed BSUID or phone number reads as
 * absent: nothing is learnt from it.
 */
import { normalizePhone } from './phone.js';
import { isBsuid } from './recipients.js';

/** The ids a webhook gave for one person; any may be null. */
export interface WebhookPerson {
  /** E.164. */
  phone: string | null;
  userId: string | null;
  parentUserId: string | null;
  username: string | null;
}

/** A `contacts[]` item of a `messages` change. */
export interface WebhookContact {
  wa_id?: unknown;
  user_id?: unknown;
  parent_user_id?: unknown;
  profile?: { name?: unknown; username?: unknown };
}

/** A text the database can store (no NUL), or null. */
const text = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' && !v.includes('\u0000') ? v : null);
const bsuid = (v: unknown): string | null => (typeof v === 'string' && isBsuid(v) ? v : null);

/** The E.164 form of a `wa_id` / `from` / `recipient_id` (digits), or null (a BSUID there is not a phone number). */
export function webhookPhone(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\+?\d+$/.test(v.trim())) return null;
  const p = normalizePhone(v);
  return p.ok ? p.e164 : null;
}

/** A username as shown (at most 64 characters, no NUL; anything else reads as absent). */
function username(v: unknown): string | null {
  const t = text(v);
  return t !== null && t.length <= 64 ? t : null;
}

/**
 * The `contacts[]` item of a change that names this person (by BSUID, else by phone number); the only item only for
 * an item that names nobody. A body may carry the statuses of several recipients and contacts for some of them
 * only (a failed status has none): the only contact of a body is not the contact of a status naming someone else,
 * and taking it would link that status's number to another person's BSUID.
 */
export function contactFor(contacts: unknown, ids: { userId?: unknown; phone?: unknown }): WebhookContact | undefined {
  const list = (Array.isArray(contacts) ? contacts : []).filter((c): c is WebhookContact => typeof c === 'object' && c !== null);
  const byUser = typeof ids.userId === 'string' ? list.find((c) => c.user_id === ids.userId) : undefined;
  const byPhone = typeof ids.phone === 'string' ? list.find((c) => typeof c.wa_id === 'string' && c.wa_id === ids.phone) : undefined;
  const namesSomeone = typeof ids.userId === 'string' || typeof ids.phone === 'string';
  return byUser ?? byPhone ?? (!namesSomeone && list.length === 1 ? list[0] : undefined);
}

/**
 * The fields of a `contacts[]` entry that read as valid (a well-formed phone number, BSUIDs, a storable username),
 * as the network wrote them: what may be kept with a status (a NUL elsewhere in the entry cannot reach storage).
 */
export function cleanContact(c: WebhookContact): WebhookContact {
  const out: WebhookContact = {};
  if (webhookPhone(c.wa_id)) out.wa_id = c.wa_id;
  if (bsuid(c.user_id)) out.user_id = c.user_id;
  if (bsuid(c.parent_user_id)) out.parent_user_id = c.parent_user_id;
  const name = username(c.profile?.username);
  if (name) out.profile = { username: name };
  return out;
}

/** A status object's fields read here. */
export interface StatusIds {
  recipient_id?: unknown;
  recipient_user_id?: unknown;
  recipient_parent_user_id?: unknown;
}

/**
 * The recipient of a status, read one field at a time: `recipient_id` is the phone number only when the message went
 * to one (else it may hold the BSUID), `recipient_user_id` / `recipient_parent_user_id` the BSUIDs; the `contacts`
 * entry (absent on failed) adds `wa_id`, `user_id`, `parent_user_id` and `profile.username` (delivered and read).
 * Each part is its own reader: the status path reads the BSUIDs and username of every status, and the phone number
 * only of a status that also names a BSUID (a link), so it is not normalised for the others.
 */
export function statusPhone(status: StatusIds, contact: WebhookContact | undefined): string | null {
  return webhookPhone(status.recipient_id) ?? webhookPhone(contact?.wa_id);
}

/** The recipient's BSUID (`statusPhone` says where each part is read from). */
export function statusUserId(status: StatusIds, contact: WebhookContact | undefined): string | null {
  return bsuid(status.recipient_user_id) ?? bsuid(contact?.user_id) ?? (isBsuid(String(status.recipient_id ?? '')) ? String(status.recipient_id) : null);
}

/** The recipient's parent BSUID. */
export function statusParentUserId(status: StatusIds, contact: WebhookContact | undefined): string | null {
  return bsuid(status.recipient_parent_user_id) ?? bsuid(contact?.parent_user_id);
}

/** The recipient's username. */
export function statusUsername(contact: WebhookContact | undefined): string | null {
  return username(contact?.profile?.username);
}

/** An inbound message's fields read here. */
export interface InboundIds {
  from?: unknown;
  from_user_id?: unknown;
  from_parent_user_id?: unknown;
}

/**
 * The sender of an inbound message: `from` and `contacts[].wa_id` only when the phone number may be shared,
 * `from_user_id` and `contacts[].user_id` always (since April 2026), `contacts[].profile.username` when set.
 */
export function inboundSender(message: InboundIds, contact: WebhookContact | undefined): WebhookPerson {
  return {
    phone: webhookPhone(message.from) ?? webhookPhone(contact?.wa_id),
    userId: bsuid(message.from_user_id) ?? bsuid(contact?.user_id),
    parentUserId: bsuid(message.from_parent_user_id) ?? bsuid(contact?.parent_user_id),
    username: username(contact?.profile?.username),
  };
}

/** A `contacts` message's fields read here. */
export interface ContactsMessage {
  type?: unknown;
  origin?: unknown;
  contacts?: Array<{ origin?: unknown; phones?: Array<{ phone?: unknown; wa_id?: unknown }> }>;
}

/**
 * The phone number a user shared by answering a REQUEST_CONTACT_INFO button: a `contacts` message whose origin
 * (on the message or its first contact) is `contact_request`, the first phone of the card (its `wa_id`, else its
 * `phone`). Null for any other message (a contact card the user forwarded names someone else).
 */
export function contactRequestPhone(message: ContactsMessage): string | null {
  if (message.type !== 'contacts' || !Array.isArray(message.contacts)) return null;
  const card = message.contacts[0];
  if (message.origin !== 'contact_request' && card?.origin !== 'contact_request') return null;
  for (const p of Array.isArray(card?.phones) ? card.phones : []) {
    const written = typeof p?.phone === 'string' ? normalizePhone(p.phone) : null;
    const phone = webhookPhone(p?.wa_id) ?? (written?.ok ? written.e164 : null);
    if (phone) return phone;
  }
  return null;
}

/** A BSUID change: the old id, the new one and the new parent BSUID when given. */
export interface UserIdChange {
  from: string;
  to: string;
  parentUserId: string | null;
}

/**
 * A BSUID change from a `messages` change's `system` message of type `user_changed_user_id` (no phone number in it):
 * the new BSUID is `system.user_id`, the old one `system.previous_user_id`, else the sender's `from_user_id` when it
 * differs (as `from` is the old number in `user_changed_number`).
 */
export function systemUserIdChange(message: { type?: unknown; from_user_id?: unknown; system?: Record<string, unknown> }): UserIdChange | null {
  if (message.type !== 'system' || message.system?.type !== 'user_changed_user_id') return null;
  const to = bsuid(message.system.user_id);
  const from = bsuid(message.system.previous_user_id) ?? (bsuid(message.from_user_id) !== to ? bsuid(message.from_user_id) : null);
  return to && from && to !== from ? { from, to, parentUserId: bsuid(message.system.parent_user_id) } : null;
}

/**
 * The BSUID changes of a `user_id_update` change: `value.user_id_update[]`, each with `user_id: {previous, current}`
 * (and `parent_user_id: {previous, current}` when parent BSUIDs are on); flat `previous_user_id` / `user_id` are read
 * too. Items that do not name two well-formed, different BSUIDs are skipped.
 */
export function userIdUpdates(value: Record<string, unknown>): UserIdChange[] {
  const items = Array.isArray(value.user_id_update) ? (value.user_id_update as Array<Record<string, unknown>>) : [];
  const out: UserIdChange[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null) continue;
    const ids = item.user_id as { previous?: unknown; current?: unknown } | string | undefined;
    const parent = item.parent_user_id as { current?: unknown } | string | undefined;
    const from = typeof ids === 'object' && ids !== null ? bsuid(ids.previous) : bsuid(item.previous_user_id);
    const to = typeof ids === 'object' && ids !== null ? bsuid(ids.current) : bsuid(ids);
    const parentUserId = typeof parent === 'object' && parent !== null ? bsuid(parent.current) : bsuid(parent);
    if (from && to && from !== to) out.push({ from, to, parentUserId });
  }
  return out;
}

/** A marketing-messages preference: the user stopped (`stop`) or resumed (`resume`) them. */
export interface MarketingPreference {
  person: WebhookPerson;
  value: 'stop' | 'resume';
  detail: string | null;
}

/**
 * The marketing preferences of a `user_preferences` change (`value.user_preferences[]`, category
 * `marketing_messages`, value `stop` or `resume`); the user is named by the item's `wa_id` / `user_id` and the
 * matching `contacts[]` entry. Other categories and values are skipped.
 */
export function marketingPreferences(value: Record<string, unknown>): MarketingPreference[] {
  const items = Array.isArray(value.user_preferences) ? (value.user_preferences as Array<Record<string, unknown>>) : [];
  const out: MarketingPreference[] = [];
  for (const item of items) {
    if (typeof item !== 'object' || item === null || item.category !== 'marketing_messages') continue;
    if (item.value !== 'stop' && item.value !== 'resume') continue;
    const contact = contactFor(value.contacts, { userId: item.user_id, phone: item.wa_id });
    const person: WebhookPerson = {
      phone: webhookPhone(item.wa_id) ?? webhookPhone(contact?.wa_id),
      userId: bsuid(item.user_id) ?? bsuid(contact?.user_id),
      parentUserId: bsuid(item.parent_user_id) ?? bsuid(contact?.parent_user_id),
      username: username(contact?.profile?.username),
    };
    if (person.phone || person.userId) out.push({ person, value: item.value, detail: text(item.detail) });
  }
  return out;
}
