import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { onPostgres } from '../support/db.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';

// Single sends on a capped channel far from its quota reserve their slots under a shared lock of the channel's
// window (in parallel), near the quota under the exclusive one; the quota holds either way.
let h: Harness;
let template: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness();
  template = await approvedTemplate(h, channel);
  // The main number at TIER_250, its health fresh for an hour (no network read changes it back meanwhile).
  await h.store.db.updateTable('channels')
    .set({ messaging_limit_tier: 'TIER_250', refreshed_at: new Date(Date.now() + 3600_000) })
    .where('id', '=', channel).execute();
});
after(() => h.close());

test('single sends racing for a TIER_250 window never pass it: 250 numbers accepted, the rest TIER_LIMIT_REACHED', async () => {
  const numbers = Array.from({ length: 270 }, (_, i) => `90555${String(i * 10 + 13).padStart(7, '0')}`);
  const answers = await Promise.all(numbers.map((phone) =>
    singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: template, message_template: sendParams() })));
  const statuses = answers.map((a) => (a.status === 200 ? 'ok' : a.body.data?.code ?? a.body.errors?.[0]?.code ?? JSON.stringify(a.body)));
  assert.equal(statuses.filter((s) => s === 'ok').length, 250, JSON.stringify(statuses.filter((s) => s !== 'ok').slice(0, 3)));
  assert.equal(answers.filter((a) => a.status === 429 || a.status === 422).length, 20);
  const used = await sql<{ n: number }>`select count(*)::int as n from tier_recipients where channel_id = ${channel}`.execute(h.store.db);
  assert.equal(used.rows[0].n, 250);
  // A number already in the window costs no slot: it is still accepted with the window full.
  const again = await singleSend(h, { channel_id: channel, phone_number: numbers[0], message_template_id: template, message_template: sendParams() });
  assert.equal(again.status, 200, JSON.stringify(again.body));
});

// Only PostgreSQL has a second connection to hold a lock with.
if (onPostgres) {
  test('a single send far from its quota does not wait for the channel row lock', async () => {
    await h.store.db.updateTable('channels').set({ messaging_limit_tier: 'TIER_10K' }).where('id', '=', channel).execute();
    await h.store.db.transaction().execute(async (tx) => {
      // Another transaction holds the channel row as a health update does (`for no key update`: a message's foreign
      // key still takes its key-share lock) for as long as the send takes.
      await sql`select id from channels where id = ${channel} for no key update`.execute(tx);
      const send = singleSend(h, { channel_id: channel, phone_number: '905559990013', message_template_id: template, message_template: sendParams() });
      const blocked = new Promise<'blocked'>((resolve) => setTimeout(() => resolve('blocked'), 20_000).unref());
      const res = await Promise.race([send, blocked]);
      assert.notEqual(res, 'blocked', 'the send waited for the channel row');
      assert.equal((res as Awaited<typeof send>).status, 200);
    });
  });
}
