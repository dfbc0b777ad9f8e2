import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { postSignedWebhook, statusWebhookBody } from '../support/status-webhooks.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { markHandedOff } from '../../src/store/message-moves.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

async function send(phone: string) {
  const res = await singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: templateId, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.message_id as string;
}

async function row(id: string) {
  return h.store.db.selectFrom('messages' as never).selectAll().where('id' as never, '=', id as never).executeTakeFirstOrThrow() as Promise<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

test('duplicated and reordered status webhooks end in the right state with every time field', async () => {
  await simAdmin(h, '/_sim/faults', { duplicateRate: 1, reorderWindowMs: 400 });
  try {
    const ids = [await send('905554400011'), await send('905554400022'), await send('905554400002')];
    for (const id of ids.slice(0, 2)) {
      const record = await untilStatus(h, id, ['BACKEND_SEEN']);
      for (const field of ['backend_sended_time', 'sended_time', 'delivered_time', 'seen_time']) assert.ok(record[field], field);
    }
    await untilStatus(h, ids[2], ['BACKEND_SENT']);
    await new Promise((r) => setTimeout(r, 1500));
    const [late] = await lookup(h, [ids[2]]);
    assert.equal(late.status, 'BACKEND_SENT');
  } finally {
    await simAdmin(h, '/_sim/faults', { duplicateRate: 0, reorderWindowMs: 0 });
  }
});

test('a late "sent" after "read" neither lowers the state nor replaces the read payload', async () => {
  const id = await send('905554400033');
  const seen = await untilStatus(h, id, ['BACKEND_SEEN']);
  const status = await postSignedWebhook(h, statusWebhookBody(channel, [{ id: seen.ext_id, status: 'sent', timestamp: '1700000000', recipient_id: '905554400033', biz_opaque_callback_data: id }]));
  assert.equal(status, 200);
  await h.app.webhookInbox.drain();
  const [after] = await lookup(h, [id]);
  assert.equal(after.status, 'BACKEND_SEEN');
  assert.equal(after.webhook_response.status, 'read');
  assert.equal(after.__v, seen.__v);
});

test('a failed event after read is ignored', async () => {
  const id = await send('905554400044');
  const seen = await untilStatus(h, id, ['BACKEND_SEEN']);
  await postSignedWebhook(h, statusWebhookBody(channel, [{ id: seen.ext_id, status: 'failed', timestamp: String(Math.floor(Date.now() / 1000)), recipient_id: '1', errors: [{ code: 131000, title: 'Something went wrong' }] }]));
  await h.app.webhookInbox.drain();
  assert.equal((await lookup(h, [id]))[0].status, 'BACKEND_SEEN');
});

test('an event that beats the send’s own commit is applied, and the late commit does not lower it', async () => {
  await h.app.dispatcher.stop();
  try {
    const id = await send('905554400055');
    // The dispatcher recorded the attempt and called the network; its commit has not happened yet.
    await h.store.db.updateTable('messages' as never).set({ status: 'OPT_IN_SUCCESS', send_attempted_at: new Date(), attempts: 1 } as never).where('id' as never, '=', id as never).execute();
    const now = String(Math.floor(Date.now() / 1000));
    assert.equal(await postSignedWebhook(h, statusWebhookBody(channel, [{ id: 'wamid.EARLY55', status: 'sent', timestamp: now, recipient_id: '905554400055', biz_opaque_callback_data: id }])), 200);
    await h.app.webhookInbox.drain();
    let r = await row(id);
    assert.equal(r.status, 'BACKEND_DELIVERED');
    assert.equal(r.ext_id, 'wamid.EARLY55');
    await markHandedOff(h.store.db, [{ id, ext_id: 'wamid.EARLY55' }]);
    r = await row(id);
    assert.equal(r.status, 'BACKEND_DELIVERED');
    assert.ok(r.backend_sended_time);
  } finally {
    h.app.dispatcher.start();
  }
});

test('an event applied before the hand-off is marked dates the hand-off at the send attempt', async () => {
  await h.app.dispatcher.stop();
  try {
    const id = await send('905554400056');
    // The attempt is recorded 900 ms into a second; the network's event carries that second, truncated.
    const attempted = new Date(Math.floor(Date.now() / 1000) * 1000 + 900);
    await h.store.db.updateTable('messages' as never).set({ status: 'OPT_IN_SUCCESS', send_attempted_at: attempted, attempts: 1 } as never).where('id' as never, '=', id as never).execute();
    const second = String(Math.floor(attempted.getTime() / 1000));
    assert.equal(await postSignedWebhook(h, statusWebhookBody(channel, [{ id: 'wamid.EARLY56', status: 'sent', timestamp: second, recipient_id: '905554400056', biz_opaque_callback_data: id }])), 200);
    await h.app.webhookInbox.drain();
    const r = await row(id);
    assert.equal(r.status, 'BACKEND_DELIVERED');
    assert.equal(r.backend_sended_time.toISOString(), attempted.toISOString());
    assert.ok(r.sended_time.getTime() >= r.backend_sended_time.getTime());
  } finally {
    h.app.dispatcher.start();
  }
});

test('an event for a message not yet handed over is kept, then applied once the hand-off is stored', async () => {
  await h.app.dispatcher.stop();
  try {
    const id = await send('905554400066');
    const now = String(Math.floor(Date.now() / 1000));
    assert.equal(await postSignedWebhook(h, statusWebhookBody(channel, [{ id: 'wamid.KEPT66', status: 'delivered', timestamp: now, recipient_id: '905554400066' }])), 200);
    await h.app.webhookInbox.drain();
    assert.equal((await row(id)).status, 'QUEUED');
    const kept = await h.store.db.selectFrom('pending_status_events' as never).selectAll().where('wamid' as never, '=', 'wamid.KEPT66' as never).execute();
    assert.equal(kept.length, 1);
    await h.store.db.updateTable('messages' as never).set({ status: 'OPT_IN_SUCCESS', send_attempted_at: new Date(), attempts: 1 } as never).where('id' as never, '=', id as never).execute();
    await markHandedOff(h.store.db, [{ id, ext_id: 'wamid.KEPT66' }]);
    await h.app.dispatcher.maintain();
    const r = await row(id);
    assert.equal(r.status, 'BACKEND_SENT');
    assert.ok(r.delivered_time);
    const left = await h.store.db.selectFrom('pending_status_events' as never).selectAll().where('wamid' as never, '=', 'wamid.KEPT66' as never).execute();
    assert.equal(left.length, 0);
  } finally {
    h.app.dispatcher.start();
  }
});

test('a forged status webhook is refused and changes nothing', async () => {
  const id = await send('905554400077');
  const record = await untilStatus(h, id, ['BACKEND_SEEN']);
  const status = await postSignedWebhook(h, statusWebhookBody(channel, [{ id: record.ext_id, status: 'failed', timestamp: '1', recipient_id: '1', errors: [{ code: 131049 }] }]), 'forged');
  assert.equal(status, 401);
  await eventually(async () => (await lookup(h, [id]))[0].status === 'BACKEND_SEEN');
});
