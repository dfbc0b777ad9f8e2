/** Keeps bulk-send counters exact: every move's (old, new) pairs become counter deltas in the same transaction. */
import type { Kysely } from 'kysely';
import { countryOfRecipient } from '../domain/countries.js';
import { WITHHELD_STATUSES } from '../domain/bulk-send-states.js';
import { counterDeltaEntries, type Counter } from '../domain/message-states.js';
import { isBilled } from '../domain/pricing/rate-card.js';
import { addBulkSendCosts, type CostDelta } from '../store/bulk-send-costs.js';
import type { EventMovedRow } from '../store/message-status-events.js';
import { lockMessageRows, type MovedRow } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { addBulkSendCounters, addCountersOfBulkSends } from '../store/bulk-sends.js';

/** Sums the counter deltas of moved rows per bulk send. */
export function deltasByBulkSend(moved: MovedRow[]): Map<string, Partial<Record<Counter, number>>> {
  const byBulkSend = new Map<string, Partial<Record<Counter, number>>>();
  for (const row of moved) {
    if (!row.send_wizard_id) continue;
    const delta = counterDeltaEntries(row.old_status, row.old_rank, row.status, row.reached_rank);
    let total = byBulkSend.get(row.send_wizard_id);
    if (total === undefined) {
      total = {};
      byBulkSend.set(row.send_wizard_id, total);
    }
    const n = row.n ?? 1;
    for (const [key, value] of delta) total[key] = (total[key] ?? 0) + value * n;
  }
  return byBulkSend;
}

/** Runs a move and its counter updates in one transaction. */
export async function moveWithCounters<T extends MovedRow>(db: Kysely<Database>, move: (tx: Kysely<Database>) => Promise<T[]>): Promise<T[]> {
  return db.transaction().execute(async (tx) => {
    const moved = await move(tx);
    await applyCounterMoves(tx, moved);
    return moved;
  });
}

/**
 * Applies moved rows to their bulk sends' counters (bulk sends locked in id order, so concurrent batches never
 * deadlock). One bulk send (a claim, an outcome flush) is its own short update by key; several (a status batch of
 * several channels' bodies) are one statement, not one round trip each inside the caller's transaction.
 * Returns each changed bulk send's status after its update.
 */
export async function applyCounterMoves(db: Kysely<Database>, moved: MovedRow[]): Promise<Map<string, string>> {
  const byBulkSend = deltasByBulkSend(moved);
  if (byBulkSend.size > 1) return addCountersOfBulkSends(db, byBulkSend);
  const statuses = new Map<string, string>();
  for (const [bulkSendId, delta] of byBulkSend) {
    const status = await addBulkSendCounters(db, bulkSendId, delta);
    if (status !== undefined) statuses.set(bulkSendId, status);
  }
  return statuses;
}

/**
 * Lock order (src/store/README.md): a move made of several statements (an outcome flush, number checks with
 * retries) first locks all its rows in one statement in id order; a single statement orders its own locks.
 */
export async function lockRowsOfMoves(db: Kysely<Database>, groups: Array<Array<{ id: string }>>): Promise<void> {
  if (groups.filter((g) => g.length > 0).length > 1) await lockMessageRows(db, groups.flatMap((g) => g.map((r) => r.id)));
}

/**
 * The cost-counter changes of status moves: a bulk-send row counts once it is billed (billable pricing and on the
 * phone), under its pricing category and market (the recipient's country from its phone number, else its BSUID's
 * prefix; '' when unknown), and moves when a later
 * status changes its pricing.
 */
export function costDeltasOf(moved: EventMovedRow[]): CostDelta[] {
  const sums = new Map<string, CostDelta>();
  const add = (bulkSend: string, category: string, market: string, delta: number) => {
    const key = `${bulkSend}\u0000${category}\u0000${market}`;
    const d = sums.get(key);
    if (d) d.delta += delta;
    else sums.set(key, { send_wizard_id: bulkSend, category, market, delta });
  };
  for (const row of moved) {
    if (!row.send_wizard_id) continue;
    const market = countryOfRecipient({ phone: row.phone_number, userId: row.user_id }) ?? '';
    if (row.old_pricing_category !== null && isBilled(row.old_pricing_billable, row.old_rank)) add(row.send_wizard_id, row.old_pricing_category, market, -1);
    if (row.pricing_category !== null && isBilled(row.pricing_billable, row.reached_rank)) add(row.send_wizard_id, row.pricing_category, market, 1);
  }
  return [...sums.values()].filter((d) => d.delta !== 0);
}

/** Applies status moves to the bulk sends' cost counters (after their state counters: lock order, store README). */
export async function applyCostMoves(db: Kysely<Database>, moved: EventMovedRow[]): Promise<void> {
  await addBulkSendCosts(db, costDeltasOf(moved));
}

/** A stop or a user pause committed while a move recorded send attempts of its bulk send. */
class WithheldMeanwhile extends Error {}

/**
 * Runs a move that records send attempts (a claim, number checks) and its counter updates in one transaction.
 * The move's statement may have read a bulk send before a stop or a user pause of it committed; the counter update
 * waits for that commit and returns the new status. An attempted row of such a bulk send must never reach the
 * network, so then everything is rolled back and null returned (the rows are withdrawn by the next round).
 */
export async function recordAttemptsWithCounters<T extends MovedRow & { attempted: boolean }>(
  db: Kysely<Database>,
  move: (tx: Kysely<Database>) => Promise<{ attempts: T[]; withdrawn?: MovedRow[] }>,
): Promise<{ attempts: T[]; withdrawn: MovedRow[] } | null> {
  try {
    return await db.transaction().execute(async (tx) => {
      const { attempts, withdrawn = [] } = await move(tx);
      const statuses = await applyCounterMoves(tx, [...attempts, ...withdrawn]);
      const withheld = (id: string | null) => id !== null && (WITHHELD_STATUSES as readonly string[]).includes(statuses.get(id) ?? '');
      if (attempts.some((m) => m.attempted && withheld(m.send_wizard_id))) throw new WithheldMeanwhile();
      return { attempts, withdrawn };
    });
  } catch (error) {
    if (error instanceof WithheldMeanwhile) return null;
    throw error;
  }
}
