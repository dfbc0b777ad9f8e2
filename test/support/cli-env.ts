/**
 * The environment the CLI tests run `tms` in: a fresh PostgreSQL database when TMS_TEST_DB=postgres, or a PGlite
 * data directory in a temp folder, with the caller's DATABASE_URL removed and logs silenced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgDatabase, onPostgres, seedDataDir } from './db.js';

/** The `tms` entry point. */
export const TMS_BIN = new URL('../../bin/tms.mjs', import.meta.url).pathname;

/**
 * Opens the store a CLI test runs against; `cleanup` drops the database or removes the folder. Empty (the first
 * command migrates it), or with `migrated` already migrated (test/support/db.ts), when the file tests other commands.
 */
export async function openCliEnv(tempPrefix: string, options: { migrated?: boolean } = {}): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const base = { ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>;
  delete base.DATABASE_URL;
  if (onPostgres) {
    const database = await createPgDatabase(options);
    return { env: { ...base, DATABASE_URL: database.url }, cleanup: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), tempPrefix));
  if (options.migrated) await seedDataDir(dir);
  return { env: { ...base, DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}
