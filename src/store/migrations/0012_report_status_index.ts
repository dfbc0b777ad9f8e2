import { sql, type Kysely } from 'kysely';

/**
 * Report detail by status (beyond the interface): `reports/detail` with `status`, and its export, read a bulk
 * send's rows in one status in row order and count them. Without this index both walk every row of the
 * bulk send; with it the count and the page's row numbers come from the index alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index messages_wizard_status on messages (send_wizard_id, status, row_no) where send_wizard_id is not null`.execute(db);
}
