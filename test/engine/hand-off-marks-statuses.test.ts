/**
 * With the simulator over HTTP: the statuses of a bulk send's messages, applied while their hand-off marks wait,
 * carry the hand-off themselves (wamid, handed time, counters), so the marks write nothing; a graceful stop writes
 * the marks of messages no status has named yet; a single send's mark never waits.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { listItem, phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, startHarness, TEST_APP_SECRET, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';

let h: Harness;
let templateId: string;
const main = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness(
    { timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } },
    // A minute's wait (under a third of the lease): every mark of these tests waits until written on purpose.
    { dispatcher: { handOffMarkDelayMs: 60_000, leaseSeconds: 300 } },
  );
  templateId = await approvedTemplate(h, main);
});
after(() => h.close());

async function rowsOf(sendWizardId: string) {
  const result = await sql<{ id: string; status: string; ext_id: string | null; backend_sended_time: Date | null; lease_owner: string | null; xmin: string }>`
    select id, status, ext_id, backend_sended_time, lease_owner, xmin::text as xmin from messages
    where send_wizard_id = ${sendWizardId} order by row_no`.execute(h.store.db);
  return result.rows;
}

test('statuses applied while the hand-off marks wait carry the hand-off, and the marks then write nothing', async () => {
  const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(phones(6, '9055731')), total_time: 0, channel_id: main });
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  const done = await eventually(async () => {
    const item = await listItem(h, main, id);
    return item.seen_count === 6 ? item : undefined;
  }, 30_000);
  assert.equal(done.queued, 0);
  assert.equal(done.awaiting_backend_count, 0);
  assert.equal(h.app.dispatcher.handOffs.size, 6, 'the marks still wait');
  const settled = await rowsOf(id);
  for (const row of settled) {
    assert.equal(row.status, 'BACKEND_SEEN');
    assert.match(row.ext_id ?? '', /^wamid\./);
    assert.ok(row.backend_sended_time);
    assert.equal(row.lease_owner, null);
  }
  await h.app.dispatcher.handOffs.flushAll();
  assert.deepEqual((await rowsOf(id)).map((r) => r.xmin), settled.map((r) => r.xmin), 'a mark wrote a row again');
});

test('a graceful stop writes the hand-off marks no status has moved yet', async () => {
  h.simulator.setWebhookTarget(null);
  try {
    const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(phones(4, '9055732')), total_time: 0, channel_id: main });
    await eventually(async () => h.app.dispatcher.handOffs.size === 4, 10_000);
    assert.deepEqual((await rowsOf(id)).map((r) => r.status), Array(4).fill('OPT_IN_SUCCESS'));
    await h.app.dispatcher.stop();
    for (const row of await rowsOf(id)) {
      assert.equal(row.status, 'SENT_TO_BACKEND');
      assert.match(row.ext_id ?? '', /^wamid\./);
      assert.equal(row.lease_owner, null);
    }
  } finally {
    h.simulator.setWebhookTarget(`${h.appUrl}/webhooks/whatsapp`, TEST_APP_SECRET);
    h.app.dispatcher.start();
  }
});

test('a single send\'s hand-off mark is written at once', async () => {
  h.simulator.setWebhookTarget(null);
  try {
    const res = await singleSend(h, { channel_id: main, phone_number: '905573300013', message_template_id: templateId, message_template: sendParams() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const messageId = res.body.data.message_id as string;
    await eventually(async () => {
      const found = await sql<{ status: string }>`select status from messages where id = ${messageId}`.execute(h.store.db);
      return found.rows[0]?.status === 'SENT_TO_BACKEND';
    }, 10_000);
    assert.equal(h.app.dispatcher.handOffs.size, 0);
  } finally {
    h.simulator.setWebhookTarget(`${h.appUrl}/webhooks/whatsapp`, TEST_APP_SECRET);
  }
});
