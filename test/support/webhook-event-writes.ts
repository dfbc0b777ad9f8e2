/**
 * Whether a stored webhook body was applied in the transaction that stored it (its row written once, already
 * APPLIED) or stored first and applied later by the drain (the row updated). A trigger the test installs records every
 * update of a `webhook_events` row: the rows' own times cannot tell, because on PGlite `now()` has millisecond
 * resolution, so a body stored and drained within one millisecond had `applied_at = received_at`.
 */
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../src/store/schema.js';

/** Installs the trigger that records updates of `webhook_events` rows (once per test database). */
export async function recordWebhookEventUpdates(db: Kysely<Database>): Promise<void> {
  await sql`create table test_webhook_event_updates (id bigint not null)`.execute(db);
  await sql`create function test_record_webhook_event_update() returns trigger language plpgsql as $fn$
    begin insert into test_webhook_event_updates (id) values (new.id); return new; end $fn$`.execute(db);
  await sql`create trigger test_webhook_event_updates after update on webhook_events
    for each row execute function test_record_webhook_event_update()`.execute(db);
}

/** A stored body's state, attempts, and whether it was applied on receipt (its row never updated). */
export async function webhookEventWrites(db: Kysely<Database>, id: string) {
  const result = await sql<{ state: string; attempts: number; on_receipt: boolean }>`
    select state, attempts, not exists (select 1 from test_webhook_event_updates u where u.id = e.id) as on_receipt
    from webhook_events e where id = ${id}`.execute(db);
  return result.rows[0];
}
