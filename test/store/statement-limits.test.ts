/**
 * No statement of the service outlives its caller on PostgreSQL: every connection carries a statement_timeout, and a
 * statement whose process was killed ends within seconds (client_connection_check_interval) instead of running on.
 * Migrations run without the timeout. These cases need a PostgreSQL server whatever TMS_TEST_DB says (PGlite runs
 * inside the process: its statements end with it).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { sql } from 'kysely';
import pg from 'pg';
import { migrate, openDatabase, type Store } from '../../src/store/db.js';
import { createPgDatabase } from '../support/db.js';

let database: Awaited<ReturnType<typeof createPgDatabase>>;
let store: Store;

before(async () => {
  database = await createPgDatabase();
  store = await openDatabase({ databaseUrl: database.url }, { statementTimeoutMs: 300 });
});
after(async () => {
  await store.close();
  await database.drop();
});

test('a statement running past the timeout is ended by the server (57014)', async () => {
  await assert.rejects(sql`select pg_sleep(2)`.execute(store.db), (error: { code?: string }) => error.code === '57014');
  assert.equal((await sql<{ ok: number }>`select 1 as ok`.execute(store.db)).rows[0].ok, 1, 'the pool goes on');
});

test('migrations run without the timeout, and the connection keeps its timeout after', async () => {
  await migrate(store.db);
  const shown = await sql<{ statement_timeout: string }>`show statement_timeout`.execute(store.db);
  assert.equal(shown.rows[0].statement_timeout, '300ms');
});

test("a statement of a killed process ends within seconds, not at its own end", async () => {
  const script = `
    const { openDatabase } = await import(${JSON.stringify(new URL('../../src/store/db.ts', import.meta.url).pathname)});
    const { sql } = await import('kysely');
    const store = await openDatabase({ databaseUrl: ${JSON.stringify(database.url)} });
    console.log('ready');
    await sql\`select pg_sleep(60) as tms_orphan_probe\`.execute(store.db);`;
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const admin = new pg.Client({ connectionString: database.url });
  await admin.connect();
  try {
    const running = async () => (await admin.query(`select 1 from pg_stat_activity where query like '%tms_orphan_probe%' and pid <> pg_backend_pid()`)).rowCount ?? 0;
    for (let i = 0; (await running()) === 0; i += 1) {
      assert.ok(i < 600, 'the statement never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    child.kill('SIGKILL');
    const killedAt = Date.now();
    while ((await running()) > 0) {
      assert.ok(Date.now() - killedAt < 20_000, 'the statement kept running after its process was killed');
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    child.kill('SIGKILL');
    await admin.end();
  }
});
