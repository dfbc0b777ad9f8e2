import { sql, type Kysely } from 'kysely';

/**
 * Items of signed webhook bodies (statuses, inbound messages) that cannot be applied — not an object, no usable id,
 * a timestamp no date holds, a NUL character — set apart with their reason, while the items beside them are applied.
 * `item` is the item as JSON text (NUL written as `\u0000`, so any item can be kept), cut at 8 KB.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table webhook_rejected_items (
      id bigserial primary key,
      received_at timestamptz not null default now(),
      field text not null,
      phone_number_id text,
      reason text not null,
      item text not null
    )`.execute(db);
  await sql`create index webhook_rejected_items_by_time on webhook_rejected_items (received_at)`.execute(db);
}
