import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { openDatabase, type Store } from '../../src/store/db.js';

// The PGlite dialect prepares a statement text from its third use and then runs it in one entry into the database.
// PGlite in memory on either suite: the dialect is what is tested.
let store: Store;

before(async () => {
  store = await openDatabase({ memory: true });
  await sql`create table prepared_check (id text primary key, n int not null, tags text[], doc jsonb, at timestamptz)`.execute(store.db);
});
after(() => store.close());

const preparedTexts = async () =>
  (await sql<{ statement: string }>`select statement from pg_prepared_statements where statement like '%prepared_check%' and statement not like '%pg_prepared_statements%'`.execute(store.db)).rows.map((r) => r.statement);

test('a text used a third time is prepared once, and every run returns what the unprepared one does', async () => {
  const at = new Date('2026-11-26T10:00:00.123Z');
  const inserted = [];
  for (let i = 0; i < 6; i += 1) {
    const row = await sql<{ id: string; n: number; tags: string[]; doc: unknown; at: Date }>`
      insert into prepared_check (id, n, tags, doc, at) values (${`p${i}`}, ${i}, ${['a', `b${i}`]}::text[], ${JSON.stringify({ i, s: 'x"y' })}::jsonb, ${at})
      returning id, n, tags, doc, at`.execute(store.db);
    inserted.push(row.rows[0]);
  }
  for (const [i, row] of inserted.entries()) assert.deepEqual(row, { id: `p${i}`, n: i, tags: ['a', `b${i}`], doc: { i, s: 'x"y' }, at });
  assert.equal((await preparedTexts()).filter((t) => t.startsWith('\n      insert')).length, 1);
  const changed = await sql`update prepared_check set n = n + ${1} where id = any(${['p1', 'p2']}::text[])`.execute(store.db);
  assert.equal(changed.numAffectedRows, 2n);
  for (let i = 0; i < 4; i += 1) {
    const counted = await sql`update prepared_check set n = n + ${1} where id = any(${['p1', 'p2', 'p3']}::text[])`.execute(store.db);
    assert.equal(counted.numAffectedRows, 3n);
  }
  const read = await sql<{ n: number }>`select n from prepared_check where id = ${'p2'}`.execute(store.db);
  assert.equal(read.rows[0].n, 2 + 5);
});

test('a prepared statement that fails reports its error code, and its transaction rolls back whole', async () => {
  const insert = (id: string) => sql`insert into prepared_check (id, n) values (${id}, ${0})`;
  for (const id of ['q1', 'q2', 'q3']) await insert(id).execute(store.db);
  await assert.rejects(
    store.db.transaction().execute(async (tx) => {
      await insert('q4').execute(tx);
      await insert('q1').execute(tx);
    }),
    (error: { code?: string }) => error.code === '23505',
  );
  const left = await sql<{ id: string }>`select id from prepared_check where id like ${'q%'} order by id`.execute(store.db);
  assert.deepEqual(left.rows.map((r) => r.id), ['q1', 'q2', 'q3']);
  // The connection goes on: the same prepared text runs again.
  await insert('q5').execute(store.db);
});
