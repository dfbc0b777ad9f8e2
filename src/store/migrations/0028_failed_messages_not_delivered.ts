import { sql, type Kysely } from 'kysely';

/**
 * A message the network reported `failed` is never delivered or read after it (domain/message-states.ts,
 * timeFieldAfterEvent); messages that took delivered or seen times from events after their failure lose them, so
 * every record follows the rule. Status and counters are unchanged (those events never moved them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update messages set delivered_time = null, seen_time = null
    where status = 'BACKEND_FAILED' and (delivered_time is not null or seen_time is not null)`.execute(db);
}
