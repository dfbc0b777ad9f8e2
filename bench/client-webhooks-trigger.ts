/**
 * The cost of the client webhook outbox triggers (migration 0009) on the moves of a bulk send.
 * `npx tsx bench/client-webhooks-trigger.ts [--rows 20000] [--rounds 3]` (TMS_TEST_DB=postgres for PostgreSQL).
 *
 * A bulk send's rows go through the moves the engine makes, in its batch sizes: NONE→QUEUED (5,000 per statement),
 * QUEUED→AGENDA, AGENDA→OPT_IN_SUCCESS, OPT_IN_SUCCESS→SENT_TO_BACKEND (200 per statement, like claims and
 * outcome flushes), then BACKEND_DELIVERED, BACKEND_SENT, BACKEND_SEEN (100 per statement, like status batches):
 * 7 status changes per row. Timed four ways, rounds interleaved: trigger disabled; trigger with no endpoint
 * anywhere; trigger with an endpoint of ANOTHER company only; trigger with an endpoint of the bulk send's
 * company (every change writes an outbox row). SQL only (no network), so the figure is the database's share.
 */
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../src/store/schema.js';
import { createTestStore } from '../test/support/db.js';

const { values } = parseArgs({ options: { rows: { type: 'string' }, rounds: { type: 'string' } } });
const ROWS = Number(values.rows ?? 20_000);
const ROUNDS = Number(values.rounds ?? 3);

type Db = Kysely<Database>;
const MOVES: Array<[string, string, number]> = [
  ['NONE', 'QUEUED', 5000],
  ['QUEUED', 'AGENDA', 200],
  ['AGENDA', 'OPT_IN_SUCCESS', 200],
  ['OPT_IN_SUCCESS', 'SENT_TO_BACKEND', 200],
  ['SENT_TO_BACKEND', 'BACKEND_DELIVERED', 100],
  ['BACKEND_DELIVERED', 'BACKEND_SENT', 100],
  ['BACKEND_SENT', 'BACKEND_SEEN', 100],
];

async function runMoves(db: Db): Promise<number> {
  const started = performance.now();
  for (const [from, to, batch] of MOVES) {
    for (let moved = batch; moved === batch; ) {
      const result = await sql`
        update messages m set status = ${to}, updated_at = now(), version = m.version + 1
        where m.id in (select id from messages where status = ${from} order by id limit ${batch} for update)`.execute(db);
      moved = Number(result.numAffectedRows ?? 0);
    }
  }
  return performance.now() - started;
}

async function reset(db: Db): Promise<void> {
  await sql`alter table messages disable trigger messages_outbox`.execute(db);
  await sql`update messages set status = 'NONE'`.execute(db);
  await sql`alter table messages enable trigger messages_outbox`.execute(db);
  await sql`delete from webhook_deliveries`.execute(db);
  await sql`delete from webhook_endpoints`.execute(db);
  // Every variant starts from a table without the previous run's dead rows.
  await sql`vacuum messages`.execute(db);
  await sql`vacuum webhook_deliveries`.execute(db);
}

const VARIANTS = {
  'trigger disabled': async (db: Db) => sql`alter table messages disable trigger messages_outbox`.execute(db),
  'no endpoint anywhere': async () => undefined,
  "another company's endpoint only": async (db: Db) =>
    sql`insert into webhook_endpoints (id, company_id, url, events, secret) values ('eb', 'cb', 'http://127.0.0.1:9/', array['*'], 's')`.execute(db),
  "the company's endpoint": async (db: Db) =>
    sql`insert into webhook_endpoints (id, company_id, url, events, secret) values ('ea', 'ca', 'http://127.0.0.1:9/', array['*'], 's')`.execute(db),
} as const;

const store = await createTestStore();
const db = store.db;
await sql`insert into companies (id, name) values ('ca', 'A'), ('cb', 'B')`.execute(db);
await sql`insert into channels (id, company_id, waba_id, access_token) values ('101', 'ca', '9', 'x')`.execute(db);
await sql`insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status, total_time)
          values ('w1', 'ca', '101', 't', 'n', '1', false, 'RUNNING', 0)`.execute(db);
// A payload of the size a real row carries (template name, language, two body parameters, a URL button).
await sql`
  insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, phone_number, full_name, status, payload)
  select lpad(to_hex(g), 24, '0'), 'ca', '101', 't', '9', 'w1', g, '+90555' || lpad(g::text, 7, '0'), 'Customer ' || g, 'NONE',
    jsonb_build_object('messaging_product', 'whatsapp', 'to', '90555' || g, 'type', 'template', 'template', jsonb_build_object(
      'name', 'summer_sale', 'language', jsonb_build_object('code', 'en_US'), 'components', jsonb_build_array(
        jsonb_build_object('type', 'body', 'parameters', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'Name' || g),
          jsonb_build_object('type', 'text', 'text', 'CODE' || g))),
        jsonb_build_object('type', 'button', 'sub_type', 'url', 'index', '0', 'parameters', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'p' || g))))))
  from generate_series(1, ${ROWS}) g`.execute(db);
// The engine finds its rows by index (claims, leases, wamids); here one index on (status, id) stands in for them,
// so each statement costs its rows, not a scan of the table.
await sql`create index bench_messages_status on messages (status, id)`.execute(db);
await sql`analyze messages`.execute(db);

const times: Record<string, number[]> = Object.fromEntries(Object.keys(VARIANTS).map((k) => [k, []]));
let outboxRows = 0;
await reset(db);
for (let round = 0; round < ROUNDS; round += 1) {
  const order = Object.keys(VARIANTS);
  if (round % 2 === 1) order.reverse();
  for (const name of order) {
    await reset(db);
    await VARIANTS[name as keyof typeof VARIANTS](db);
    times[name]!.push(await runMoves(db));
    if (name === "the company's endpoint") {
      outboxRows = Number((await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries`.execute(db)).rows[0]!.n);
    }
  }
}
// The fastest run of each variant: on a shared machine the slower runs mostly measure other load.
const median = (xs: number[]) => Math.min(...xs);
const base = median(times['trigger disabled']!);
console.log(`${store.kind}: ${ROWS} rows x ${MOVES.length} status changes, ${ROUNDS} rounds (fastest run ms, vs trigger disabled; all runs)`);
for (const [name, xs] of Object.entries(times)) {
  const m = median(xs);
  console.log(`  ${name.padEnd(34)} ${m.toFixed(0).padStart(7)} ms  ${((m / base - 1) * 100).toFixed(1).padStart(6)} %   [${xs.map((x) => x.toFixed(0)).join(', ')}]`);
}
console.log(`  outbox rows written with the company's endpoint: ${outboxRows}`);
await store.cleanup();
