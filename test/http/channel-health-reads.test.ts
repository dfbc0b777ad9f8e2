import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { findChannelById } from '../../src/store/channels.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams } from '../support/sending.js';

// How single sends read a channel's health from the network, counted by the simulator's request log: the service
// reaches the simulator over HTTP and the requests reach the service over HTTP.
const MAX_AGE_MS = 2000;
// A burst on a slow machine can outlast half of MAX_AGE_MS, when a refresh ahead of expiry is due and rightly
// made: the burst's own harness keeps its health long enough that any read in it is one the burst caused.
const BURST_MAX_AGE_MS = 600_000;
let h: Harness;
let burst: Harness;
let templateId: string;
let burstTemplateId: string;
const channel = SIM_CHANNELS[0].id;
let phone = 0;
const nextPhone = () => `90532${String(1_000_000 + (phone += 1))}`;

before(async () => {
  [h, burst] = await Promise.all([
    startHarness({}, { channelMaxAgeMs: MAX_AGE_MS }),
    startHarness({}, { channelMaxAgeMs: BURST_MAX_AGE_MS }),
  ]);
  [templateId, burstTemplateId] = await Promise.all([approvedTemplate(h, channel), approvedTemplate(burst, channel)]);
});
after(() => Promise.all([h.close(), burst.close()]));

/** A single send over HTTP through a harness (the short-lived health one unless named); its status. */
async function send(on: Harness = h, template = templateId): Promise<number> {
  const res = await fetch(`${on.appUrl}/agent-app/message-template/single-messagev2`, {
    method: 'POST',
    headers: { authorization: `Bearer ${on.a.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ channel_id: channel, phone_number: nextPhone(), message_template_id: template, message_template: sendParams() }),
  });
  await res.text();
  return res.status;
}

/** Graph reads of the channel's phone number since the request log was cleared. */
async function healthReads(on: Harness): Promise<number> {
  const { items } = (await simAdmin(on, '/_sim/requests')) as { items: Array<{ method: string; path: string }> };
  return items.filter((i) => i.method === 'GET' && i.path.endsWith(`/${channel}`)).length;
}

test('concurrent single sends to a channel whose health was never read make one Graph read', async () => {
  await sql`update channels set refreshed_at = null where id = ${channel}`.execute(burst.store.db);
  await simAdmin(burst, '/_sim/requests/clear', {});
  const statuses = await Promise.all(Array.from({ length: 24 }, () => send(burst, burstTemplateId)));
  assert.deepEqual(statuses, Array(24).fill(200));
  assert.equal(await healthReads(burst), 1);
  assert.ok((await findChannelById(burst.store.db, channel))!.refreshed_at);
});

test('a channel in use is read again before its health expires', async () => {
  // Fresh health to start from, then a stream of sends for a little over two maximum ages.
  await sql`update channels set refreshed_at = null where id = ${channel}`.execute(h.store.db);
  assert.equal(await send(), 200);
  const seen: number[] = [];
  const end = Date.now() + MAX_AGE_MS * 2.6;
  while (Date.now() < end) {
    assert.equal(await send(), 200);
    const at = (await findChannelById(h.store.db, channel))!.refreshed_at!.getTime();
    if (seen.at(-1) !== at) seen.push(at);
    await new Promise((r) => setTimeout(r, 20));
  }
  // A read made only once the health expired comes more than the maximum age after the last one; reads made
  // ahead of expiry come at about half of it, so the stored health never expired while the sends ran.
  assert.ok(seen.length >= 3, `refreshes seen: ${seen.length}`);
  for (let i = 1; i < seen.length; i += 1) {
    assert.ok(seen[i] - seen[i - 1] < MAX_AGE_MS, `refresh ${i} came ${seen[i] - seen[i - 1]} ms after the one before`);
  }
});
