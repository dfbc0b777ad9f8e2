/**
 * The gate of a channel's batch: which rows may go now and which wait. A recipient sent to within the pair gap waits
 * for it (this instance's memory of its last sends); on a tiered channel each new recipient takes a slot of the
 * moving tier window (reserved under the window lock), and a full window holds the channel until its earliest
 * expiry. A suppressed number needs no slot: the number check refuses it.
 */
import type { Kysely } from 'kysely';
import { tierLimit } from '../domain/channel.js';
import type { ChannelRow } from '../store/channels.js';
import type { MessageRow } from '../store/message-inserts.js';
import { findSuppressed } from '../store/opt-outs.js';
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
import type { PairRateMemory } from './pair-rate-memory.js';

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

/** The gate's split of a batch: rows that go now, rows put off (pair rate and tier window), and the tier-limited ones among them. */
export interface GateResult {
  allowed: MessageRow[];
  deferred: DeferredRow[];
  tierLimited: MessageRow[];
}

/** Splits a batch into what may go now and what waits (tier quota, pair rate). */
export async function gateBatch(deps: GateDeps, channel: ChannelRow, rows: MessageRow[]): Promise<GateResult> {
  const { db } = deps;
  const now = Date.now();
  const allowed: MessageRow[] = [];
  const deferred: DeferredRow[] = [];
  const tierLimited: MessageRow[] = [];
  const seenInBatch = new Map<string, number>();
  const candidates: MessageRow[] = [];
  for (const m of rows) {
    const last = Math.max(deps.lastSentTo.get(m.phone_number) ?? 0, seenInBatch.get(m.phone_number) ?? 0);
    if (last && now - last < deps.pairGapMs) {
      deferred.push({ id: m.id, due_at: new Date(last + deps.pairGapMs).toISOString(), attempts_increment: 0 });
      seenInBatch.set(m.phone_number, last + deps.pairGapMs);
      continue;
    }
    seenInBatch.set(m.phone_number, now);
    candidates.push(m);
  }
  const limit = tierLimit(channel.messaging_limit_tier);
  if (limit === null) return { allowed: candidates, deferred, tierLimited };
  const windowSeconds = deps.tierWindowMs / 1000;
  await db.transaction().execute(async (tx) => {
    await lockChannel(tx, channel.id);
    const numbers = [...new Set(candidates.map((m) => m.phone_number))];
    const inWindow = await findWindowRecipients(tx, channel.id, numbers, windowSeconds);
    // A suppressed number is refused by the local number check and never reaches the network: it needs no slot,
    // and must not wait for one (a full window would otherwise hold it until the window frees).
    const suppressed = candidates.length ? await findSuppressed(tx, candidates[0].company_id, numbers) : new Map<string, unknown>();
    let room = limit - (await countWindowRecipients(tx, channel.id, windowSeconds));
    const reserved: string[] = [];
    const reservedFor: string[] = [];
    for (const m of candidates) {
      if (inWindow.has(m.phone_number) || suppressed.has(m.phone_number)) {
        allowed.push(m);
      } else if (room > 0) {
        room -= 1;
        inWindow.add(m.phone_number);
        reserved.push(m.phone_number);
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
  return { allowed, deferred, tierLimited };
}

/** Gives back the tier slots held for these messages; a freed slot ends the channel's tier hold at once. */
export async function giveBackTierSlots(db: Kysely<Database>, channelId: string, ids: string[]): Promise<void> {
  if ((await releaseWindowSlots(db, ids)) > 0) await releaseTierHold(db, channelId);
}
