/**
 * PostgreSQL CPU of applying status webhooks, in isolation, for one or more variants side by side. The bench builds
 * a template database (the current migrations, one bulk send of `--rows` handed-off messages with realistic payloads:
 * SENT_TO_BACKEND, a wamid, an attempt, no statuses yet) and copies it for each variant. A variant is a source tree
 * whose `applyStatuses` runs (the checkout itself, another worktree) and optional setup SQL run on its copy (e.g. a
 * trigger disabled, an index dropped). Every message gets `sent`, `delivered` and `read`, in batches of `--batch`,
 * each batch one transaction as a status group runs it; the variants take turns batch by batch, so a change of the
 * machine's load falls on all of them alike. Backend CPU is read from /proc/<pid>/schedstat (nanoseconds) around
 * each transaction. `--together`: the three statuses of a message in one batch (as when they arrive together).
 * `--by-statement`: backend CPU per statement text and variant. `--plans`: generic and custom plans of each prepared
 * statement.
 *
 * The setup SQL may hold several statements separated by `;;`, each run on its own, e.g.
 * `'slim|.|update messages set payload = $${}$$;;vacuum full messages;;analyze messages'`.
 *
 * `npx tsx bench/status-cost.ts --variant 'before|/work/main' --variant 'after|.|' [--batch 40] [--rows 10000]`
 */
import pg from 'pg';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string) => (args.includes(name) ? args[args.indexOf(name) + 1]! : fallback);
const batch = Number(arg('--batch', '40'));
const rowsWanted = Number(arg('--rows', '10000'));
const specs = args.flatMap((a, i) => (a === '--variant' ? [args[i + 1]!] : []));
const base = 'postgres://postgres@127.0.0.1:5432/';

const cpuNs = (pid: number) => {
  try {
    return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]);
  } catch {
    return 0;
  }
};

interface Variant {
  name: string;
  db: string;
  store: { db: unknown; close(): Promise<void> };
  apply: (tx: unknown, statuses: unknown[]) => Promise<unknown[]>;
  transaction: (work: (tx: unknown) => Promise<void>) => Promise<void>;
  pids: number[];
  ns: Record<string, number>;
  /** This process's CPU (µs) in the variant's transactions, by status. */
  clientUs: Record<string, number>;
}

const variants: Variant[] = [];

/** `--by-statement`: backend CPU of each statement text (its first words), per variant. */
const byStatement = new Map<string, { ns: number; calls: number }>();
if (args.includes('--by-statement')) {
  const query = pg.Client.prototype.query as (...a: unknown[]) => Promise<unknown>;
  pg.Client.prototype.query = function (this: pg.Client & { processID: number }, ...a: unknown[]) {
    const config = a[0] as string | { text: string };
    const database = (this as unknown as { database: string }).database;
    const variant = variants.find((v) => v.db === database)?.name;
    if (!variant) return query.apply(this, a);
    const text = `${variant.padEnd(10)} ${(typeof config === 'string' ? config : config.text).replace(/\s+/g, ' ').trim().slice(0, 60)}`;
    const pid = this.processID;
    const before = cpuNs(pid);
    const result = query.apply(this, a);
    if (!(result instanceof Promise)) return result;
    return result.finally(() => {
      const e = byStatement.get(text) ?? { ns: 0, calls: 0 };
      e.ns += cpuNs(pid) - before;
      e.calls += 1;
      byStatement.set(text, e);
    });
  } as typeof pg.Client.prototype.query;
}

