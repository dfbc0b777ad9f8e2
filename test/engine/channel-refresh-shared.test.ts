import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { freshChannel, refreshChannel, type ChannelHealthDeps } from '../../src/engine/channel-health.js';
import type { NetworkPort, PhoneNumberInfo } from '../../src/network/port.js';
import { applyChannelQualityEvent, findChannelById } from '../../src/store/channels.js';
import { createTestStore } from '../support/db.js';
import { eventually } from '../support/harness.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
const secrets = createSecretBox('0'.repeat(64));
const channelId = '100000000000777';

before(async () => {
  store = await createTestStore();
  const { companyId } = await createCompany(store.db, 'Shared refresh');
  await addChannel(store.db, { companyId, phoneNumberId: channelId, wabaId: '1', accessToken: 't' }, secrets);
});
after(() => store.cleanup());

/** A network whose phone-number reads are counted and answer when `release` is called. */
function slowNetwork(info: Partial<PhoneNumberInfo>) {
  let reads = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const network = {
    getPhoneNumber: async () => {
      reads += 1;
      await gate;
      return { id: channelId, display_phone_number: '+1 555 0100', verified_name: 'Shop', status: 'CONNECTED', quality_rating: 'GREEN', messaging_limit_tier: 'TIER_2K', ...info };
    },
  } as unknown as NetworkPort;
  return { network, reads: () => reads, release };
}

test('requests that find a channel stale together share one network read and one stored refresh', async () => {
  const net = slowNetwork({ quality_rating: 'YELLOW' });
  const deps: ChannelHealthDeps = { db: store.db, network: net.network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets };
  const stale = (await findChannelById(store.db, channelId))!;
  assert.equal(stale.refreshed_at, null);
  const answers = Array.from({ length: 20 }, () => freshChannel(deps, stale));
  await new Promise((r) => setTimeout(r, 20));
  net.release();
  const rows = await Promise.all(answers);
  assert.equal(net.reads(), 1);
  for (const row of rows) {
    assert.equal(row.quality_rating, 'YELLOW');
    assert.equal(row.id, channelId);
    assert.ok(row.refreshed_at);
  }
  assert.equal((await findChannelById(store.db, channelId))!.quality_rating, 'YELLOW');

  // Once that read is over, a channel found stale in the store is read from the network again.
  await store.db.updateTable('channels').set({ refreshed_at: null }).where('id', '=', channelId).execute();
  const later = slowNetwork({ quality_rating: 'RED' });
  later.release();
  const again = await freshChannel({ ...deps, network: later.network }, stale);
  assert.equal(later.reads(), 1);
  assert.equal(again.quality_rating, 'RED');
});

test('a request holding a copy read before a shared read stored, asking once it ended, is answered from the store', async () => {
  await store.db.updateTable('channels').set({ refreshed_at: null, quality_rating: 'GREEN' }).where('id', '=', channelId).execute();
  const copiedBefore = (await findChannelById(store.db, channelId))!;
  const net = slowNetwork({ quality_rating: 'YELLOW' });
  const deps: ChannelHealthDeps = { db: store.db, network: net.network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets };
  net.release();
  assert.equal((await freshChannel(deps, copiedBefore)).quality_rating, 'YELLOW');
  const late = await freshChannel(deps, copiedBefore);
  assert.equal(net.reads(), 1);
  assert.equal(late.quality_rating, 'YELLOW');
  assert.ok(late.refreshed_at);
});

test('a failed shared read fails every request that waited for it, and the next one tries again', async () => {
  let reads = 0;
  const network = { getPhoneNumber: async () => { reads += 1; await new Promise((r) => setTimeout(r, 20)); throw new Error('network down'); } } as unknown as NetworkPort;
  const deps: ChannelHealthDeps = { db: store.db, network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets };
  await store.db.updateTable('channels').set({ refreshed_at: null }).where('id', '=', channelId).execute();
  const never = (await findChannelById(store.db, channelId))!;
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => freshChannel(deps, never)));
  assert.equal(reads, 1);
  assert.deepEqual(results.map((r) => r.status), Array(5).fill('rejected'));
  await assert.rejects(freshChannel(deps, never));
  assert.equal(reads, 2);
});

