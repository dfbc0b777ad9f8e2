import { sql, type Kysely } from 'kysely';

/**
 * Instances that share the database register here with a heartbeat, so each dispatcher knows how many are alive
 * and sends for its fair share of the channels with due work (src/domain/channel-share.ts). A row whose
 * `seen_until` passed belongs to a dead (or stopped) instance and no longer counts.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table dispatcher_instances (
      owner text primary key,
      seen_until timestamptz not null
    )`.execute(db);
}
