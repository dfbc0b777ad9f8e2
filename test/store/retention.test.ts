/**
 * Webhook-event retention: applied events past retention are deleted in indexed batches until
 * none is left; recent and unapplied events stay.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { Dispatcher } from '../../src/engine/dispatcher.js';
import type { NetworkPort } from '../../src/network/port.js';
import { deleteOldAppliedWebhookEvents } from '../../src/store/webhook-events.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
before(async () => {
  store = await createTestStore();
});
after(() => store.cleanup());

const DAY = 24 * 3600;

async function insertEvents(n: number, state: string, appliedAgoSeconds: number | null): Promise<void> {
  await sql`
    insert into webhook_events (body, state, applied_at)
    select '{}', ${state},
      case when ${appliedAgoSeconds}::int is null then null else now() - make_interval(secs => ${appliedAgoSeconds}::int) end
    from generate_series(1, ${n})`.execute(store.db);
}

async function countByState(): Promise<Record<string, number>> {
  const rows = await sql<{ state: string; old: boolean; n: number }>`
    select state, coalesce(applied_at < now() - interval '7 days', false) as old, count(*)::int as n
    from webhook_events group by 1, 2`.execute(store.db);
  return Object.fromEntries(rows.rows.map((r) => [`${r.state}${r.old ? '_old' : ''}`, r.n]));
}

test('retention deletes every applied event past the window in batches and keeps recent and unapplied ones', async () => {
  await sql`delete from webhook_events`.execute(store.db);
  await insertEvents(12_345, 'APPLIED', 8 * DAY);
  await insertEvents(50, 'APPLIED', 3600);
  await insertEvents(20, 'RECEIVED', null);
  await insertEvents(5, 'FAILED', null);
  const dispatcher = new Dispatcher({ db: store.db, network: {} as NetworkPort, log: pino({ level: 'silent' }), health: {} as never });
  const deleted = await dispatcher.applyWebhookRetention(60_000);
  assert.equal(deleted, 12_345);
  assert.deepEqual(await countByState(), { APPLIED: 50, RECEIVED: 20, FAILED: 5 });
});

test('one retention statement deletes at most its batch, oldest first', async () => {
  await sql`delete from webhook_events`.execute(store.db);
  await insertEvents(30, 'APPLIED', 9 * DAY);
  await insertEvents(30, 'APPLIED', 8 * DAY);
  assert.equal(await deleteOldAppliedWebhookEvents(store.db, 7 * DAY, 30), 30);
  const left = await sql<{ n: number }>`select count(*)::int as n from webhook_events where applied_at < now() - interval '8 days 12 hours'`.execute(store.db);
  assert.equal(left.rows[0].n, 0);
  assert.equal(await deleteOldAppliedWebhookEvents(store.db, 7 * DAY, 100), 30);
});

test('the retention statement finds old applied events through the applied_at index', async () => {
  const plan = await store.db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const result = await sql<{ 'QUERY PLAN': string }>`
      explain select id from webhook_events
      where state = 'APPLIED' and applied_at < now() - make_interval(secs => 604800)
      order by applied_at limit 5000`.execute(tx);
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
  assert.match(plan, /webhook_events_applied/);
});

test('the retention window comes from the dispatcher options: a 60 s window deletes applied events older than it and keeps newer ones', async () => {
  await sql`delete from webhook_events`.execute(store.db);
  await insertEvents(40, 'APPLIED', 120);
  await insertEvents(15, 'APPLIED', 10);
  const options = { webhookRetentionSeconds: 60 };
  const dispatcher = new Dispatcher({ db: store.db, network: {} as NetworkPort, log: pino({ level: 'silent' }), health: {} as never, options });
  assert.equal(await dispatcher.applyWebhookRetention(60_000), 40);
  assert.deepEqual(await countByState(), { APPLIED: 15 });
});
