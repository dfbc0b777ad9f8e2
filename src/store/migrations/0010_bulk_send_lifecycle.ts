import { sql, type Kysely } from 'kysely';

/**
 * Bulk-send lifecycle: a bulk send may be SCHEDULED (`scheduled_at`), paused by its user
 * (PAUSED_BY_USER, `user_paused_at`), and made from another's failed rows (`retry_of`). Rows that wait (NONE) get
 * their due time when they are queued, spread from `spread_from` over `spread_seconds` by row number from
 * `spread_first_row` (set when a schedule activates and when a user resumes); `window_ends_at` is the end of the
 * total_time window, which a user pause holds still.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table send_wizards
      add column scheduled_at timestamptz,
      add column window_ends_at timestamptz,
      add column spread_from timestamptz,
      add column spread_seconds double precision,
      add column spread_first_row integer,
      add column user_paused_at timestamptz,
      add column retry_of text references send_wizards(id)`.execute(db);
  await sql`create index send_wizards_scheduled on send_wizards (scheduled_at) where status = 'SCHEDULED'`.execute(db);
}
