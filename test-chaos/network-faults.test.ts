import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../src/network/simulator/constants.js';
import { phones, reportRows, startV1, untilWizard, v1Rows } from '../test/support/bulk.js';
import { assertRowMatchesNetwork } from '../test/support/expectations.js';
import { simAdmin, startHarness, type Harness } from '../test/support/harness.js';
import { approvedTemplate } from '../test/support/sending.js';

const FULL = process.env.TMS_CHAOS_FULL === '1';
const ROWS = FULL ? 400 : 120;
const channel = SIM_CHANNEL_IDS.main;
let h: Harness;
let templateId: string;

before(async () => {
  h = await startHarness(
    { timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null }, seed: 7 },
    { dispatcher: { retryBaseMs: 50, reconcileWindowSeconds: 5, maintenanceMs: 200 }, channelMaxAgeMs: 3_600_000 },
  );
  templateId = await approvedTemplate(h, channel);
  assert.equal((await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${channel}`)).status, 200);
});
after(() => h.close());

for (const rate of [0.05, 0.2]) {
  test(`network faults at ${rate * 100}% (Graph errors, 5xx, timeouts, latency): every row final, right state and error, no duplicates`, async () => {
    await simAdmin(h, '/_sim/faults', { errorRate: rate, serverErrorRate: rate, timeoutRate: rate / 4, latencyMs: 20 });
    const prefix = rate === 0.05 ? '9056105' : '9056120';
    // Include the recipient rules: 000 (not on WhatsApp), 001 (fails 131049), 002 (never read).
    const numbers = [...phones(ROWS - 3, prefix), `${prefix}00000`, `${prefix}00001`, `${prefix}00002`];
    let id: string;
    try {
      id = await startV1(h, { message_template_id: templateId, rows: v1Rows(numbers), total_time: 0, channel_id: channel });
      await untilWizard(h, channel, id, ['COMPLETED'], 240_000);
    } finally {
      await simAdmin(h, '/_sim/faults', { errorRate: 0, serverErrorRate: 0, timeoutRate: 0, latencyMs: 0 });
    }
    // Let the last status webhooks land, then compare every row with what the phones received.
    await new Promise((r) => setTimeout(r, 1500));
    const rows = await reportRows(h, id);
    assert.equal(rows.length, numbers.length);
    for (const row of rows) {
      const got = await simAdmin(h, `/_sim/received?to=${encodeURIComponent(row.phone_number)}`);
      assertRowMatchesNetwork(row, got.messages.length);
    }
    assert.equal((await simAdmin(h, '/_sim/stats')).duplicate_sends, 0);
  });
}
