/**
 * SQL of the bulk sends' cost counters (migration 0020): billable messages per bulk send, pricing category and market
 * (`''` = unknown), added in the transaction of each status batch so a report reads a few rows per bulk send.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

type Db = Kysely<Database>;

/** A change of one counter. */
export interface CostDelta {
  send_wizard_id: string;
  category: string;
  market: string;
  delta: number;
}

/**
 * Adds the deltas in key order (lock order, README: after the message rows and the bulk sends, these rows last, in
 * (bulk send, category, market) order, so two batches never wait for each other in a circle).
 */
export async function addBulkSendCosts(db: Db, deltas: CostDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  await sql`
    insert into bulk_send_costs (send_wizard_id, category, market, billable_count)
    select send_wizard_id, category, market, delta
    from jsonb_to_recordset(${JSON.stringify(deltas)}::jsonb) as d(send_wizard_id text, category text, market text, delta bigint)
    order by send_wizard_id, category, market
    on conflict (send_wizard_id, category, market) do update set billable_count = bulk_send_costs.billable_count + excluded.billable_count`.execute(db);
}

/** The cost counters of these bulk sends (rows with a zero count left out). */
export async function listBulkSendCosts(db: Db, bulkSendIds: string[]): Promise<Array<{ send_wizard_id: string; category: string; market: string; billable_count: number }>> {
  if (bulkSendIds.length === 0) return [];
  const result = await sql<{ send_wizard_id: string; category: string; market: string; billable_count: string }>`
    select send_wizard_id, category, market, billable_count::text from bulk_send_costs
    where send_wizard_id = any(${bulkSendIds}::text[]) and billable_count <> 0`.execute(db);
  return result.rows.map((r) => ({ ...r, billable_count: Number(r.billable_count) }));
}
