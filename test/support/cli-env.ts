/**
 * The environment the CLI tests run `tms` in: a fresh PostgreSQL database when TMS_TEST_DB=postgres, or a PGlite
 * data directory in a temp folder, with the caller's DATABASE_URL removed and logs silenced.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPgDatabase, onPostgres } from './db.js';

/** The `tms` entry point. */
export const TMS_BIN = new URL('../../bin/tms.mjs', import.meta.url).pathname;

/** Opens the store a CLI test runs against; `cleanup` drops the database or removes the folder. */
export async function openCliEnv(tempPrefix: string): Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }> {
  const base = { ...process.env, LOG_LEVEL: 'silent' } as Record<string, string>;
  delete base.DATABASE_URL;
  if (onPostgres) {
    const database = await createPgDatabase();
    return { env: { ...base, DATABASE_URL: database.url }, cleanup: database.drop };
  }
  const dir = mkdtempSync(join(tmpdir(), tempPrefix));
  return { env: { ...base, DATA_DIR: dir }, cleanup: async () => rmSync(dir, { recursive: true, force: true }) };
}
