/**
 * On PostgreSQL, a statement text that keeps coming back runs as a named prepared statement (parsed once
 * per connection, planned generically where that costs no more). These cases run on a PostgreSQL database whatever
 * TMS_TEST_DB says: PGlite's dialect sends its statements another way.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase, type Store } from '../../src/store/db.js';
import { PREPARE_FROM_USE, StatementNames, TRACKED_TEXTS } from '../../src/store/prepared-statements.js';
import { createPgDatabase } from '../support/db.js';

let store: Store;
let database: Awaited<ReturnType<typeof createPgDatabase>>;

before(async () => {
  database = await createPgDatabase();
  store = await openDatabase({ databaseUrl: database.url });
  await sql`create table shapes (id int primary key, name text)`.execute(store.db);
  await sql`insert into shapes values (1, 'one'), (2, 'two')`.execute(store.db);
});
after(async () => {
  await store.close();
  await database.drop();
});

test('a statement text is named from its third use, and a very long one never', () => {
  const names = new StatementNames();
  const text = 'select * from shapes where id = $1';
  const seen = Array.from({ length: PREPARE_FROM_USE + 1 }, () => names.nameOf(text));
  assert.deepEqual(seen.slice(0, PREPARE_FROM_USE - 1), [null, null]);
  assert.ok(seen[PREPARE_FROM_USE - 1]);
  assert.equal(seen[PREPARE_FROM_USE], seen[PREPARE_FROM_USE - 1], 'the same text keeps its name');
  assert.notEqual(names.nameOf('select 1 where $1::int = 1') ?? 'unnamed', seen[PREPARE_FROM_USE - 1]);
  const long = `select $1::text as a -- ${'x'.repeat(20_000)}`;
  for (let i = 0; i < PREPARE_FROM_USE + 2; i += 1) assert.equal(names.nameOf(long), null);
});

test('one-off texts filling the count do not keep a later hot text from being named', () => {
  const names = new StatementNames();
  const early = 'select name from shapes where id = $1';
  for (let i = 0; i < PREPARE_FROM_USE; i += 1) names.nameOf(early);
  for (let i = 0; i < TRACKED_TEXTS; i += 1) names.nameOf(`select $1::int + ${i}`);
  const late = 'select id from shapes where name = $1';
  const seen = Array.from({ length: PREPARE_FROM_USE }, () => names.nameOf(late));
  assert.ok(seen[PREPARE_FROM_USE - 1], 'the text first seen after the count filled is named from its third use');
  assert.ok(names.nameOf(early), 'a text named before keeps its name');
});

test('a repeated statement runs prepared on its connection, with the right answers', async () => {
  await store.db.connection().execute(async (conn) => {
    for (let i = 0; i < PREPARE_FROM_USE + 3; i += 1) {
      const id = (i % 2) + 1;
      const row = (await sql<{ name: string }>`select name from shapes where id = ${id}`.execute(conn)).rows[0];
      assert.equal(row.name, id === 1 ? 'one' : 'two');
    }
    const prepared = await sql<{ n: number }>`
      select count(*)::int as n from pg_prepared_statements where statement = 'select name from shapes where id = $1'`.execute(conn);
    assert.equal(prepared.rows[0].n, 1);
  });
});

test('an unparameterised statement is never prepared', async () => {
  await store.db.connection().execute(async (conn) => {
    for (let i = 0; i < PREPARE_FROM_USE + 1; i += 1) await sql`select count(*) from shapes`.execute(conn);
    const prepared = await sql<{ n: number }>`
      select count(*)::int as n from pg_prepared_statements where statement like 'select count(*) from shapes%'`.execute(conn);
    assert.equal(prepared.rows[0].n, 0);
  });
});

test('a connection whose prepared statement no longer fits its table is closed, and the next call answers', async () => {
  const pid = await store.db.connection().execute(async (conn) => {
    for (let i = 0; i < PREPARE_FROM_USE; i += 1) await sql`select * from shapes where id = ${1}`.execute(conn);
    const own = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(conn)).rows[0].pid;
    // Another process (a newer version's migration) changes the table under the prepared statement.
    const other = new pg.Client({ connectionString: database.url });
    await other.connect();
    await other.query('alter table shapes add column colour text');
    await other.end();
    await assert.rejects(sql`select * from shapes where id = ${1}`.execute(conn), (error: { code?: string }) => error.code === '0A000');
    return own;
  });
  const row = (await sql<{ id: number; colour: string | null }>`select * from shapes where id = ${1}`.execute(store.db)).rows[0];
  assert.deepEqual({ ...row }, { id: 1, name: 'one', colour: null });
  const open = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pid}`.execute(store.db);
  assert.equal(open.rows[0].n, 0, 'the connection with the stale statement was closed, not pooled again');
});
