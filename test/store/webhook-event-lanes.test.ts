/**
 * The inbox's lanes split the pending events by channel: each pending event is listed by exactly one lane of a
 * count, every event of one channel by the same lane, and lane 0 also lists the events of no single channel.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { insertWebhookEvents, listPendingWebhookEvents, type WebhookLane } from '../../src/store/webhook-events.js';
import { createTestStore } from '../support/db.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let ids: string[];
/** 40 channels, three bodies each, and 10 bodies of no channel. */
const channels = [...Array.from({ length: 40 }, (_, i) => `1065403522${String(i).padStart(5, '0')}`), null];

before(async () => {
  store = await createTestStore();
  const events = channels.flatMap((channel) => Array.from({ length: channel === null ? 10 : 3 }, (_, n) => ({ body: JSON.stringify({ channel, n }), phoneNumberId: channel })));
  ids = await insertWebhookEvents(store.db, events);
});
after(() => store.cleanup());

/** Every pending event of a lane, walked with the drain's cursor, as id → channel. */
async function walk(lane: WebhookLane | null): Promise<Map<string, string | null>> {
  const seen = new Map<string, string | null>();
  for (let cursor = '0'; ; ) {
    const page = await listPendingWebhookEvents(store.db, cursor, 7, null, lane);
    if (page.length === 0) return seen;
    const rows = (await sql<{ id: string; phone_number_id: string | null }>`
      select id::text as id, phone_number_id from webhook_events where id = any(${page.map((p) => p.id)}::bigint[])`.execute(store.db)).rows;
    for (const r of rows) seen.set(r.id, r.phone_number_id);
    cursor = page[page.length - 1].id;
  }
}

for (const count of [2, 3]) {
  test(`${count} lanes list every pending event once, each channel in one lane, and events of no channel in lane 0`, async () => {
    const lanes = await Promise.all(Array.from({ length: count }, (_, index) => walk({ index, count })));
    const listed = lanes.flatMap((lane) => [...lane.keys()]).sort((a, b) => Number(a) - Number(b));
    assert.deepEqual(listed, ids, 'each pending event in exactly one lane');
    for (const channel of channels.filter((c) => c !== null)) {
      const holding = lanes.filter((lane) => [...lane.values()].includes(channel));
      assert.equal(holding.length, 1, `channel ${channel} in one lane`);
    }
    assert.ok([...lanes[0].values()].filter((c) => c === null).length === 10, 'lane 0 takes the events of no channel');
    assert.ok(lanes.every((lane) => lane.size > 0), 'every lane has a share of 40 channels');
  });
}

test('one lane (or none) lists every pending event', async () => {
  assert.equal((await walk({ index: 0, count: 1 })).size, ids.length);
  assert.equal((await walk(null)).size, ids.length);
});
