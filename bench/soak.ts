/**
 * Soak: one `tms serve` process on PostgreSQL sends an N-row bulk send with the caps off and a
 * short webhook-event retention (WEBHOOK_RETENTION_SECONDS=60). Every 10 s it samples the service's RSS
 * (/proc/<pid>/status VmRSS) and pg_total_relation_size of every table; after the last row is final it keeps
 * sampling for a tail so retention can be seen draining webhook_events. Prints the table and the summary
 * (RSS at 10 % against 100 % of the send, max webhook_events rows) and writes a dated log,
 * docs/history/benchmarks-soak-<date>.md.
 * When the server runs with autovacuum off (this machine's CI configuration does), the soak vacuums the bounded
 * tables every 60 s as a stand-in, so their sizes show what a default server (autovacuum on) keeps; it says so.
 *
 * Standalone: `npx tsx bench/soak.ts [--rows 200000] [--tail-seconds 90]`; `npm run bench` (full form) runs it
 * with 1,000,000 rows. Every loop is bounded by a deadline.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { openDatabase } from '../src/store/db.js';
import { machine, startBulk, wizardItem } from './lib/measure.js';
import { startWorld } from './lib/world.js';

const SAMPLE_EVERY_MS = 10_000;
const RETENTION_SECONDS = 60;
/** With autovacuum off on the server, the bounded tables are vacuumed this often (a stand-in for autovacuum). */
const VACUUM_EVERY_MS = 60_000;
/**
 * ...and messages (vacuum + analyze) this often, in the background: without it every state move leaves a dead
 * row version and a dead entry in the claim's partial index, and the 1M-row run slowed from ~300 to ~50 msg/s
 * after 900k rows (its two hand vacuums are recorded in docs/history/benchmarks-soak-2026-11-23.md).
 */
const MESSAGES_VACUUM_EVERY_MS = 600_000;
/** Tables that must stay bounded whatever N is (messages grows with N and is reported on its own). */
const BOUNDED = ['webhook_events', 'pending_status_events', 'tier_recipients', 'idempotency_keys', 'channel_leases'] as const;

/** One sample of the soak. */
export interface SoakSample {
  seconds: number;
  handed: number;
  final: number;
  rssMb: number;
  /** pg_total_relation_size per table, bytes. */
  bytes: Record<string, number>;
  webhookEventRows: number;
}

/** What a soak run measured. */
export interface SoakResult {
  rows: number;
  samples: SoakSample[];
  /** RSS (MB) at the first sample with 10 % of the rows final, at the first with all final, and their ratio. */
  rss10: number;
  rss100: number;
  ratio: number;
  maxWebhookEventRows: number;
  /** Largest size of each bounded table during the run, bytes. */
  maxBytes: Record<string, number>;
  sendSeconds: number;
  /** The server's autovacuum setting, and whether the soak vacuumed the bounded tables itself. */
  autovacuum: string;
  markdown: string;
}

async function rssMb(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
}

const mb = (bytes: number | undefined) => ((bytes ?? 0) / 2 ** 20).toFixed(2);