/** A network whose reads are counted and each answer when released, in order, with the next of `answers`. */
function gatedNetwork(answers: Array<Partial<PhoneNumberInfo>>) {
  const gates: Array<() => void> = [];
  let reads = 0;
  const network = {
    getPhoneNumber: async () => {
      const info = answers[reads];
      reads += 1;
      await new Promise<void>((resolve) => gates.push(resolve));
      return { id: channelId, display_phone_number: '+1 555 0100', verified_name: 'Shop', status: 'CONNECTED', quality_rating: 'GREEN', messaging_limit_tier: 'TIER_2K', ...info };
    },
  } as unknown as NetworkPort;
  const until = async (n: number) => {
    const end = Date.now() + 10_000;
    while (gates.length < n) {
      if (Date.now() > end) throw new Error(`${n} reads awaited, ${gates.length} made`);
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  return { network, reads: () => reads, release: async (n: number) => { await until(n + 1); gates[n](); }, until };
}

/** The channel as last read from the network `ageMs` ago, healthy. */
async function readAgo(ageMs: number) {
  await store.db.updateTable('channels').set({ status: 'CONNECTED', quality_rating: 'GREEN', refreshed_at: new Date(Date.now() - ageMs) }).where('id', '=', channelId).execute();
  return (await findChannelById(store.db, channelId))!;
}

test('a channel past half its maximum age is answered at once and read again in the background, once', async () => {
  const net = gatedNetwork([{ quality_rating: 'YELLOW' }]);
  const deps: ChannelHealthDeps = { db: store.db, network: net.network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets };
  const young = await readAgo(10_000);
  assert.equal(await freshChannel(deps, young), young);
  assert.equal(net.reads(), 0);
  const row = await readAgo(20_000);
  // The read's gate is not released: the requests do not wait for it.
  for (let i = 0; i < 5; i += 1) assert.equal(await freshChannel(deps, row), row);
  await net.until(1);
  assert.equal(net.reads(), 1);
  await net.release(0);
  await eventually(async () => (await findChannelById(store.db, channelId))!.quality_rating === 'YELLOW');
  // A request still holding the row read before that refresh does not start another.
  assert.equal(await freshChannel(deps, row), row);
  assert.equal(net.reads(), 1);
});

test('a read begun before a quality event does not overwrite it, and the event\'s read does not share it', async () => {
  const flaggedRed = { status: 'FLAGGED', quality_rating: 'RED' };
  const net = gatedNetwork([{ status: 'CONNECTED' }, flaggedRed, flaggedRed]);
  const deps: ChannelHealthDeps = { db: store.db, network: net.network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets };
  const expired = await readAgo(40_000);
  const request = freshChannel(deps, expired);
  await net.until(1);
  // The webhook's event lands while that read runs, then asks for its own read.
  await applyChannelQualityEvent(store.db, channelId, 'FLAGGED', 'TIER_2K');
  const eventRead = refreshChannel(deps, { ...expired, status: 'FLAGGED' }, { afterEvent: true });
  await net.release(0);
  // The read from before the event is not stored: the request reads again, after the event.
  await net.release(1);
  const answered = await request;
  assert.equal(answered.status, 'FLAGGED');
  assert.equal(answered.quality_rating, 'RED');
  assert.equal((await findChannelById(store.db, channelId))!.status, 'FLAGGED');
  await net.release(2);
  const after = await eventRead;
  assert.equal(net.reads(), 3);
  assert.equal(after.quality_rating, 'RED');
  const stored = (await findChannelById(store.db, channelId))!;
  assert.equal(stored.status, 'FLAGGED');
  assert.equal(stored.quality_rating, 'RED');
  assert.ok(stored.refreshed_at);
});
