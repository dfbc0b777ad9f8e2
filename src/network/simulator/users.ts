/**
 * The simulated WhatsApp users as the business sees them (research §9): each has a phone number and a
 * business-scoped user id (BSUID) that is stable for the user and this business portfolio (the demo WABA's), a
 * parent BSUID when parent BSUIDs are enabled, and maybe a username; a user with a username withholds the phone
 * number in what they send. Ids are derived from the number (sha256), so the same user has the same BSUID in every
 * run, and a user's BSUID changes only when told to (`rotate`, then a new generation).
 */
import { createHash } from 'node:crypto';
import { countryOfPhone } from '../../domain/countries.js';
import { SIM_WABA_ID } from './constants.js';

/** Knobs of the simulated users. */
export interface SimUserKnobs {
  /**
   * Share (0–1) of users with a username: those whose number's last three digits are at least 1000 − share × 1000
   * (0.05: numbers ending 950–999), so a test or rehearsal picks such a user by its number.
   */
  usernameShare: number;
  /** Whether the business has parent BSUIDs enabled (then webhooks carry `parent_user_id` and `recipient_parent_user_id`). */
  parentUserIds: boolean;
}

/** The defaults: usernames are rolling out through 2026, parent BSUIDs are for a few managed businesses only. */
export const DEFAULT_USER_KNOBS: SimUserKnobs = { usernameShare: 0.05, parentUserIds: false };

/** One user as webhooks show them. */
export interface SimUser {
  /** The phone number's digits (`wa_id`). */
  waId: string;
  userId: string;
  parentUserId: string | null;
  username: string | null;
}

/** The 20-digit id part of a BSUID, from a seed text (no leading zero). */
function idDigits(seed: string): string {
  const n = BigInt('0x' + createHash('sha256').update(seed).digest('hex').slice(0, 16));
  return String(10n ** 19n + (n % (9n * 10n ** 19n)));
}

/** The registry: users are made on first sight (from their number) and remembered for reverse lookups. */
export class SimUsers {
  knobs: SimUserKnobs;
  /** Per number: a username set by an admin call (null = none), and the BSUID generation (rotations). */
  private overrides = new Map<string, { username?: string | null; generation: number }>();
  /** BSUIDs and parent BSUIDs handed out → the number. */
  private owners = new Map<string, string>();

  constructor(private readonly initial: Partial<SimUserKnobs> = {}) {
    this.knobs = { ...DEFAULT_USER_KNOBS, ...initial };
  }

  /** Back to the starting knobs, no overrides. */
  reset(): void {
    this.knobs = { ...DEFAULT_USER_KNOBS, ...this.initial };
    this.overrides.clear();
    this.owners.clear();
  }

  /** The user behind a number (digits). */
  of(waId: string): SimUser {
    const o = this.overrides.get(waId);
    const generation = o?.generation ?? 0;
    const country = countryOfPhone(waId) ?? 'US';
    const userId = `${country}.${idDigits(`${SIM_WABA_ID}:${waId}:${generation}`)}`;
    const parentUserId = this.knobs.parentUserIds ? `${country}.ENT.${idDigits(`parent:${waId}:${generation}`)}` : null;
    this.owners.set(userId, waId);
    if (parentUserId) this.owners.set(parentUserId, waId);
    const username = o && o.username !== undefined ? o.username : this.hasUsernameByShare(waId) ? `user.${idDigits(`name:${waId}`).slice(-8)}` : null;
    return { waId, userId, parentUserId, username };
  }

  /** The user a BSUID or parent BSUID was handed out for (its current one), or undefined. */
  byUserId(userId: string): SimUser | undefined {
    const waId = this.owners.get(userId);
    if (waId === undefined) return undefined;
    const user = this.of(waId);
    return user.userId === userId || user.parentUserId === userId ? user : undefined;
  }

  /** Sets (a name) or removes (null) a user's username. */
  setUsername(waId: string, username: string | null): SimUser {
    const o = this.overrides.get(waId) ?? { generation: 0 };
    o.username = username;
    this.overrides.set(waId, o);
    return this.of(waId);
  }

  /** Gives the user a new BSUID (and parent BSUID); returns the user before and after. */
  rotate(waId: string): { before: SimUser; after: SimUser } {
    const before = this.of(waId);
    const o = this.overrides.get(waId) ?? { generation: 0 };
    o.generation += 1;
    this.overrides.set(waId, o);
    return { before, after: this.of(waId) };
  }

  private hasUsernameByShare(waId: string): boolean {
    const tail = Number(waId.slice(-3));
    return tail >= 1000 - Math.round(this.knobs.usernameShare * 1000);
  }
}
