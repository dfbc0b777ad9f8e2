/**
 * The gate of a channel's batch: which rows may go now and which wait. A recipient sent to within the pair gap waits
 * for it (this instance's memory of its last sends); on a tiered channel each new recipient takes a slot of the
 * moving tier window (reserved under the window lock), and a full window holds the channel until its earliest
 * expiry. A suppressed number needs no slot: the number check refuses it. A recipient is its key
 * (engine/recipient-keys.ts: the BSUID when known, else the phone number); a pair-rate or window entry made under
 * another identifier of the same person (before the network linked them) counts too.
 */
import type { Kysely } from 'kysely';
import { tierLimit } from '../domain/channel.js';
import type { ChannelRow } from '../store/channels.js';
import type { DueMessageRow } from '../store/message-moves.js';
import { findSuppressedRecipients } from '../store/opt-outs.js';
import type { Database } from '../store/schema.js';
import {
  countWindowRecipients,
  earliestWindowExpiry,
  findWindowRecipients,
  holdChannelForTier,
  lockChannel,
  releaseTierHold,
  releaseWindowSlots,
  reserveWindowRecipients,
} from '../store/tier-window.js';
import type { RecipientIdentity } from '../domain/recipients.js';
import type { PairRateMemory } from './pair-rate-memory.js';
import { identitiesOfRows } from './recipient-keys.js';

/** What the gate reads. */
export interface GateDeps {
  db: Kysely<Database>;
  pairGapMs: number;
  /** Length of the tier window (Meta: a moving 24 h; shorter only in tests). */
  tierWindowMs: number;
  /** Last send time per recipient on this channel (pair rate; time-bounded, see pair-rate-memory.ts). */
  lastSentTo: Pick<Map<string, number>, 'get'> | PairRateMemory;
}

/** A row put off by the gate, with its new due time. */
export interface DeferredRow {
  id: string;
  due_at: string;
  attempts_increment: number;
}

/**
 * The gate's split of a batch: rows that go now, rows put off (pair rate and tier window), the tier-limited ones
 * among them, and the recipient key of each row let through (by message id; the sender records the pair rate by it).
 */
export interface GateResult {
  allowed: DueMessageRow[];
  deferred: DeferredRow[];
  tierLimited: DueMessageRow[];
  keys: Map<string, string>;
}

/** Splits a batch into what may go now and what waits (tier quota, pair rate). */
export async function gateBatch(deps: GateDeps, channel: ChannelRow, rows: DueMessageRow[]): Promise<GateResult> {
  const { db } = deps;
  const now = Date.now();
  const allowed: DueMessageRow[] = [];
  const deferred: DeferredRow[] = [];
  const tierLimited: DueMessageRow[] = [];
  const seenInBatch = new Map<string, number>();
  const candidates: DueMessageRow[] = [];
  const identities = rows.length ? await identitiesOfRows(db, rows[0].company_id, rows) : new Map<string, RecipientIdentity>();
  const keys = new Map<string, string>();
  for (const m of rows) {
    const { key, aliases } = identities.get(m.id)!;
    const last = Math.max(...[key, ...aliases].map((k) => Math.max(deps.lastSentTo.get(k) ?? 0, seenInBatch.get(k) ?? 0)));
    if (last && now - last < deps.pairGapMs) {
      deferred.push({ id: m.id, due_at: new Date(last + deps.pairGapMs).toISOString(), attempts_increment: 0 });
      seenInBatch.set(key, last + deps.pairGapMs);
      continue;
    }
    seenInBatch.set(key, now);
    keys.set(m.id, key);
    candidates.push(m);
  }
  const limit = tierLimit(channel.messaging_limit_tier);
  if (limit === null) return { allowed: candidates, deferred, tierLimited, keys };
  const windowSeconds = deps.tierWindowMs / 1000;
  await db.transaction().execute(async (tx) => {
    await lockChannel(tx, channel.id);
    const everyId = [...new Set(candidates.flatMap((m) => [identities.get(m.id)!.key, ...identities.get(m.id)!.aliases]))];
    const inWindow = await findWindowRecipients(tx, channel.id, everyId, windowSeconds);
    // A suppressed number is refused by the local number check and never reaches the network: it needs no slot,
    // and must not wait for one (a full window would otherwise hold it until the window frees).
    const phones = [...new Set(candidates.map((m) => m.phone_number).filter((p): p is string => p !== null))];
    const userIds = [...new Set(candidates.map((m) => m.user_id).filter((u): u is string => u !== null))];
    const suppressed = candidates.length
      ? await findSuppressedRecipients(tx, candidates[0].company_id, { phones, userIds })
      : { phones: new Map<string, unknown>(), userIds: new Map<string, unknown>() };
    const isSuppressed = (m: DueMessageRow) =>
      (m.phone_number !== null && suppressed.phones.has(m.phone_number)) || (m.user_id !== null && suppressed.userIds.has(m.user_id));
    let room = limit - (await countWindowRecipients(tx, channel.id, windowSeconds));
    const reserved: string[] = [];
    const reservedFor: string[] = [];
    for (const m of candidates) {
      const { key, aliases } = identities.get(m.id)!;
      if ([key, ...aliases].some((k) => inWindow.has(k)) || isSuppressed(m)) {
        allowed.push(m);
      } else if (room > 0) {
        room -= 1;
        inWindow.add(key);
        reserved.push(key);
        reservedFor.push(m.id);
        allowed.push(m);
      } else {
        // Back with its own due time (order kept); the channel is held until the window frees a slot.
        tierLimited.push(m);
        deferred.push({ id: m.id, due_at: new Date(m.due_at).toISOString(), attempts_increment: 0 });
      }
    }
    await reserveWindowRecipients(tx, channel.id, reserved, windowSeconds, reservedFor);
    if (tierLimited.length) {
      const until = (await earliestWindowExpiry(tx, channel.id, windowSeconds)) ?? new Date(now + 1000);
      await holdChannelForTier(tx, channel.id, until);
    }
  });
  return { allowed, deferred, tierLimited, keys };
}

/** Gives back the tier slots held for these messages; a freed slot ends the channel's tier hold at once. */
export async function giveBackTierSlots(db: Kysely<Database>, channelId: string, ids: string[]): Promise<void> {
  if ((await releaseWindowSlots(db, ids)) > 0) await releaseTierHold(db, channelId);
}
