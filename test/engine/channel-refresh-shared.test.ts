import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pino from 'pino';
import { addChannel, createCompany } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { freshChannel, type ChannelHealthDeps } from '../../src/engine/channel-health.js';
import type { NetworkPort, PhoneNumberInfo } from '../../src/network/port.js';
import { findChannelById } from '../../src/store/channels.js';
import { createTestStore } from '../support/db.js';

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

  // Once that read is over, a stale row is read from the network again.
  const later = slowNetwork({ quality_rating: 'RED' });
  later.release();
  const again = await freshChannel({ ...deps, network: later.network }, stale);
  assert.equal(later.reads(), 1);
  assert.equal(again.quality_rating, 'RED');
});

test('a failed shared read fails every request that waited for it, and the next one tries again', async () => {
  let reads = 0;
  const network = { getPhoneNumber: async () => { reads += 1; await new Promise((r) => setTimeout(r, 20)); throw new Error('network down'); } } as unknown as NetworkPort;
  const deps: ChannelHealthDeps = { db: store.db, network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets };
  const never = { ...(await findChannelById(store.db, channelId))!, refreshed_at: null };
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => freshChannel(deps, never)));
  assert.equal(reads, 1);
  assert.deepEqual(results.map((r) => r.status), Array(5).fill('rejected'));
  await assert.rejects(freshChannel(deps, never));
  assert.equal(reads, 2);
});
