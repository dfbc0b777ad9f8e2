/**
 * How long a /metrics scrape takes on a large database: fills one with `--rows` messages (default 100,000) in
 * `--wizards` bulk sends over 4 channels, half of them QUEUED, plus `--singles` single sends (default 10,000; a
 * third QUEUED) and 10,000 applied and 50 pending webhook events, then prints the plan of the single-send count
 * and times the metrics' database read and a whole scrape (registry.metrics(), cache off) `--scrapes` times.
 * PGlite in memory by default; DATABASE_URL=postgres://… uses a fresh database on that server (created, dropped).
 *   npx tsx bench/metrics-scrape.ts [--rows 100000] [--wizards 200] [--singles 10000] [--scrapes 20]
 */
import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { sql } from 'kysely';
import { createMetrics } from '../src/http/ops/metrics.js';
import { migrate, openDatabase, type Store } from '../src/store/db.js';

const { values } = parseArgs({ options: { rows: { type: 'string' }, wizards: { type: 'string' }, scrapes: { type: 'string' }, singles: { type: 'string' } } });
const ROWS = Number(values.rows ?? 100_000);
const WIZARDS = Number(values.wizards ?? 200);
const SINGLES = Number(values.singles ?? 10_000);
const SCRAPES = Number(values.scrapes ?? 20);

async function open(): Promise<{ store: Store; drop: () => Promise<void> }> {
  const admin = process.env.DATABASE_URL;
  if (!admin) return { store: await openDatabase({ memory: true }), drop: async () => undefined };
  const name = `tms_metrics_bench_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const store = await openDatabase({ databaseUrl: admin.replace(/\/[^/]*$/, `/${name}`) });
  return {
    store,
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

async function fill(store: Store): Promise<void> {
  const db = store.db;
  await sql`insert into companies (id, name) values ('c1', 'Bench')`.execute(db);
  for (let c = 1; c <= 4; c += 1) {
    await sql`insert into channels (id, company_id, waba_id, access_token) values (${`ch${c}`}, 'c1', 'w1', 'x')`.execute(db);
  }
  await sql`
    insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status, total_time,
      summary, queued, processed_count, delivered_count)
    select 'w' || g, 'c1', 'ch' || (1 + g % 4), 't1', 'tpl', '+1', false, case when g % 2 = 0 then 'RUNNING' else 'COMPLETED' end, 0,
      ${Math.ceil(ROWS / WIZARDS)}, ${Math.ceil(ROWS / WIZARDS / 2)}, ${Math.floor(ROWS / WIZARDS / 2)}, ${Math.floor(ROWS / WIZARDS / 2)}
    from generate_series(1, ${WIZARDS}) g`.execute(db);
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, phone_number, status, payload, due_at)
    select 'm' || g, 'c1', 'ch' || (1 + (g % ${WIZARDS}) % 4), 't1', 'w1', 'w' || (1 + g % ${WIZARDS}), g, '90555' || g,
      case when g % 2 = 0 then 'QUEUED' else 'BACKEND_DELIVERED' end, '{}'::jsonb, now() - (g % 600) * interval '1 second'
    from generate_series(1, ${ROWS}) g`.execute(db);
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload, due_at)
    select 's' || g, 'c1', 'ch' || (1 + g % 4), 't1', 'w1', '90556' || g,
      case when g % 3 = 0 then 'QUEUED' else 'BACKEND_SEEN' end, '{}'::jsonb, now() - (g % 600) * interval '1 second'
    from generate_series(1, ${SINGLES}) g`.execute(db);
  await sql`insert into webhook_events (body, state, applied_at) select '{}', 'APPLIED', now() from generate_series(1, 10000)`.execute(db);
  await sql`insert into webhook_events (body, state) select '{}', 'RECEIVED' from generate_series(1, 50)`.execute(db);
  // As autovacuum leaves a settled table: statistics, and the visibility map an index-only scan needs.
  await sql`vacuum analyze`.execute(db);
}

const { store, drop } = await open();
try {
  await migrate(store.db);
  const t0 = Date.now();
  await fill(store);
  console.log(`${store.kind}: ${ROWS} messages in ${WIZARDS} bulk sends and ${SINGLES} single sends, filled in ${Date.now() - t0} ms`);
  const plan = await sql<Record<string, string>>`explain (analyze, costs off)
    select channel_id, status, count(*) from messages where send_wizard_id is null group by channel_id, status`.execute(store.db);
  console.log(`single-send count:\n  ${plan.rows.map((r) => Object.values(r)[0]).join('\n  ')}`);
  const metrics = createMetrics({ db: store.db, poolStats: () => store.poolStats(), webhooksRejected: () => 0, draining: () => false, cacheMs: 0 });
  const scrapes: number[] = [];
  const reads: number[] = [];
  let size = 0;
  for (let i = 0; i < SCRAPES; i += 1) {
    const started = process.hrtime.bigint();
    const text = await metrics.registry.metrics();
    scrapes.push(Number(process.hrtime.bigint() - started) / 1e6);
    size = text.length;
    reads.push(Number(/^tms_metrics_db_read_seconds (\S+)$/m.exec(text)?.[1] ?? NaN) * 1000);
  }
  const stat = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return `median ${s[Math.floor(s.length / 2)].toFixed(1)} ms, max ${s[s.length - 1].toFixed(1)} ms`;
  };
  console.log(`database read: ${stat(reads)}`);
  console.log(`whole scrape (${size} bytes): ${stat(scrapes)}  [${SCRAPES} scrapes, cache off]`);
} finally {
  await store.close();
  await drop();
}
