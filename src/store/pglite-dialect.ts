/**
 * A Kysely dialect for PGlite. PGlite is one connection in one process, so every query and every
 * transaction takes a mutex: a transaction holds the connection from BEGIN to COMMIT/ROLLBACK and nothing
 * else interleaves with it (kysely-pglite does not do this and loses writes when a transaction rolls back).
 *
 * PGlite runs its statements on this thread, and a statement's answer settles in microtasks only: a caller running
 * statements back to back (a maintenance loop with a time budget) would keep the event loop from reading any request
 * until it stopped, however short each statement. The mutex therefore grants the connection in the event loop's next
 * turn: a request that arrived meanwhile is read and queues behind the statement already asked for, not the loop.
 * Background work (db.ts `asBackgroundWork`: queueing a start's stored rows) lets the other callers waiting go first,
 * for a bounded time, so a read of several statements waits for one background transaction, not one per statement.
 *
 * PGlite's `query` parses and plans every statement anew and enters the database six times for it (parse, describe,
 * bind, describe, execute, sync). A text that keeps coming back is prepared once instead (from its third use, like the
 * PostgreSQL pool's statements: prepared-statements.ts) and then run by one entry (bind, describe, execute, sync):
 * on this one thread, the parse and the plan of the long status and hand-off statements were a large share of each
 * call. After five runs PostgreSQL may keep a generic plan (`plan_cache_mode = auto`); the statements that run on
 * every batch have their generic plans checked too (test/store/plans-without-statistics.test.ts).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { parse as protocolResults, protocol, type PGlite, type Results } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
// The limits of the PostgreSQL pool's prepared statements hold here too (one connection: its limit is the database's).
import { MAX_TEXT, PREPARE_FROM_USE, PREPARED_PER_CONNECTION, RESULT_TYPE_CHANGED, TRACKED_TEXTS } from './prepared-statements.js';

/**
 * Statements run inside `backgroundTurns.run(true, …)` are background work (db.ts `asBackgroundWork`): they take the
 * connection only when no other caller waits for it, or once they have waited BACKGROUND_WAIT_MAX_MS.
 */
export const backgroundTurns = new AsyncLocalStorage<boolean>();

/**
 * The longest a background caller lets other callers go first: long enough for a report read's few statements
 * (milliseconds each), short enough that background work (queueing a start's rows, which delays its sending) keeps
 * a good share of the connection however many requests keep asking.
 */
export const BACKGROUND_WAIT_MAX_MS = 25;

/** A caller waiting for the lock. */
interface Waiter {
  grant: () => void;
  background: boolean;
  since: number;
}

/**
 * A mutex that counts its holder and waiters (the metrics' pool gauges). Each grant waits for the event loop's next
 * turn (module comment). Callers are served in arrival order, except that a background caller lets every other
 * caller waiting go first, up to BACKGROUND_WAIT_MAX_MS: a report read of several statements then waits for at
 * most one background transaction, not for one before each of its statements.
 */
class Mutex {
  private held = false;
  private granting = false;
  private readonly waiters: Waiter[] = [];
  /** Callers that asked for the lock and have not released it (the holder and the waiters). */
  pending = 0;

  /** Waits for the lock and returns its release function. */
  lock(background = false): Promise<() => void> {
    this.pending += 1;
    return new Promise((resolve) => {
      let released = false;
      const releaseOnce = () => {
        if (released) return;
        released = true;
        this.pending -= 1;
        this.held = false;
        this.grantNext();
      };
      this.waiters.push({ grant: () => resolve(releaseOnce), background, since: performance.now() });
      this.grantNext();
    });
  }

  /**
   * Grants the lock to the next waiter, if it is free, in the event loop's next turn (after the I/O ready now, such
   * as requests that arrived, has been read: their statements wait among the others).
   */
  private grantNext(): void {
    if (this.held || this.granting || this.waiters.length === 0) return;
    this.granting = true;
    setImmediate(() => {
      this.granting = false;
      if (this.held || this.waiters.length === 0) return;
      const first = this.waiters[0];
      const waitedLong = first.background && performance.now() - first.since >= BACKGROUND_WAIT_MAX_MS;
      const other = waitedLong ? -1 : this.waiters.findIndex((w) => !w.background);
      const [next] = this.waiters.splice(other === -1 ? 0 : other, 1);
      this.held = true;
      next.grant();
    });
  }
}

/** Use of a database's connections: open, idle, and callers waiting for one. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}


/** A prepared statement: its name and its parameters' type ids (each value is written as its type's text). */
interface Prepared {
  name: string;
  types: number[];
}