/** Runs the soak on PostgreSQL with `rows` rows; `log` gets a line per sample. */
export async function soak(rows: number, tailSeconds = 90, log: (line: string) => void = (l) => console.error(`[soak] ${l}`)): Promise<SoakResult> {
  const world = await startWorld({
    database: 'postgres',
    instances: 1,
    simMps: null,
    channelMps: 100_000,
    serviceEnv: { WEBHOOK_RETENTION_SECONDS: String(RETENTION_SECONDS) },
  });
  const probe = await openDatabase({ databaseUrl: world.dbEnv.DATABASE_URL });
  const pid = world.services[0].child.pid!;
  const samples: SoakSample[] = [];
  try {
    const t0 = Date.now();
    let wizardId: string | null = null;
    let doneAt: number | null = null;
    const autovacuum = (await sql<{ autovacuum: string }>`show autovacuum`.execute(probe.db)).rows[0].autovacuum;
    let vacuumedAt = 0;
    let messagesVacuumedAt = Date.now();
    let messagesVacuum: Promise<unknown> | null = null;
    const sample = async (): Promise<SoakSample> => {
      const sizes = await sql<{ name: string; bytes: string }>`
        select c.relname as name, pg_total_relation_size(c.oid)::bigint as bytes
        from pg_class c join pg_namespace n on n.oid = c.relnamespace
        where n.nspname = current_schema() and c.relkind = 'r'`.execute(probe.db);
      const events = await sql<{ n: number }>`select count(*)::int as n from webhook_events`.execute(probe.db);
      const item = wizardId ? await wizardItem(world, wizardId) : null;
      const s: SoakSample = {
        seconds: Math.round((Date.now() - t0) / 1000),
        handed: item ? item.summary - item.waiting - item.queued : 0,
        final: item ? item.seen_count + item.failed_count + item.cancelled_count : 0,
        rssMb: await rssMb(pid),
        bytes: Object.fromEntries(sizes.rows.map((r) => [r.name, Number(r.bytes)])),
        webhookEventRows: events.rows[0].n,
      };
      samples.push(s);
      log(`${s.seconds} s: final ${s.final}/${rows}, RSS ${s.rssMb} MB, messages ${mb(s.bytes.messages)} MB, webhook_events ${s.webhookEventRows} rows ${mb(s.bytes.webhook_events)} MB`);
      return s;
    };
    // Sampling runs from before the start request (the start itself streams N rows into the database).
    let sampling = true;
    const sampler = (async () => {
      const deadline = t0 + Math.max(30 * 60_000, (rows / 50) * 1000) + tailSeconds * 1000;
      while (sampling && Date.now() < deadline) {
        if (autovacuum !== 'on' && Date.now() - vacuumedAt >= VACUUM_EVERY_MS) {
          vacuumedAt = Date.now();
          await sql.raw(`vacuum ${[...BOUNDED, 'channel_status_webhooks'].join(', ')}`).execute(probe.db);
        }
        if (autovacuum !== 'on' && messagesVacuum === null && Date.now() - messagesVacuumedAt >= MESSAGES_VACUUM_EVERY_MS) {
          messagesVacuum = sql`vacuum (analyze) messages`.execute(probe.db).finally(() => {
            messagesVacuumedAt = Date.now();
            messagesVacuum = null;
          });
        }
        const s = await sample();
        if (doneAt === null && s.final >= rows) doneAt = Date.now();
        if (doneAt !== null && Date.now() - doneAt >= tailSeconds * 1000) break;
        await new Promise((r) => setTimeout(r, SAMPLE_EVERY_MS));
      }
      await messagesVacuum;
    })();
    try {
      wizardId = (await startBulk(world, SIM_CHANNEL_IDS.main, rows, 90576)).id;
    } catch (error) {
      sampling = false;
      await sampler;
      throw error;
    }
    await sampler;
    if (doneAt === null) throw new Error(`soak: the send did not finish before the deadline (${samples.at(-1)?.final ?? 0}/${rows} final)`);
    const vacuumNote = autovacuum === 'on' ? 'on' : `${autovacuum} on the server; the soak vacuumed the bounded tables every ${VACUUM_EVERY_MS / 1000} s and messages every ${MESSAGES_VACUUM_EVERY_MS / 60_000} min as a stand-in`;
    return summarise(rows, samples, (doneAt - t0) / 1000, vacuumNote);
  } finally {
    await probe.close();
    await world.close();
  }
}

