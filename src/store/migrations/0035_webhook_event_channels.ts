import { sql, type Kysely } from 'kysely';

/**
 * A stored webhook body records the one channel (phone number id) its changes concern, null when they name none or
 * several. The inbox applies a backlog in lanes, each taking the bodies of its share of the channels, so the
 * transactions of two lanes never touch the same messages or bulk sends. Nullable without a default: adding it
 * rewrites no row, and bodies stored before it are applied by the lane that takes bodies without a channel.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_events add column phone_number_id text`.execute(db);
}
