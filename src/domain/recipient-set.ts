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

  /**
   * Adds the recipient's identities; answers false when one of them was already held (the row is a duplicate).
   * Called for every row of a start, so it makes no arrays: up to two phone numbers and two BSUIDs.
   */
  add(r: LinkedRecipient): boolean {
    const phone = r.phone ? Number(r.phone.slice(1)) : null;
    const linkedPhone = r.linkedPhone ? Number(r.linkedPhone.slice(1)) : null;
    const userId = r.userId || null;
    const linkedUserId = r.linkedUserId || null;
    if ((phone !== null && this.phones.has(phone)) || (linkedPhone !== null && this.phones.has(linkedPhone))) return false;
    if ((userId !== null && this.userIds.has(userId)) || (linkedUserId !== null && this.userIds.has(linkedUserId))) return false;
    if (phone !== null) this.phones.add(phone);
    if (linkedPhone !== null) this.phones.add(linkedPhone);
    if (userId !== null) this.userIds.add(userId);
    if (linkedUserId !== null) this.userIds.add(linkedUserId);
    return true;
  }
}