const admin = new pg.Client({ connectionString: `${base}postgres` });
await admin.connect();
const template = `status_cost_${process.pid}`;
await buildTemplate();
for (const [i, spec] of specs.entries()) {
  const [name, root, setup] = spec.split('|');
  const db = `status_cost_${process.pid}_v${i}`;
  await admin.query(`drop database if exists ${db}`);
  await admin.query(`create database ${db} template ${template}`);
  const c = new pg.Client({ connectionString: base + db });
  await c.connect();
  // `;;` separates statements run one by one (VACUUM cannot share a query string with others).
  for (const statement of (setup ?? '').split(';;').filter((s) => s.trim())) await c.query(statement);
  await c.end();
  const { openDatabase } = await import(`${resolve(root!)}/src/store/db.ts`);
  const { applyStatuses } = await import(`${resolve(root!)}/src/engine/status-events.ts`);
  const store = await openDatabase({ databaseUrl: base + db });
  variants.push({
    name: name!, db, store, apply: applyStatuses, pids: [], ns: {}, clientUs: {},
    transaction: (work) => store.db.transaction().execute(work),
  });
}
const targets = await (async () => {
  const c = new pg.Client({ connectionString: base + variants[0]!.db });
  await c.connect();
  const rows = (await c.query<{ id: string; ext_id: string; phone_number: string; user_id: string }>(
    'select id, ext_id, phone_number, user_id from status_cost_targets order by id limit $1', [rowsWanted])).rows;
  await c.end();
  return rows;
})();
const listPids = async (v: Variant) => {
  v.pids = (await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend'`, [v.db])).rows.map((r) => r.pid);
};
const pricing = { billable: true, pricing_model: 'PMP', type: 'regular', category: 'marketing' };
let ts = Math.floor(Date.now() / 1000);
const load0 = loadavg()[0]!.toFixed(2);
/** `--together`: the three statuses of a message in one batch (as when they arrive together): one update a message. */
const together = args.includes('--together');
const duplicates = Number(arg('--duplicates', '0'));
/** `--bare`: statuses as the ingestion bench posts them (id, status, timestamp, recipient_id '1'; no pricing, contact or callback). */
const bare = args.includes('--bare');
const rounds = [...(together ? ['sent+delivered+read'] : ['sent', 'delivered', 'read']), ...Array.from({ length: duplicates }, (_, k) => `read again ${k + 1}`)];
for (const round of rounds) {
  const status = round.startsWith('read again') ? 'read' : round;
  ts += 1;
  for (const v of variants) {
    await listPids(v);
    v.ns[round] = 0;
    v.clientUs[round] = 0;
  }
  for (let i = 0, turn = 0; i < targets.length; i += batch, turn += 1) {
    const statuses = () => status.split('+').flatMap((status, k) => targets.slice(i, i + batch).map((t) => bare ? { id: t.ext_id, status, timestamp: String(ts), recipient_id: '1' } : ({
      id: t.ext_id, status, timestamp: String(ts), recipient_id: t.phone_number.replace('+', ''), recipient_user_id: t.user_id,
      biz_opaque_callback_data: t.id,
      ...(status === 'read' ? {} : { conversation: { id: 'c', origin: { type: 'marketing' } }, pricing }),
      tms_contact: { user_id: t.user_id, wa_id: t.phone_number.replace('+', ''), ...(status === 'sent' ? {} : { profile: { name: 'x' } }) },
    })).map((s) => ({ ...s, timestamp: String(ts + k) })));
    for (let k = 0; k < variants.length; k += 1) {
      const v = variants[(k + turn) % variants.length]!;
      const given = statuses();
      const before = v.pids.map(cpuNs);
      const client = process.cpuUsage();
      await v.transaction(async (tx) => {
        const left = await v.apply(tx, given);
        if (left.length > 0) throw new Error(`${v.name}: ${left.length} statuses not applied`);
      });
      const used = process.cpuUsage(client);
      v.clientUs[round]! += used.user + used.system;
      v.ns[round]! += v.pids.reduce((sum, pid, j) => sum + cpuNs(pid) - before[j]!, 0);
      if (i === 0) await listPids(v); // the pool's connection opened by the first batch
    }
  }
}
console.log(`[status-cost] batch ${batch}, ${targets.length} messages, load ${load0} → ${loadavg()[0]!.toFixed(2)}; PostgreSQL CPU per status (µs)`);
for (const v of variants) {
  if (args.includes('--plans')) {
    const { sql } = await import('kysely');
    const plans = await sql<{ s: string }>`select generic_plans || ' generic, ' || custom_plans || ' custom: ' || left(regexp_replace(statement, '\\s+', ' ', 'g'), 70) as s
      from pg_prepared_statements`.execute(v.store.db as never);
    console.log(plans.rows.map((r) => `    ${r.s}`).join('\n'));
  }
  const per = Object.entries(v.ns).map(([s, ns]) => `${s} ${(ns / 1000 / targets.length).toFixed(1)}`);
  const all = Object.values(v.ns).reduce((a, b) => a + b, 0) / 1000 / targets.length / (3 + duplicates);
  // per status: three statuses a message either way
  console.log(`  ${v.name.padEnd(12)} mean ${all.toFixed(1)}  (${per.join(', ')})`);
  const clientPer = Object.entries(v.clientUs).map(([s, us]) => `${s} ${(us / targets.length).toFixed(1)}`);
  const clientAll = Object.values(v.clientUs).reduce((a, b) => a + b, 0) / targets.length / (3 + duplicates);
  console.log(`  ${''.padEnd(12)} client CPU per status (µs): mean ${clientAll.toFixed(1)}  (${clientPer.join(', ')})`);
  await v.store.close();
  await admin.query(`drop database if exists ${v.db}`);
}
await admin.query(`drop database if exists ${template}`);
await admin.end();
if (byStatement.size > 0) {
  const statuses = targets.length * 3;
  for (const [text, e] of [...byStatement].sort((a, b) => b[1].ns - a[1].ns).slice(0, 8 * variants.length)) {
    console.log(`  ${(e.ns / 1000 / statuses).toFixed(1).padStart(6)} µs/status  ${String(e.calls).padStart(6)} calls  ${text}`);
  }
}

/** The template: migrated, one company, channel and bulk send, `--rows` handed-off messages; vacuumed and analysed. */
async function buildTemplate(): Promise<void> {
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const { openDatabase, migrate } = await import('../src/store/db.js');
  const { createCompany } = await import('../src/admin.js');
  const store = await openDatabase({ databaseUrl: base + template });
  await migrate(store.db);
  const companyId = (await createCompany(store.db, 'status-cost')).companyId;
  await store.close();
  const c = new pg.Client({ connectionString: base + template });
  await c.connect();
  await c.query(`insert into channels (id, company_id, waba_id, access_token) values ('110000000000001', $1, 'waba', 'token')`, [companyId]);
  await c.query(`insert into send_wizards (id, company_id, channel_id, template_id, template_name, from_number, has_button, status,
      total_time, summary, processed_count, awaiting_backend_count)
    values ('status-cost-send', $1, '110000000000001', 't', 'promo', '+15550000000', true, 'RUNNING', 0, $2, $2, $2)`, [companyId, rowsWanted]);
  // Payload and ids shaped as a bulk send stores them (a body with two variables and a URL button).
  await c.query(`insert into messages (id, company_id, channel_id, template_id, waba_id, send_wizard_id, row_no, row_ref, phone_number,
      full_name, status, reached_rank, payload, due_at, attempts, send_attempted_at, ext_id, backend_sended_time, version)
    select lpad(to_hex(n), 24, '0'), $1, '110000000000001', 't', 'waba', 'status-cost-send', n, n, '+8120' || lpad(n::text, 8, '0'),
      '', 'SENT_TO_BACKEND', 1,
      jsonb_build_object('to', '+8120' || lpad(n::text, 8, '0'), 'type', 'template', 'recipient_type', 'individual',
        'messaging_product', 'whatsapp', 'template', jsonb_build_object('name', 'promo', 'language', '{"code": "en_US"}'::jsonb,
        'components', jsonb_build_array(
          jsonb_build_object('type', 'body', 'parameters', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'N' || n),
            jsonb_build_object('type', 'text', 'text', 'C' || n))),
          jsonb_build_object('type', 'button', 'index', 0, 'sub_type', 'url',
            'parameters', jsonb_build_array(jsonb_build_object('type', 'text', 'text', 'p' || n)))))),
      now() - interval '1 minute', 1, now() - interval '50 seconds',
      'wamid.' || encode(convert_to('8120' || lpad(n::text, 8, '0') || md5(n::text), 'UTF8'), 'base64'),
      now() - interval '50 seconds', 3
    from generate_series(1, $2) n`, [companyId, rowsWanted]);
  await c.query(`create table status_cost_targets as
    select id, ext_id, phone_number, 'JP.' || (10000000000000000000 + row_no)::text as user_id from messages`);
  await c.query('vacuum analyze');
  await c.end();
}