function summarise(rows: number, samples: SoakSample[], sendSeconds: number, autovacuum: string): SoakResult {
  const at10 = samples.find((s) => s.final >= rows * 0.1) ?? samples[0];
  const at100 = samples.find((s) => s.final >= rows) ?? samples[samples.length - 1];
  const maxBytes = Object.fromEntries(BOUNDED.map((t) => [t, Math.max(...samples.map((s) => s.bytes[t] ?? 0))]));
  const maxWebhookEventRows = Math.max(...samples.map((s) => s.webhookEventRows));
  const header = ['t (s)', 'handed off', 'rows final', 'RSS MB', 'messages MB', 'webhook_events rows', ...BOUNDED.map((t) => `${t} MB`)];
  const table = [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => '---').join('|')}|`,
    ...samples.map((s) => `| ${[s.seconds, s.handed, s.final, s.rssMb, mb(s.bytes.messages), s.webhookEventRows, ...BOUNDED.map((t) => mb(s.bytes[t]))].join(' | ')} |`),
  ].join('\n');
  const ratio = at100.rssMb / at10.rssMb;
  const summary = [
    `- rows: ${rows.toLocaleString('en')}, all final after ${sendSeconds.toFixed(0)} s (${(rows / sendSeconds).toFixed(0)} msg/s from the start request)`,
    `- service RSS at 10 % of the rows final (t = ${at10.seconds} s): ${at10.rssMb} MB; at 100 % (t = ${at100.seconds} s): ${at100.rssMb} MB; ratio ${ratio.toFixed(2)}`,
    `- RSS min / max over the run: ${Math.min(...samples.map((s) => s.rssMb))} / ${Math.max(...samples.map((s) => s.rssMb))} MB`,
    `- max webhook_events rows: ${maxWebhookEventRows.toLocaleString('en')} (retention ${RETENTION_SECONDS} s); at the end: ${samples[samples.length - 1].webhookEventRows.toLocaleString('en')}`,
    `- largest size of the bounded tables: ${BOUNDED.map((t) => `${t} ${mb(maxBytes[t])} MB`).join(', ')}`,
    `- messages at the end: ${mb(samples[samples.length - 1].bytes.messages)} MB (grows with N)`,
    `- autovacuum: ${autovacuum}`,
  ].join('\n');
  return { rows, samples, rss10: at10.rssMb, rss100: at100.rssMb, ratio, maxWebhookEventRows, maxBytes, sendSeconds, autovacuum, markdown: `${summary}\n\n${table}\n` };
}

function argument(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

/** Writes the dated log docs/history/benchmarks-soak-<date>.md from a result; returns its path under docs/. */
export async function writeSoakDoc(result: SoakResult, command: string): Promise<string> {
  const file = `history/benchmarks-soak-${new Date().toISOString().slice(0, 10)}.md`;
  const doc = `# Soak: bounded memory and tables during a long send

Measured by \`${command}\` on ${new Date().toISOString().slice(0, 10)}, ${machine()}.
One \`tms serve\` process on PostgreSQL (NETWORK=cloud against the standalone simulator, caps off, the simulator's
webhooks on: sent, delivered, read per message, batched up to 100 statuses a body, one webhook_events row a
body), one bulk send of ${result.rows.toLocaleString('en')} unique recipients, total_time 0,
WEBHOOK_RETENTION_SECONDS=${RETENTION_SECONDS}. Every ${SAMPLE_EVERY_MS / 1000} s: the service's VmRSS and pg_total_relation_size of
each table (indexes and TOAST included); after the last row is final the sampling goes on for a tail. Sizes of
tables PostgreSQL deletes from do not shrink (vacuum makes the space reusable): bounded means a plateau.

${result.markdown}`;
  await writeFile(new URL(`../docs/${file}`, import.meta.url), doc);
  return file;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const rows = argument('--rows', 200_000);
  const tail = argument('--tail-seconds', 90);
  soak(rows, tail)
    .then(async (result) => {
      console.log(result.markdown);
      const file = await writeSoakDoc(result, `npx tsx bench/soak.ts --rows ${rows} --tail-seconds ${tail}`);
      console.log(`written to docs/${file}`);
      process.exit(0);
    })
    .catch((error: unknown) => {
      console.error(error);
      process.exit(1);
    });
}
