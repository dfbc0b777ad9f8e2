import { sql, type Kysely } from 'kysely';

/**
 * Rows a bulk start left out because they were invalid (`skip_invalid_rows`): counted on the bulk send
 * (`skipped_count`) and listed here in the request's order (`position`, 1-based) with the row's number as the
 * client knows it (`row_no`: its place in the start's rows, startv2's row-number cell, a file's sheet row), its phone
 * as given and its problems, so the report shows them. They go with their bulk send.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table send_wizards add column skipped_count integer not null default 0`.execute(db);
  await sql`
    create table bulk_send_skipped_rows (
      send_wizard_id text not null references send_wizards(id) on delete cascade,
      position integer not null,
      row_no bigint not null,
      row_ref bigint,
      phone_number text,
      field text,
      message text not null,
      primary key (send_wizard_id, position)
    )`.execute(db);
}
