import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type Kysely } from 'kysely';
import { migrate } from '../../src/store/db.js';
import * as payloadJson from '../../src/store/migrations/0033_message_payload_json.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
before(async () => {
  store = await createTestStore({ fromEmpty: true });
});
after(() => store.cleanup());

test('every migration is recorded after the first run', async () => {
  const rows = await sql<{ name: string }>`select name from tms_migrations order by name`.execute(store.db);
  assert.deepEqual(rows.rows.map((r) => r.name), Object.keys(MIGRATIONS).sort());
});

test('a second run applies nothing', async () => {
  assert.deepEqual(await migrate(store.db), []);
});

test('the foundation tables exist', async () => {
  const rows = await sql<{ table_name: string }>`
    select table_name from information_schema.tables where table_schema = 'public' order by table_name`.execute(store.db);
  const names = rows.rows.map((r) => r.table_name);
  for (const table of ['api_tokens', 'channels', 'companies', 'webhook_events']) assert.ok(names.includes(table), table);
});

test('migration names are numbered and in strictly increasing order', () => {
  // Numbers are handed out ahead of time to parallel work, so a gap may exist for a while; the order may not.
  const names = Object.keys(MIGRATIONS);
  for (const name of names) assert.match(name, /^\d{4}_[a-z0-9_]+$/);
  const numbers = names.map((name) => Number(name.slice(0, 4)));
  numbers.forEach((n, i) => assert.ok(i === 0 ? n === 1 : n > numbers[i - 1]!, `${names[i]} after ${names[i - 1]}`));
});

test('the payload becomes json on a table up to the rewrite limit; a larger one keeps jsonb, still read whole', async () => {
  // A table of the same name in a schema of its own, so the migration's statements find it first.
  await store.db.connection().execute(async (conn) => {
    const payloadType = async (rows: number) => {
      await sql`create table payload_check.messages (id bigint, payload jsonb not null)`.execute(conn);
      await sql`insert into payload_check.messages select g, '{"b":1,"a":[2]}' from generate_series(1, ${rows}) g`.execute(conn);
      await payloadJson.up(conn as unknown as Kysely<unknown>);
      const type = await sql<{ t: string }>`select format_type(atttypid, atttypmod) as t from pg_attribute
        where attrelid = 'payload_check.messages'::regclass and attname = 'payload'`.execute(conn);
      const read = await sql<{ payload: unknown }>`select payload from payload_check.messages where id = 1`.execute(conn);
      assert.deepEqual(read.rows[0].payload, { a: [2], b: 1 });
      await sql`drop table payload_check.messages`.execute(conn);
      return type.rows[0].t;
    };
    await sql`create schema payload_check`.execute(conn);
    await sql`set search_path to payload_check, public`.execute(conn);
    try {
      assert.equal(await payloadType(3), 'json');
      assert.equal(await payloadType(payloadJson.PAYLOAD_REWRITE_MAX_ROWS + 1), 'jsonb');
    } finally {
      await sql`reset search_path`.execute(conn);
      await sql`drop schema payload_check cascade`.execute(conn);
    }
  });
});
