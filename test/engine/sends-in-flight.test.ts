import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

// Every channel's sends share the process's room in flight (`sendsInFlight`): a marked send finds a connection at
// once instead of waiting behind every other channel's.
const ROOM = 4;
/** A send the network accepted, whatever its recipient's phone did with it since. */
const HANDED_OFF = ['SENT_TO_BACKEND', 'BACKEND_SENT', 'BACKEND_DELIVERED', 'BACKEND_SEEN', 'BACKEND_FAILED'];
const channels = [SIM_CHANNEL_IDS.main, SIM_CHANNEL_IDS.small];
let h: Harness;
const templates = new Map<string, string>();

before(async () => {
  h = await startHarness({}, { dispatcher: { sendsInFlight: ROOM } });
  for (const channel of channels) templates.set(channel, await approvedTemplate(h, channel));
});
after(() => h.close());

test('sends of several channels at once never exceed the process room at the network, and all go out', async () => {
  // Each answer takes 150 ms, so the sends of both channels would overlap if each channel used its own room.
  await simAdmin(h, '/_sim/faults', { latencyMs: 150 });
  try {
    const answers = await Promise.all(channels.flatMap((channel, c) => Array.from({ length: 10 }, (_, i) =>
      singleSend(h, { channel_id: channel, phone_number: `9055510${c}${String(i).padStart(4, '0')}`, message_template_id: templates.get(channel), message_template: sendParams() }))));
    for (const a of answers) assert.equal(a.status, 200, JSON.stringify(a.body));
    const ids = answers.map((a) => a.body.data.message_id as string);
    for (const id of ids) await untilStatus(h, id, HANDED_OFF, 30_000);
    const stats = await simAdmin(h, '/_sim/stats');
    assert.equal(stats.sends_accepted, 20);
    assert.ok(stats.sends_in_flight_peak <= ROOM, `at most ${ROOM} sends in flight at the network (${stats.sends_in_flight_peak})`);
    assert.ok(stats.sends_in_flight_peak >= 2, `the room is used, not one send at a time (${stats.sends_in_flight_peak})`);
  } finally {
    await simAdmin(h, '/_sim/faults', { latencyMs: 0 });
  }
});
