/**
 * The recipients a bulk send has already taken, for dropping its duplicate rows: a row is a duplicate when its
 * phone number or its BSUID (or the BSUID or phone number the network linked to either) came in an earlier row.
 * Phone numbers go to a NumberSet (16 bytes a row, outside the heap); BSUIDs, which are not numbers, to a Set.
 */
import { NumberSet } from './number-set.js';
import type { RecipientIds } from './recipients.js';

/** A recipient with what the network linked to it: the BSUID of its phone number, the phone number of its BSUID. */
export interface LinkedRecipient extends RecipientIds {
  linkedUserId?: string | null;
  linkedPhone?: string | null;
}

export class RecipientSet {
  private readonly phones: NumberSet;
  private readonly userIds = new Set<string>();

  /** A set for about `expected` rows. */
  constructor(expected: number) {
    this.phones = new NumberSet(expected);
  }

  /** Adds the recipient's identities; answers false when one of them was already held (the row is a duplicate). */
  add(r: LinkedRecipient): boolean {
    const phones = [r.phone, r.linkedPhone].filter((p): p is string => !!p).map((p) => Number(p.slice(1)));
    const userIds = [r.userId, r.linkedUserId].filter((u): u is string => !!u);
    if (phones.some((p) => this.phones.has(p)) || userIds.some((u) => this.userIds.has(u))) return false;
    for (const p of phones) this.phones.add(p);
    for (const u of userIds) this.userIds.add(u);
    return true;
  }
}