/** Protocol messages as one buffer (one entry into the database). */
function joined(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

class PGliteConnection implements DatabaseConnection {
  private readonly uses = new Map<string, number>();
  private readonly prepared = new Map<string, Prepared>();
  private named = 0;

  constructor(private readonly pg: PGlite) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const params = query.parameters as unknown[];
    const statement = params.length > 0 ? await this.preparedFor(query.sql) : undefined;
    const result = statement ? await this.runPrepared<R>(statement, params) : await this.pg.query<R>(query.sql, params, { rowMode: 'object' });
    const affected = result.affectedRows;
    return {
      rows: result.rows,
      numAffectedRows: affected === undefined ? undefined : BigInt(affected),
    };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not support streaming');
  }

  /** The text's prepared statement once it is worth one (prepared now on its third use); undefined before or when not. */
  private async preparedFor(text: string): Promise<Prepared | undefined> {
    const known = this.prepared.get(text);
    if (known || text.length > MAX_TEXT || this.prepared.size >= PREPARED_PER_CONNECTION) return known;
    if (!this.uses.has(text) && this.uses.size >= TRACKED_TEXTS) this.uses.clear();
    const uses = (this.uses.get(text) ?? 0) + 1;
    this.uses.set(text, uses);
    if (uses < PREPARE_FROM_USE) return undefined;
    const name = `tms_${++this.named}`;
    try {
      const { messages } = await this.pg.execProtocol(
        joined([protocol.serialize.parse({ name, text }), protocol.serialize.describe({ type: 'S', name }), protocol.serialize.sync()]),
      );
      const statement = { name, types: protocolResults.parseDescribeStatementResults(messages) };
      this.prepared.set(text, statement);
      this.uses.delete(text);
      return statement;
    } catch {
      // Not prepared (an aborted transaction refuses it; a faulty text): `query` runs it and reports its error.
      return undefined;
    }
  }

  /** Runs a prepared statement with these values: bind, describe, execute and sync in one entry. */
  private async runPrepared<R>(statement: Prepared, params: unknown[]): Promise<Results<R>> {
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serialize = this.pg.serializers[statement.types[i]];
      return serialize ? serialize(value) : String(value);
    });
    const message = joined([
      protocol.serialize.bind({ statement: statement.name, values }),
      protocol.serialize.describe({ type: 'P' }),
      protocol.serialize.execute({}),
      protocol.serialize.sync(),
    ]);
    try {
      const { messages } = await this.pg.execProtocol(message);
      return protocolResults.parseResults(messages, this.pg.parsers, { rowMode: 'object' })[0] as Results<R>;
    } catch (error) {
      // Another version changed a table under the prepared statements: they are all prepared afresh, under new names.
      if ((error as { code?: string }).code === RESULT_TYPE_CHANGED) this.prepared.clear();
      throw error;
    }
  }
}

class PGliteDriver implements Driver {
  readonly mutex = new Mutex();
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  private readonly connection: PGliteConnection;

  constructor(private readonly pg: PGlite) {
    this.connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {
    await this.pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.mutex.lock(backgroundTurns.getStore() === true);
    // One connection object is shared, so key the release on a fresh wrapper per acquisition.
    const handle: DatabaseConnection = {
      executeQuery: (q) => this.connection.executeQuery(q),
      streamQuery: () => this.connection.streamQuery(),
    };
    this.releases.set(handle, release);
    return handle;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await conn.executeQuery(CompiledQuery.raw(`begin${level}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('rollback'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const release = this.releases.get(conn);
    this.releases.delete(conn);
    release?.();
  }

  async destroy(): Promise<void> {
    if (!this.pg.closed) await this.pg.close();
  }

  /** `copy … from stdin` with `data`: PGlite reads COPY data from a blob (`/dev/blob`), under the mutex. */
  async copyIn(statement: string, data: AsyncIterable<string>): Promise<void> {
    const parts: string[] = [];
    for await (const piece of data) parts.push(piece);
    const blob = new Blob(parts);
    const release = await this.mutex.lock(backgroundTurns.getStore() === true);
    try {
      await this.pg.query(statement.replace(/ from stdin$/i, " from '/dev/blob'"), [], { blob });
    } finally {
      release();
    }
  }
}

/** Kysely dialect over one PGlite instance, with serialised access. */
export class PGliteDialect implements Dialect {
  private driver: PGliteDriver | null = null;
  constructor(private readonly pg: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    this.driver = new PGliteDriver(this.pg);
    return this.driver;
  }
  /** The one connection as a pool: total 1, idle when nobody holds the mutex, waiting = callers queued behind the holder. */
  poolStats(): PoolStats {
    const pending = this.driver?.mutex.pending ?? 0;
    return { total: 1, idle: pending === 0 ? 1 : 0, waiting: Math.max(0, pending - 1) };
  }
  /** Loads COPY text-format data (see store/db.ts copyIn). */
  copyIn(statement: string, data: AsyncIterable<string>): Promise<void> {
    if (!this.driver) throw new Error('the PGlite dialect has no driver yet');
    return this.driver.copyIn(statement, data);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
}
