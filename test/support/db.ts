/**
 * A fresh migrated database per test file: PGlite in memory by default, or a new PostgreSQL database on
 * 127.0.0.1:5432 when TMS_TEST_DB=postgres (created here, dropped in cleanup). With TMS_TEST_DB=postgres
 * an unreachable server fails the suite: it never silently falls back.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate, openDatabase, type Store } from '../../src/store/db.js';

/** The admin URL of the test PostgreSQL server. */
export const PG_ADMIN_URL = process.env.TMS_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when the suites run on PostgreSQL. */
export const onPostgres = process.env.TMS_TEST_DB === 'postgres';

/** Creates an empty PostgreSQL database and returns its URL and a drop function. */
export async function createPgDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tms_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = PG_ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);
  return {
    url,
    drop: async () => {
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A migrated test database with a cleanup that closes (and on PostgreSQL drops) it. */
export async function createTestStore(): Promise<Store & { cleanup: () => Promise<void> }> {
  if (!onPostgres) {
    const store = await openDatabase({ memory: true });
    await migrate(store.db);
    return { ...store, cleanup: () => store.close() };
  }
  const database = await createPgDatabase();
  const store = await openDatabase({ databaseUrl: database.url });
  await migrate(store.db);
  return {
    ...store,
    cleanup: async () => {
      await store.close();
      await database.drop();
    },
  };
}
