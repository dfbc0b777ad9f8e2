import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { migrate } from '../../src/store/db.js';
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
