/** Opens the database (PGlite in a directory or in memory, or PostgreSQL) and applies migrations. */
import { AsyncLocalStorage } from 'node:async_hooks';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type MigrationResult } from 'kysely';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { MIGRATIONS } from './migrations/index.js';
import { backgroundTurns, PGliteDialect, type PoolStats } from './pglite-dialect.js';
import { preparingClient, StatementNames } from './prepared-statements.js';
import type { Database } from './schema.js';

/** An open database. */
export interface Store {
  db: Kysely<Database>;
  kind: 'pglite' | 'postgres';
  close(): Promise<void>;
  /** Connection use now (metrics): the pg pool's counts, or PGlite's one connection and its mutex queue. */
  poolStats(): PoolStats;
}

export type { PoolStats };

/**
 * Loads COPY text-format data (pieces of whole lines) with a `copy … from stdin` statement, outside any
 * transaction (its own statement: all of it or none). PostgreSQL streams the pieces on a pool connection as
 * they come (pg-copy-streams, with backpressure); PGlite reads them as one blob, under the dialect's mutex like
 * every other query, so the caller keeps each statement's data small there.
 */
type CopyIn = (statement: string, data: AsyncIterable<string>) => Promise<void>;

/** The COPY loader of each database opened here (a transaction's handle has none). */
const copiers = new WeakMap<Kysely<Database>, CopyIn>();

/**
 * Runs `work` as background work: on PGlite its statements take the one connection only when no other caller waits
 * for it (or after a short bounded wait, pglite-dialect.ts), so the requests that arrive meanwhile go first. No
 * effect on PostgreSQL, whose pool has a connection for each.
 */
export function asBackgroundWork<T>(work: () => Promise<T>): Promise<T> {
  return backgroundTurns.run(true, work);
}

/** Runs `copy … from stdin` with `data` (COPY text format: pieces of whole lines, each line ending in a newline) on `db`. */
export async function copyIn(db: Kysely<Database>, statement: string, data: AsyncIterable<string>): Promise<void> {
  const copy = copiers.get(db);
  if (!copy) throw new Error('copyIn needs a database opened by openDatabase, outside a transaction');
  if (!/ from stdin$/i.test(statement)) throw new Error('copyIn takes a `copy … from stdin` statement');
  await copy(statement, data);
}

/** Runs `work` in one transaction whose `copy` loads COPY data on the transaction's own connection. */
type TransactionWithCopy = <T>(work: (tx: Kysely<Database>, copy: CopyIn) => Promise<T>) => Promise<T>;

/** PostgreSQL databases opened here: a transaction that may also COPY (PGlite has none, see `transactionWithCopy`). */
const copyTransactions = new WeakMap<Kysely<Database>, TransactionWithCopy>();

/**
 * Runs `work` in ONE transaction in which `copy(statement, data)` loads COPY text data on the transaction's own
 * connection: the copied rows commit with the transaction's other statements, or none of them do, and no other
 * transaction sees them before. PostgreSQL only: returns undefined on PGlite, whose single connection would be
 * held (every reader blocked) for the whole load; callers keep their batch-committing path there.
 */
export function transactionWithCopy(db: Kysely<Database>): TransactionWithCopy | undefined {
  return copyTransactions.get(db);
}

/** Connections of a PostgreSQL pool. */
const POOL_SIZE = 10;
/**
 * `transactionWithCopy` transactions open at once per pool (more wait for a turn before taking a connection): each
 * holds its connection for a whole load, so without a bound ten concurrent large starts would hold every
 * connection, and the rest of the service (webhooks, the dispatcher, the start's own progress mark) would wait
 * until they all ended (test/http/concurrent-starts.test.ts).
 */
const COPY_TRANSACTIONS_AT_ONCE = POOL_SIZE / 2;

/** At most `size` tasks at once; the others wait in arrival order. */
class Semaphore {
  private free: number;
  private readonly queue: Array<() => void> = [];

  constructor(size: number) {
    this.free = size;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.queue.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.free += 1;
    }
  }
}

/** Where the data lives: a PostgreSQL URL, a PGlite directory, or PGlite in memory. */
export type DatabaseTarget =
  | { databaseUrl: string }
  | { dataDir: string }
  /** `image`: a data directory dumped by PGlite (`dumpDataDir`) to start from instead of an empty database. */
  | { memory: true; image?: Blob };

/** Thrown when a PGlite data directory is held by another live process. */
export class DataDirInUseError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `The PGlite data directory ${dir} is in use by process ${pid}. PGlite is one process's database: ` +
        'stop the service first, or use DATABASE_URL (PostgreSQL) to run commands while it serves.',
    );
    this.name = 'DataDirInUseError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Takes the directory's lock file, refusing when a live process holds it. */
function lockDataDir(dir: string): () => void {
  const lockFile = join(dir, 'tms.pid');
  if (existsSync(lockFile)) {
    const pid = Number(readFileSync(lockFile, 'utf8').trim());
    if (pid && pid !== process.pid && isAlive(pid)) throw new DataDirInUseError(dir, pid);
  }
  writeFileSync(lockFile, String(process.pid));
  return () => rmSync(lockFile, { force: true });
}

