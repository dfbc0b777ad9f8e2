import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import {
  acquireChannelLease,
  beatInstanceHeartbeat,
  deleteDeadInstances,
  deleteInstance,
  handOverChannelLease,
  listChannelLeases,
} from '../../src/store/channel-leases.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
const channel = '130000000000001';

before(async () => {
  store = await createTestStore();
  const company = await createCompany(store.db, 'Instance share');
  await addChannel(store.db, { companyId: company.companyId, phoneNumberId: channel, wabaId: '1', accessToken: 't' }, createSecretBox('0'.repeat(64)));
});
after(() => store.cleanup());

test('instances count themselves by heartbeat: a stopped or expired instance no longer counts', async () => {
  assert.equal(await beatInstanceHeartbeat(store.db, 'tms-a', 10), 1);
  assert.equal(await beatInstanceHeartbeat(store.db, 'tms-b', 10), 2);
  assert.equal(await beatInstanceHeartbeat(store.db, 'tms-a', 10), 2, 'a renewal is not a second instance');
  // c's heartbeat already ran out (a killed instance): it does not count.
  await sql`insert into dispatcher_instances (owner, seen_until) values ('tms-c', now() - interval '1 second')`.execute(store.db);
  assert.equal(await beatInstanceHeartbeat(store.db, 'tms-a', 10), 2);
  await deleteInstance(store.db, 'tms-b');
  assert.equal(await beatInstanceHeartbeat(store.db, 'tms-a', 10), 1);
  await sql`update dispatcher_instances set seen_until = now() - interval '2 hours' where owner = 'tms-c'`.execute(store.db);
  await deleteDeadInstances(store.db);
  const left = await sql<{ owner: string }>`select owner from dispatcher_instances order by owner`.execute(store.db);
  assert.deepEqual(left.rows.map((r) => r.owner), ['tms-a']);
});

test('a handed-back lease is nobody\'s during the guard, then any instance takes it', async () => {
  assert.ok(await acquireChannelLease(store.db, channel, 'tms-a', 10));
  assert.ok(!(await acquireChannelLease(store.db, channel, 'tms-b', 10)), 'a live lease is its owner\'s');
  await handOverChannelLease(store.db, channel, 'tms-a', 30);
  assert.ok(!(await acquireChannelLease(store.db, channel, 'tms-a', 10)), 'not even the instance that handed it back');
  assert.ok(!(await acquireChannelLease(store.db, channel, 'tms-b', 10)));
  const [lease] = await listChannelLeases(store.db);
  assert.deepEqual({ owner: lease.owner, live: lease.live }, { owner: 'handover:tms-a', live: true });
  // The guard ran out.
  await sql`update channel_leases set lease_until = now() - interval '1 second'`.execute(store.db);
  assert.equal((await listChannelLeases(store.db))[0].live, false);
  assert.ok(await acquireChannelLease(store.db, channel, 'tms-b', 10));
  // Handing back a lease one does not hold changes nothing.
  await handOverChannelLease(store.db, channel, 'tms-a', 30);
  assert.equal((await listChannelLeases(store.db))[0].owner, 'tms-b');
});
