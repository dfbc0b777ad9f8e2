/**
 * A fresh migrated database per test file: PGlite in memory by default, or a new PostgreSQL database on
 * 127.0.0.1:5432 when TMS_TEST_DB=postgres (created here, dropped in cleanup). With TMS_TEST_DB=postgres
 * an unreachable server fails the suite: it never silently falls back.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import pg from 'pg';
import { migrate, openDatabase, type Store } from '../../src/store/db.js';
import { PGliteDialect } from '../../src/store/pglite-dialect.js';
import type { Database } from '../../src/store/schema.js';

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

const MIGRATIONS_DIR = new URL('../../src/store/migrations/', import.meta.url);
let image: Promise<Blob> | undefined;

/**
 * The migrated empty PGlite database as a dumped data directory, made once per migration set and kept in the temp
 * folder: an empty in-memory PGlite runs initdb (in WebAssembly) and then the migrations, seconds of CPU for every
 * test file, where loading the dump costs a fraction. The name holds a hash of PGlite's version and of every
 * migration file, so a changed migration makes a new image.
 */
function migratedImage(): Promise<Blob> {
  image ??= (async () => {
    const hash = createHash('sha256').update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
    for (const name of readdirSync(MIGRATIONS_DIR).sort()) hash.update(name).update(readFileSync(new URL(name, MIGRATIONS_DIR)));
    const file = join(tmpdir(), `tms-test-pglite-${hash.digest('hex').slice(0, 16)}.tar.gz`);
    try {
      return new Blob([readFileSync(file)]);
    } catch {
      const client = new PGlite();
      const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
      await migrate(db);
      const dump = await client.dumpDataDir('gzip');
      await db.destroy();
      // Written aside and renamed: a test file reading it at the same time sees the whole file or none.
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
      renameSync(partial, file);
      return dump;
    }
  })();
  return image;
}

/**
 * A migrated test database with a cleanup that closes (and on PostgreSQL drops) it. `fromEmpty` migrates an empty
 * PGlite instead of loading the image (the migration tests); on PostgreSQL every database starts empty.
 */
export async function createTestStore(options: { fromEmpty?: boolean } = {}): Promise<Store & { cleanup: () => Promise<void> }> {
  if (!onPostgres) {
    const store = await openDatabase(options.fromEmpty ? { memory: true } : { memory: true, image: await migratedImage() });
    await migrate(store.db); // nothing to apply: it checks the image is current
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
