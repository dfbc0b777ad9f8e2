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
 * The change rewrites the table and its indexes under an exclusive lock, and migrations run at every start: on a
 * table past PAYLOAD_REWRITE_MAX_ROWS that would stop every instance's sending for minutes during an upgrade. Such
 * a table keeps `jsonb` (the service reads and writes either the same way; only a start's COPY costs more) until
 * its operator runs the same statement in a maintenance window (README "Operations").
 */
export const PAYLOAD_REWRITE_MAX_ROWS = 200_000;

export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    select count(*)::int as n from (select 1 from messages limit ${PAYLOAD_REWRITE_MAX_ROWS + 1}) as counted`.execute(db);
  if (rows[0].n > PAYLOAD_REWRITE_MAX_ROWS) return;
  await sql`alter table messages alter column payload type json using payload::json`.execute(db);
}
