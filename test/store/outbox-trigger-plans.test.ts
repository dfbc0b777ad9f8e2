/**
 * The client-webhook outbox trigger plans its insert for the rows of each statement, whatever ran before on the
 * connection. PL/pgSQL keeps a static statement's plan for the session, made on its first run: after a 1-row move,
 * a large move on the same connection joined its transition tables with a nested loop planned for one row
 * (quadratic). auto_explain shows the plan each trigger run used: its transition-table scans must be estimated
 * at the statement's own row count. PGlite is one connection, so there it is the process's whole life.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PGlite } from '@electric-sql/pglite';
import { auto_explain } from '@electric-sql/pglite/contrib/auto_explain';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../../src/store/db.js';
import { PGliteDialect } from '../../src/store/pglite-dialect.js';
import type { Database } from '../../src/store/schema.js';
import { createPgDatabase, onPostgres } from '../support/db.js';

const ROWS = 2000;

/** One connection that runs SQL text and collects the server's notices (auto_explain's plans). */
interface Session {
  run(text: string): Promise<void>;
  notices: string[];
  close(): Promise<void>;
}

async function openSession(): Promise<Session> {
  const notices: string[] = [];
  if (onPostgres) {
    const database = await createPgDatabase();
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) });
    await migrate(db);
    await db.destroy();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    client.on('notice', (n) => notices.push(n.message ?? ''));
    return {
      notices,
      run: async (text) => void (await client.query(text)),
      close: async () => {
        await client.end();
        await database.drop();
      },
    };
  }
  const pglite = new PGlite({ extensions: { auto_explain } });
  const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
  await migrate(db);
  return {
    notices,
    run: async (text) => void (await pglite.exec(text, { onNotice: (n) => notices.push(n.message ?? '') })),
    close: () => db.destroy(),
  };
}

let session: Session;

before(async () => {
  session = await openSession();
  await session.run(`
    insert into companies (id, name) values ('ca', 'A');
    insert into channels (id, company_id, waba_id, access_token) values ('101', 'ca', '9', 'x');
    insert into webhook_endpoints (id, company_id, url, events, secret) values ('e1', 'ca', 'http://127.0.0.1:9/x', array['*'], 's');
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload)
    select lpad(g::text, 24, '0'), 'ca', '101', 't', '9', '+90555' || g, 'NONE', '{}'::jsonb from generate_series(1, ${ROWS}) g;
    load 'auto_explain';
    set auto_explain.log_min_duration = 0;
    set auto_explain.log_nested_statements = on;
    set auto_explain.log_level = notice;`);
});
after(() => session?.close());

/** The row estimates of the transition-table scans in the plans of the outbox inserts run since `from`. */
function transitionScanEstimates(from: number): number[] {
  return session.notices
    .slice(from)
    .filter((n) => n.includes('insert into webhook_deliveries'))
    .flatMap((n) => [...n.matchAll(/Named Tuplestore Scan\s+\(cost=[\d.]+\.\.[\d.]+ rows=(\d+)/g)].map((m) => Number(m[1])));
}

test('a large move after a 1-row move on the same connection is planned for its own rows', async () => {
  await session.run(`update messages set status = 'QUEUED' where id = lpad('1', 24, '0')`);
  const mark = session.notices.length;
  await session.run(`update messages set status = 'QUEUED' where status = 'NONE'`);
  const estimates = transitionScanEstimates(mark);
  assert.ok(estimates.length >= 2, `the outbox insert's plan was logged (${session.notices.length - mark} plans)`);
  assert.deepEqual([...new Set(estimates)], [ROWS - 1], 'both transition tables estimated at the move\'s own row count');
  await session.run(`update messages set status = 'CANCELLED' where id = lpad('2', 24, '0')`);
  const small = session.notices.length;
  await session.run(`update messages set status = 'CANCELLED' where id in (lpad('3', 24, '0'), lpad('4', 24, '0'))`);
  assert.deepEqual([...new Set(transitionScanEstimates(small))], [2], 'a small move after a large one is planned for its own rows too');
});

test('a bulk-send status change of many bulk sends after a change of one is planned for its own rows', async () => {
  await session.run(`
    insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status, total_time)
    select 'w' || g, 'ca', '101', 't', 'n', '1', false, 'RUNNING', 0 from generate_series(1, 60) g`);
  await session.run(`update send_wizards set status = 'PAUSED' where id = 'w1'`);
  const mark = session.notices.length;
  await session.run(`update send_wizards set status = 'PAUSED' where status = 'RUNNING'`);
  assert.deepEqual([...new Set(transitionScanEstimates(mark))], [59]);
});
