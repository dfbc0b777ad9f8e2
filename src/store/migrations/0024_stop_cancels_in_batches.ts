import { sql, type Kysely } from 'kysely';

/**
 * A stop marks its bulk send STOPPED at once and cancels the rows in bounded batches behind it: `cancelling` says
 * rows are still to be cancelled (the dispatcher's maintenance goes on, also after a restart), cleared when none is.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table send_wizards add column cancelling boolean not null default false`.execute(db);
  await sql`create index send_wizards_cancelling on send_wizards (id) where cancelling`.execute(db);
}