/** The longest a statement of the service may run on PostgreSQL by default (DB_STATEMENT_TIMEOUT_SECONDS). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 300_000;
/** How often PostgreSQL checks, during a long statement, that the connection's client is still there. */
const CLIENT_CHECK_INTERVAL_MS = 2000;

/**
 * Opens a database without migrating it. On PostgreSQL every connection carries a `statement_timeout` (a stuck
 * statement ends) and `client_connection_check_interval` (a statement whose process died, so its socket closed,
 * ends within seconds instead of running to its end). PGlite runs inside this process: its statements end with it,
 * and it cannot interrupt one (a statement_timeout is not enforced there).
 */
export async function openDatabase(target: DatabaseTarget, options: { statementTimeoutMs?: number } = {}): Promise<Store> {
  if ('databaseUrl' in target) {
    const timeout = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS;
    const pool = new pg.Pool({
      connectionString: target.databaseUrl,
      max: POOL_SIZE,
      options: `-c statement_timeout=${timeout} -c client_connection_check_interval=${CLIENT_CHECK_INTERVAL_MS}`,
    });
    // An idle connection that the server closes (a restart, a failover, an administrator) must not crash the
    // process: the pool drops it and the next query opens a new one.
    pool.on('error', (error) => console.error(`tms: an idle PostgreSQL connection closed: ${error.message}`));
    // The connection a `transactionWithCopy` transaction runs on (kysely hands its pool's client to the transaction).
    const acquired = new AsyncLocalStorage<{ client?: pg.PoolClient }>();
    // Kysely sees each connection through one wrapper that sends repeated statements prepared (prepared-statements.ts).
    const names = new StatementNames();
    const wrappers = new WeakMap<pg.PoolClient, ReturnType<typeof preparingClient>>();
    const dialectPool = {
      connect: async () => {
        const client = await pool.connect();
        const slot = acquired.getStore();
        if (slot && !slot.client) slot.client = client;
        let wrapper = wrappers.get(client);
        if (!wrapper) {
          wrapper = preparingClient(client, names);
          wrappers.set(client, wrapper);
        }
        return wrapper;
      },
      end: () => pool.end(),
    };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: dialectPool }) });
    const copySlots = new Semaphore(COPY_TRANSACTIONS_AT_ONCE);
    copyTransactions.set(db, (work) => {
      const slot: { client?: pg.PoolClient } = {};
      return copySlots.run(() => acquired.run(slot, () =>
        db.transaction().execute(async (tx) => {
          const client = slot.client;
          if (!client) throw new Error('transactionWithCopy: the transaction has no connection of its own');
          // A failed COPY fails the transaction: kysely rolls it back (pg-copy-streams ends a failed load with CopyFail).
          const copy: CopyIn = async (statement, data) => {
            if (!/ from stdin$/i.test(statement)) throw new Error('copy takes a `copy … from stdin` statement');
            await pipeline(Readable.from(data), client.query(copyFrom(statement)));
          };
          return work(tx, copy);
        }),
      ));
    });
    copiers.set(db, async (statement, data) => {
      const client = await pool.connect();
      try {
        await pipeline(Readable.from(data), client.query(copyFrom(statement)));
        client.release();
      } catch (error) {
        client.release(error as Error); // a connection whose COPY failed is not reused
        throw error;
      }
    });
    const poolStats = () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount });
    return { db, kind: 'postgres', close: () => db.destroy(), poolStats };
  }
  if ('memory' in target) {
    const dialect = new PGliteDialect(new PGlite(target.image ? { loadDataDir: target.image } : {}));
    const db = new Kysely<Database>({ dialect });
    copiers.set(db, (statement, data) => dialect.copyIn(statement, data));
    return { db, kind: 'pglite', close: () => db.destroy(), poolStats: () => dialect.poolStats() };
  }
  const dir = resolve(target.dataDir);
  mkdirSync(dir, { recursive: true });
  const unlock = lockDataDir(dir);
  try {
    const client = new PGlite(join(dir, 'pgdata'));
    await client.waitReady;
    const dialect = new PGliteDialect(client);
    const db = new Kysely<Database>({ dialect });
    copiers.set(db, (statement, data) => dialect.copyIn(statement, data));
    return {
      db,
      kind: 'pglite',
      poolStats: () => dialect.poolStats(),
      close: async () => {
        await db.destroy();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Applies every pending migration; returns the names applied now. On one connection without the statement timeout
 * (a migration may build an index over a large table); the connection's own timeout is restored after.
 */
export async function migrate(db: Kysely<Database>): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`set statement_timeout = 0`.execute(conn);
    try {
      return await migrateOn(conn);
    } finally {
      await sql`reset statement_timeout`.execute(conn);
    }
  });
}

async function migrateOn(db: Kysely<Database>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    migrationTableName: 'tms_migrations',
    migrationLockTableName: 'tms_migrations_lock',
    // Numbers are handed out ahead of time to parallel work (migrations/index.ts may have gaps): a database that
    // already applied a higher number still takes a lower one that lands later, instead of refusing to start.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r: MigrationResult) => r.status === 'Success').map((r) => r.migrationName);
}
