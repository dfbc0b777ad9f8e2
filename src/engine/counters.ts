/** Keeps bulk-send counters exact: every move's (old, new) pairs become counter deltas in the same transaction. */
import type { Kysely } from 'kysely';
import { counterDelta, type Counter } from '../domain/message-states.js';
import { lockMessageRows, type MovedRow } from '../store/message-moves.js';
import type { Database } from '../store/schema.js';
import { addWizardCounters } from '../store/send-wizards.js';

/** Sums the counter deltas of moved rows per bulk send. */
export function deltasByWizard(moved: MovedRow[]): Map<string, Partial<Record<Counter, number>>> {
  const byWizard = new Map<string, Partial<Record<Counter, number>>>();
  for (const row of moved) {
    if (!row.send_wizard_id) continue;
    const delta = counterDelta(row.old_status, row.old_rank, row.status, row.reached_rank);
    const total = byWizard.get(row.send_wizard_id) ?? {};
    const n = row.n ?? 1;
    for (const [key, value] of Object.entries(delta) as Array<[Counter, number]>) total[key] = (total[key] ?? 0) + value * n;
    byWizard.set(row.send_wizard_id, total);
  }
  return byWizard;
}

/** Runs a move and its counter updates in one transaction. */
export async function moveWithCounters<T extends MovedRow>(db: Kysely<Database>, move: (tx: Kysely<Database>) => Promise<T[]>): Promise<T[]> {
  return db.transaction().execute(async (tx) => {
    const moved = await move(tx);
    await applyCounterMoves(tx, moved);
    return moved;
  });
}

/** Applies moved rows to their bulk sends' counters (wizards in id order, so concurrent batches never deadlock). */
export async function applyCounterMoves(db: Kysely<Database>, moved: MovedRow[]): Promise<void> {
  const byWizard = deltasByWizard(moved);
  for (const wizardId of [...byWizard.keys()].sort()) await addWizardCounters(db, wizardId, byWizard.get(wizardId)!);
}

/**
 * Lock order (src/store/README.md): a move made of several statements (an outcome flush, number checks with
 * retries) first locks all its rows in one statement in id order; a single statement orders its own locks.
 */
export async function lockRowsOfMoves(db: Kysely<Database>, groups: Array<Array<{ id: string }>>): Promise<void> {
  if (groups.filter((g) => g.length > 0).length > 1) await lockMessageRows(db, groups.flatMap((g) => g.map((r) => r.id)));
}
