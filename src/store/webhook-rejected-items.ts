/** Items of signed webhook bodies set apart because they cannot be applied (domain/webhook-items.ts), with why. */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** An item set apart. */
export interface RejectedItem {
  field: 'statuses' | 'messages';
  phoneNumberId: string | null;
  reason: string;
  item: unknown;
}

/** The item as JSON text (NUL written as \u0000 by JSON.stringify), at most 8 KB. */
function itemText(item: unknown): string {
  return (JSON.stringify(item) ?? String(item)).slice(0, 8192);
}

/** Keeps the items (in the transaction that applies the items beside them). */
export async function insertRejectedItems(db: Db, items: RejectedItem[]): Promise<void> {
  if (items.length === 0) return;
  await db
    .insertInto('webhook_rejected_items')
    .values(items.map((i) => ({ field: i.field, phone_number_id: i.phoneNumberId, reason: i.reason.slice(0, 500), item: itemText(i.item) })))
    .execute();
}

/** How many items are kept (for /health). */
export async function countRejectedItems(db: Db): Promise<number> {
  const row = await db.selectFrom('webhook_rejected_items').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The latest items kept, newest first. */
export async function listRejectedItems(db: Db, limit: number): Promise<Array<{ id: string; received_at: Date; field: string; phone_number_id: string | null; reason: string; item: string }>> {
  return db.selectFrom('webhook_rejected_items').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** Deletes items older than the webhook retention, at most `limit`; returns how many. */
export async function deleteOldRejectedItems(db: Db, olderThanSeconds: number, limit: number): Promise<number> {
  const result = await sql`
    delete from webhook_rejected_items where id in (
      select id from webhook_rejected_items where received_at < now() - make_interval(secs => ${olderThanSeconds})
      order by received_at limit ${limit})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
