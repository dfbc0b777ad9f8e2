import { after, before, beforeEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { claimDeliveries, markAttemptFailed, markDelivered } from '../../src/store/webhook-deliveries.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;

before(async () => {
  store = await createTestStore();
  const db = store.db;
  await sql`insert into companies (id, name) values ('ca', 'A'), ('cb', 'B')`.execute(db);
  await sql`insert into channels (id, company_id, waba_id, access_token) values ('101', 'ca', '9', 'x'), ('102', 'cb', '9', 'x')`.execute(db);
  await sql`
    insert into messages (id, company_id, channel_id, template_id, waba_id, phone_number, status, payload)
    select 'ma' || g, 'ca', '101', 't', '9', '+90555' || g, 'NONE', '{}'::jsonb from generate_series(1, 3) g
    union all
    select 'mb' || g, 'cb', '102', 't', '9', '+90556' || g, 'NONE', '{}'::jsonb from generate_series(1, 3) g`.execute(db);
});
after(() => store?.cleanup());
beforeEach(async () => {
  await sql`delete from webhook_deliveries`.execute(store.db);
  await sql`delete from webhook_endpoints`.execute(store.db);
  await sql`update messages set status = 'NONE'`.execute(store.db);
  await sql`delete from webhook_deliveries`.execute(store.db);
});

const count = async (where = sql`true`) =>
  Number((await sql<{ n: number }>`select count(*)::int as n from webhook_deliveries where ${where}`.execute(store.db)).rows[0]!.n);

async function endpoint(id: string, company: string, events: string[], enabled = true) {
  await sql`insert into webhook_endpoints (id, company_id, url, events, secret, enabled)
            values (${id}, ${company}, 'http://127.0.0.1:9/x', ${events}::text[], 's', ${enabled})`.execute(store.db);
}

test('with no endpoint, status changes write nothing to the outbox', async () => {
  await sql`update messages set status = 'QUEUED'`.execute(store.db);
  assert.equal(await count(), 0);
});

test("only the subscribed company's changes are written, one row per changed status and endpoint, sharing the event id", async () => {
  await endpoint('e1', 'ca', ['*']);
  await endpoint('e2', 'ca', ['message.status_changed']);
  await endpoint('e3', 'ca', ['bulk_send.status_changed']);
  await endpoint('e4', 'cb', ['*'], false);
  await sql`update messages set status = 'QUEUED'`.execute(store.db);
  await sql`update messages set version = version + 1`.execute(store.db); // no status change
  assert.equal(await count(), 6);
  assert.equal(await count(sql`company_id = 'cb'`), 0, 'a disabled endpoint gets nothing');
  assert.equal(await count(sql`endpoint_id = 'e3'`), 0, 'a bulk-only subscription gets no message events');
  const shared = await sql<{ n: number }>`select count(distinct event_id)::int as n from webhook_deliveries`.execute(store.db);
  assert.equal(shared.rows[0]!.n, 3, 'each change has one event id across endpoints');
  const row = (await sql<{ data: Record<string, unknown> }>`select data from webhook_deliveries where order_key = 'ma1' limit 1`.execute(store.db)).rows[0]!;
  assert.equal(row.data.previous_status, 'NONE');
  assert.equal(row.data.status, 'QUEUED');
  assert.equal(row.data.phone_number, '+905551');
});

test('a change rolled back leaves no outbox row (same transaction)', async () => {
  await endpoint('e1', 'ca', ['*']);
  await assert.rejects(store.db.transaction().execute(async (tx) => {
    await sql`update messages set status = 'QUEUED' where company_id = 'ca'`.execute(tx);
    throw new Error('roll back');
  }));
  assert.equal(await count(), 0);
});

test('the claim hands out only the head of each message: n+1 after n is delivered or given up', async () => {
  await endpoint('e1', 'ca', ['*']);
  await sql`update messages set status = 'QUEUED' where id = 'ma1'`.execute(store.db);
  await sql`update messages set status = 'AGENDA' where id = 'ma1'`.execute(store.db);
  await sql`update messages set status = 'OPT_IN_SUCCESS' where id = 'ma1'`.execute(store.db);
  await sql`update messages set status = 'QUEUED' where id = 'ma2'`.execute(store.db);
  const first = await claimDeliveries(store.db, 'e1', 'w1', 10, 30);
  assert.deepEqual(first.map((r) => [r.order_key, (r.data as { status: string }).status]).sort(), [['ma1', 'QUEUED'], ['ma2', 'QUEUED']]);
  assert.deepEqual(await claimDeliveries(store.db, 'e1', 'w2', 10, 30), [], 'nothing else is claimable while the heads are out');
  const ma1 = first.find((r) => r.order_key === 'ma1')!;
  await markDelivered(store.db, String(ma1.id), 200);
  const second = await claimDeliveries(store.db, 'e1', 'w1', 10, 30);
  assert.deepEqual(second.map((r) => (r.data as { status: string }).status), ['AGENDA']);
  await markAttemptFailed(store.db, 'w1', String(second[0]!.id), { statusCode: 500, error: 'HTTP 500', retryAt: null });
  const third = await claimDeliveries(store.db, 'e1', 'w1', 10, 30);
  assert.deepEqual(third.map((r) => (r.data as { status: string }).status), ['OPT_IN_SUCCESS'], 'a given-up event lets the next go');
});

test('a retried head holds its successors until its retry time', async () => {
  await endpoint('e1', 'ca', ['*']);
  await sql`update messages set status = 'QUEUED' where id = 'ma3'`.execute(store.db);
  await sql`update messages set status = 'AGENDA' where id = 'ma3'`.execute(store.db);
  const [head] = await claimDeliveries(store.db, 'e1', 'w1', 10, 30);
  await markAttemptFailed(store.db, 'w1', String(head!.id), { statusCode: null, error: 'timeout', retryAt: new Date(Date.now() + 60_000) });
  assert.deepEqual(await claimDeliveries(store.db, 'e1', 'w1', 10, 30), []);
  const states = await sql<{ state: string; attempts: number }>`select state, attempts from webhook_deliveries order by id`.execute(store.db);
  assert.deepEqual(states.rows, [{ state: 'PENDING', attempts: 1 }, { state: 'PENDING', attempts: 0 }]);
});
