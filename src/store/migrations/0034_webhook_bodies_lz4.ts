import { sql, type Kysely } from 'kysely';

/**
 * Stored webhook bodies are compressed with lz4 where the server offers it, not pglz (PostgreSQL's default).
 *
 * A body over ~2 kB is compressed when it is stored and decompressed when the inbox reads it back to apply it, and
 * Graph's bodies are several kilobytes (a batch of statuses with their contacts): pglz spends about twice lz4's CPU
 * compressing them and twice decompressing, for the same size. Only values stored after the change are lz4; older
 * ones stay readable as they are (no rewrite, no lock beyond the catalog change). A server built without lz4 (and
 * PGlite, whose build has only pglz) lists only `pglz` among `default_toast_compression`'s values and keeps it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!(await serverOffersLz4(db))) return;
  await sql`alter table webhook_events alter column body set compression lz4`.execute(db);
}

/** Whether the server can compress with lz4: it lists `lz4` among `default_toast_compression`'s values. */
export async function serverOffersLz4<DB>(db: Kysely<DB>): Promise<boolean> {
  const { rows } = await sql<{ lz4: boolean }>`
    select coalesce(bool_or('lz4' = any(enumvals)), false) as lz4 from pg_settings where name = 'default_toast_compression'`.execute(db);
  return rows[0]?.lz4 ?? false;
}
