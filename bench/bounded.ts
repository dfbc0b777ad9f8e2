/**
 * Bounded memory and tables, one short run: `npx tsx --expose-gc bench/bounded.ts [--pg]`.
 * 1. Webhook-event retention: N applied events past retention (1 KB bodies), deleted by the dispatcher's
 *    retention loop (indexed batches of 5,000); deletes/s against the 3,000 events/s that 1,000 mps × 3
 *    status events produce. The old statement (10,000 a minute, unindexed) is timed on one batch too.
 * 2. Pair-rate memory: heap held after 1,000,000 distinct recipients at 1,000 per second (simulated clock),
 *    the old unbounded Map against PairRateMemory.
 * Prints a table; figures go to docs/decisions.md by hand.
 */
import { sql } from 'kysely';
import pino from 'pino';
import { Dispatcher } from '../src/engine/dispatcher.js';
import { PairRateMemory } from '../src/engine/pair-rate-memory.js';
import type { NetworkPort } from '../src/network/port.js';
import { migrate, openDatabase, type Store } from '../src/store/db.js';
import { createPgDatabase } from '../test/support/db.js';

const N = Number(process.env.BENCH_EVENTS ?? 200_000);
const rows: string[][] = [];

function heapMb(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().heapUsed / 1e6;
}

async function retention(kind: 'pglite' | 'postgres'): Promise<void> {
  let store: Store;
  let drop = async () => {};
  if (kind === 'postgres') {
    const database = await createPgDatabase();
    store = await openDatabase({ databaseUrl: database.url });
    drop = database.drop;
  } else {
    store = await openDatabase({ memory: true });
  }
  try {
    await migrate(store.db);
    const body = JSON.stringify({ pad: 'x'.repeat(1000) });
    for (let done = 0; done < N; done += 50_000) {
      await sql`insert into webhook_events (body, state, applied_at)
        select ${body}, 'APPLIED', now() - interval '8 days' from generate_series(1, ${Math.min(50_000, N - done)})`.execute(store.db);
    }
    // Recent applied events that must stay (a day of them would be far more; the index keeps them out of the scan).
    await sql`insert into webhook_events (body, state, applied_at) select ${body}, 'APPLIED', now() from generate_series(1, 50000)`.execute(store.db);
    if (kind === 'postgres') await sql`analyze webhook_events`.execute(store.db);
    // The old statement: one batch of 10,000 through the unindexed subquery (its cap was one batch a minute).
    const oldStarted = performance.now();
    await sql`delete from webhook_events where id in (select id from webhook_events
      where state = 'APPLIED' and applied_at < now() - interval '7 days' limit 10000)`.execute(store.db);
    const oldMs = performance.now() - oldStarted;
    const dispatcher = new Dispatcher({ db: store.db, network: {} as NetworkPort, log: pino({ level: 'silent' }), health: {} as never });
    const started = performance.now();
    const deleted = await dispatcher.applyWebhookRetention(10 * 60_000);
    const seconds = (performance.now() - started) / 1000;
    const left = await sql<{ n: number }>`select count(*)::int as n from webhook_events`.execute(store.db);
    rows.push([
      `retention (${kind})`,
      `${N.toLocaleString('en')} applied events past retention + 50,000 recent; batches of 5,000`,
      `${Math.round(deleted / seconds).toLocaleString('en')} deletes/s (${(deleted / seconds / 3000).toFixed(1)}× the 3,000/s of 1,000 mps × 3); ` +
        `${left.rows[0].n.toLocaleString('en')} left; old statement: 10,000 in ${Math.round(oldMs)} ms, capped at 10,000/min = 167/s`,
    ]);
  } finally {
    await store.close();
    await drop();
  }
}

function pairMemory(): void {
  const gap = 6000;
  let now = 0;
  const base = heapMb();
  const old = new Map<string, number>();
  for (let i = 0; i < 1_000_000; i += 1) old.set(`9055${String(i).padStart(8, '0')}`, (now += 1));
  const oldMb = heapMb() - base;
  old.clear();
  const base2 = heapMb();
  now = 0;
  const memory = new PairRateMemory(gap, () => now);
  for (let i = 0; i < 1_000_000; i += 1) {
    now += 1;
    memory.set(`9055${String(i).padStart(8, '0')}`, now);
  }
  const newMb = heapMb() - base2;
  rows.push([
    'pair-rate memory',
    '1,000,000 distinct recipients at 1,000/s, pair gap 6 s',
    `old Map ${oldMb.toFixed(0)} MB (1,000,000 entries); PairRateMemory ${newMb.toFixed(1)} MB (${memory.size.toLocaleString('en')} entries)`,
  ]);
}

async function main(): Promise<void> {
  pairMemory();
  await retention('pglite');
  if (process.argv.includes('--pg')) await retention('postgres');
  console.log(['| scenario | setup | measured |', '|---|---|---|', ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n'));
}

void main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
