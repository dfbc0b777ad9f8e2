/**
 * A large status move through the client-webhook outbox trigger, on a fresh connection and on a connection whose
 * first move was a 1-row one (docs/decisions.md, "Outbox trigger plans").
 * `npx tsx bench/outbox-plans.ts [--rows 5000] [--rounds 3]` (TMS_TEST_DB=postgres for PostgreSQL).
 *
 * Each round: a fresh database connection (PostgreSQL: a new client; PGlite: a new in-memory database, its only
 * connection) moves `rows` rows of the endpoint's company NONE → QUEUED in one statement, timed; then another
 * connection first moves 1 row, then the same `rows`. Prints the medians and warm ÷ fresh.
 */
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { migrate } from '../src/store/db.js';
import { PGliteDialect } from '../src/store/pglite-dialect.js';
import type { Database } from '../src/store/schema.js';
import { createPgDatabase, onPostgres } from '../test/support/db.js';

const { values } = parseArgs({ options: { rows: { type: 'string' }, rounds: { type: 'string' } } });
const ROWS = Number(values.rows ?? 5000);
const ROUNDS = Number(values.rounds ?? 3);

const SEED = `
  insert into companies (id, name) values ('ca', 'A');
  insert into channels (id, company_id, waba_id, access_token) values ('101', 'ca', '9', 'x');
  insert into webhook_endpoints (id, company_id, url, events, secret) values ('e1', 'ca', 'http://127.0.0.1:9/x', array['*'], 's');
  insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload)
  select lpad(g::text, 24, '0'), 'ca', '101', 't', '9', '+90555' || g, 'NONE', '{}'::jsonb from generate_series(1, ${ROWS + 1}) g;`;
const ONE = `update messages set status = 'QUEUED' where id = lpad('${ROWS + 1}', 24, '0')`;
const ALL = `update messages set status = 'QUEUED' where id <= lpad('${ROWS}', 24, '0') and status = 'NONE'`;
const RESET = `update messages set status = 'NONE'; delete from webhook_deliveries;`;

/** Runs SQL text on one connection of a database seeded once. */
interface World {
  connect(): Promise<{ run(text: string): Promise<void>; close(): Promise<void> }>;
  close(): Promise<void>;
}

async function postgresWorld(): Promise<World> {
  const database = await createPgDatabase();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 1 }) }) });
  await migrate(db);
  await db.destroy();
  const connect = async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    return { run: async (text: string) => void (await client.query(text)), close: () => client.end() };
  };
  const seed = await connect();
  await seed.run(SEED);
  await seed.close();
  return { connect, close: () => database.drop() };
}

/** PGlite has one connection per database: each "connection" is a fresh seeded database. */
function pgliteWorld(): World {
  return {
    connect: async () => {
      const pglite = new PGlite();
      const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
      await migrate(db);
      await pglite.exec(SEED);
      return { run: async (text: string) => void (await pglite.exec(text)), close: () => db.destroy() };
    },
    close: async () => undefined,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const world = onPostgres ? await postgresWorld() : pgliteWorld();
const fresh: number[] = [];
const warm: number[] = [];
for (let round = 0; round < ROUNDS; round += 1) {
  for (const [label, times] of [['fresh', fresh], ['warm', warm]] as const) {
    const c = await world.connect();
    if (label === 'warm') await c.run(ONE);
    const started = performance.now();
    await c.run(ALL);
    times.push(performance.now() - started);
    await c.run(RESET);
    await c.close();
  }
}
await world.close();
const f = median(fresh);
const w = median(warm);
console.log(`| ${onPostgres ? 'PostgreSQL' : 'PGlite'} | ${ROWS} rows | fresh ${f.toFixed(0)} ms | after a 1-row move ${w.toFixed(0)} ms | ${(w / f).toFixed(2)}x |`);
