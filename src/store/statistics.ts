/** Planner statistics (SQL only; engine/statistics-refresh.ts decides when). */
import { sql, type Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Samples `messages` for the planner (`analyze`: a bounded sample of about 30,000 rows whatever the table's size,
 * and the row counts of its partial indexes). Takes no lock that blocks reads or writes.
 */
export async function analyzeMessages(db: Kysely<Database>): Promise<void> {
  await sql`analyze messages`.execute(db);
}
