import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { postSignedWebhook } from '../test/support/status-webhooks.js';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../src/network/simulator/constants.js';
import { phones, reportRows, startV1, untilWizard, v1Rows } from '../test/support/bulk.js';
import { assertRowMatchesNetwork } from '../test/support/expectations.js';
import { eventually, simAdmin, startHarness, type Harness } from '../test/support/harness.js';
import { approvedTemplate } from '../test/support/sending.js';

const FULL = process.env.TMS_CHAOS_FULL === '1';
/** "Delayed by minutes" in the full form; seconds in the short form CI runs. */
const DELAY_MS = FULL ? 120_000 : 4_000;
const ROWS = FULL ? 300 : 100;
const channel = SIM_CHANNEL_IDS.main;
let h: Harness;
let templateId: string;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null }, seed: 11, webhookRetryWindowMs: 10 * 60_000 });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

test('duplicated, reordered, delayed and forged status webhooks: final states right, forged ones refused and counted', async () => {
  await simAdmin(h, '/_sim/faults', { duplicateRate: 0.3, reorderWindowMs: 1500, webhookDelayMs: DELAY_MS });
  const rejectedBefore = (await h.call('GET', '/health', { token: null })).body.webhooks_rejected;
  const numbers = [...phones(ROWS - 2, '9056200'), '905620000001', '905620000002'];
  const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(numbers), total_time: 0, channel_id: channel });
  try {
    // While the real events are held back, forge "failed" events for the same messages.
    const handed = await eventually(async () => {
      const rows = await h.store.db.selectFrom('messages' as never).select(['id', 'ext_id', 'phone_number'] as never).where('send_wizard_id' as never, '=', id as never).where('ext_id' as never, 'is not', null as never).execute() as Array<{ id: string; ext_id: string; phone_number: string }>;
      return rows.length >= 10 ? rows : undefined;
    }, 30_000);
    let forged = 0;
    for (const m of handed.slice(0, 10)) {
      const body = JSON.stringify({
        object: 'whatsapp_business_account',
        entry: [{ id: SIM_WABA_ID, changes: [{ field: 'messages', value: { statuses: [{ id: m.ext_id, status: 'failed', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: m.phone_number.slice(1), biz_opaque_callback_data: m.id, errors: [{ code: 131049, title: 'forged' }] }] } }] }],
      });
      assert.equal(await postSignedWebhook(h, body, 'attacker-secret'), 401);
      forged += 1;
    }
    assert.equal((await h.call('GET', '/health', { token: null })).body.webhooks_rejected, rejectedBefore + forged);
    await untilWizard(h, channel, id, ['COMPLETED'], DELAY_MS + 60_000);
    // Every row's last events (read) are delayed too: wait until the funnel is complete.
    await eventually(async () => {
      const rows = await reportRows(h, id);
      return rows.filter((r: { status: string }) => r.status === 'BACKEND_SEEN').length >= ROWS - 2;
    }, DELAY_MS + 60_000);
  } finally {
    await simAdmin(h, '/_sim/faults', { duplicateRate: 0, reorderWindowMs: 0, webhookDelayMs: 0 });
  }
  const rows = await reportRows(h, id);
  for (const row of rows) {
    const got = await simAdmin(h, `/_sim/received?to=${encodeURIComponent(row.phone_number)}`);
    assertRowMatchesNetwork(row, got.messages.length);
    assert.notEqual(row.error_message, 'forged');
  }
  const seen = rows.filter((r: { status: string; seen_time?: string; delivered_time?: string; sended_time?: string }) => r.status === 'BACKEND_SEEN');
  for (const r of seen) assert.ok(r.seen_time && r.delivered_time && r.sended_time, 'every funnel time is set');
});
