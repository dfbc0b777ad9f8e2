/**
 * Recipient keys of rows to send (domain/recipients.ts): one per person, the BSUID when one is known (the row's
 * own, else the one the network linked to its phone number), else the phone number, with the person's other
 * identifiers as aliases. Dedupe, the tier window and the pair pacing count by them.
 */
import type { Kysely } from 'kysely';
import { recipientIdentity, type RecipientIdentity, type RecipientIds } from '../domain/recipients.js';
import { findPhonesOfUserIds, findUserIdsOfPhones } from '../store/recipient-links.js';
import type { Database } from '../store/schema.js';

/** What the network linked to each identifier: the BSUID of a phone number, the phone number of a BSUID. */
export interface Links {
  userIdOf: Map<string, string>;
  phoneOf: Map<string, string>;
}

/** The company's links of these recipients' phone numbers and BSUIDs (two indexed reads). */
export async function findLinks(db: Kysely<Database>, companyId: string, recipients: RecipientIds[]): Promise<Links> {
  const phones = [...new Set(recipients.map((r) => r.phone).filter((p): p is string => p !== null))];
  const userIds = [...new Set(recipients.map((r) => r.userId).filter((u): u is string => u !== null))];
  const [userIdOf, phoneOf] = await Promise.all([findUserIdsOfPhones(db, companyId, phones), findPhonesOfUserIds(db, companyId, userIds)]);
  return { userIdOf, phoneOf };
}

/** A recipient's identity under these links. */
export function identityOf(links: Links, r: RecipientIds): RecipientIdentity {
  return recipientIdentity(r, r.phone ? (links.userIdOf.get(r.phone) ?? null) : null, r.userId ? (links.phoneOf.get(r.userId) ?? null) : null);
}

/** The identity of each message row (by id), as stored: `phone_number` and `user_id`. */
export async function identitiesOfRows(
  db: Kysely<Database>,
  companyId: string,
  rows: Array<{ id: string; phone_number: string | null; user_id: string | null }>,
): Promise<Map<string, RecipientIdentity>> {
  const ids = rows.map((m) => ({ phone: m.phone_number, userId: m.user_id }));
  const links = await findLinks(db, companyId, ids);
  return new Map(rows.map((m, i) => [m.id, identityOf(links, ids[i])]));
}
