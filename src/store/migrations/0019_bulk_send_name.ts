import { sql, type Kysely } from 'kysely';

/** A bulk send's own optional name (`send_name`), beside the template name it already stores. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table send_wizards add column send_name text`.execute(db);
}
