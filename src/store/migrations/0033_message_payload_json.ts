import { sql, type Kysely } from 'kysely';

/**
 * A message's payload (the Cloud API request body it is sent with) is stored as `json` rather than `jsonb`.
 *
 * The database never looks inside it: it is written once (a bulk start's COPY, a single send's insert, a retry's
 * copy of a failed row) and read whole by the sender, and no statement compares, groups,
 * indexes or takes a path of it. `jsonb` input builds and sorts a binary tree of every value, about a sixth of
 * the database's CPU while a bulk start's COPY stores its rows; `json` input only checks that the text is JSON
 * (invalid text is still refused). The text is kept as written (the keys in the order the service wrote them);
 * the sender parses the same values.
 *
 * On an existing database the change rewrites the table and its indexes under an exclusive lock (tens of seconds
 * per million messages): run it in a maintenance window on a large table. The stored text is smaller too.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table messages alter column payload type json using payload::json`.execute(db);
}
