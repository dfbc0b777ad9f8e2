/**
 * A fresh migrated database per test file: PGlite in memory by default, or a new PostgreSQL database on
 * 127.0.0.1:5432 when TMS_TEST_DB=postgres (created here, dropped in cleanup). With TMS_TEST_DB=postgres
 * an unreachable server fails the suite: it never silently falls back.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
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

/**
 * Creates a PostgreSQL database and returns its URL and a drop function: empty, or with `migrated` a copy of the
 * migrated template (`CREATE DATABASE … TEMPLATE`, a file copy on the server instead of 33 migrations run over the
 * wire for every test file).
 */
export async function createPgDatabase(options: { migrated?: boolean } = {}): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `tms_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const template = options.migrated ? await migratedPgTemplate() : undefined;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  } finally {
    await admin.end();
  }
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
let pgTemplate: Promise<string> | undefined;
let dataDirCopy: Promise<string> | undefined;

/** A hash of PGlite's version and of every migration file: a changed or new migration makes new images. */
function migrationSetHash(): string {
  const hash = createHash('sha256').update(readFileSync(new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url)));
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) hash.update(name).update(readFileSync(new URL(name, MIGRATIONS_DIR)));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The name of a migrated empty PostgreSQL database that test databases are copied from, made once per migration set
 * on the server (`tms_template_<hash>`; an old one can be dropped at any time, it is made again when needed). Made
 * under an advisory lock so two test files starting together make it once, migrated under another name and renamed
 * when complete, and never connected to afterwards: PostgreSQL copies a template only while nobody is connected.
 */
function migratedPgTemplate(): Promise<string> {
  pgTemplate ??= (async () => {
    const name = `tms_template_${migrationSetHash()}`;
    const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
    await admin.connect();
    try {
      await admin.query('select pg_advisory_lock(hashtext($1))', [name]);
      const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
      if (found.rowCount === 0) {
        const building = `${name}_${process.pid}`;
        await admin.query(`drop database if exists ${building}`);
        await admin.query(`create database ${building}`);
        const store = await openDatabase({ databaseUrl: PG_ADMIN_URL.replace(/\/[^/]*$/, `/${building}`) });
        try {
          await migrate(store.db);
        } finally {
          await store.close();
        }
        await admin.query(`alter database ${building} rename to ${name}`);
        // A template and nothing else: it takes no connection (none would be left open to block a copy). To drop
        // it: `alter database … is_template false` first.
        await admin.query(`alter database ${name} with is_template true allow_connections false`);
      }
      await admin.query('select pg_advisory_unlock(hashtext($1))', [name]);
    } finally {
      await admin.end();
    }
    return name;
  })();
  return pgTemplate;
}

/**
 * A migrated PGlite data directory (the image below, loaded once into `$TMPDIR/tms-test-pglite-<hash>.pgdata`), for
 * the tests whose `tms` processes open a DATA_DIR: `seedDataDir` copies it in, so their first process opens a
 * database instead of running initdb and the migrations in WebAssembly.
 */
function migratedDataDir(): Promise<string> {
  dataDirCopy ??= (async () => {
    const dir = join(tmpdir(), `tms-test-pglite-${migrationSetHash()}.pgdata`);
    if (existsSync(join(dir, 'PG_VERSION'))) return dir;
    // Made aside and renamed: a test file copying it at the same time sees the whole folder or none.
    const partial = `${dir}.${process.pid}.partial`;
    rmSync(partial, { recursive: true, force: true });
    const client = new PGlite(partial, { loadDataDir: await migratedImage() });
    await client.waitReady;
    await client.close();
    try {
      renameSync(partial, dir);
    } catch (error) {
      // Another test file renamed its copy first: use that one.
      rmSync(partial, { recursive: true, force: true });
      if (!existsSync(join(dir, 'PG_VERSION'))) throw error;
    }
    return dir;
  })();
  return dataDirCopy;
}

/** Puts a migrated PGlite database into the service data directory `dataDir` (as `dataDir/pgdata`, where the service opens it). */
export async function seedDataDir(dataDir: string): Promise<void> {
  const source = await migratedDataDir();
  mkdirSync(dataDir, { recursive: true });
  cpSync(source, join(dataDir, 'pgdata'), { recursive: true });
}

/**
 * The migrated empty PGlite database as a dumped data directory, made once per migration set and kept in the temp
 * folder: an empty in-memory PGlite runs initdb (in WebAssembly) and then the migrations, seconds of CPU for every
 * test file, where loading the dump costs a fraction. The name holds a hash of PGlite's version and of every
 * migration file, so a changed migration makes a new image.
 */
function migratedImage(): Promise<Blob> {
  image ??= (async () => {
    const file = join(tmpdir(), `tms-test-pglite-${migrationSetHash()}.tar.gz`);
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
 * A migrated test database with a cleanup that closes (and on PostgreSQL drops) it: PGlite loaded from the image,
 * or a PostgreSQL database copied from the migrated template. `fromEmpty` migrates an empty database instead (the
 * migration tests).
 */
export async function createTestStore(options: { fromEmpty?: boolean } = {}): Promise<Store & { cleanup: () => Promise<void> }> {
  if (!onPostgres) {
    const store = await openDatabase(options.fromEmpty ? { memory: true } : { memory: true, image: await migratedImage() });
    await migrate(store.db); // nothing to apply: it checks the image is current
    return { ...store, cleanup: () => store.close() };
  }
  const database = await createPgDatabase({ migrated: !options.fromEmpty });
  const store = await openDatabase({ databaseUrl: database.url });
  await migrate(store.db); // from the template: nothing to apply, it checks the copy is current
  return {
    ...store,
    cleanup: async () => {
      await store.close();
      await database.drop();
    },
  };
}
