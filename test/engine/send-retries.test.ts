import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const ACCEPTED = ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'];

before(async () => {
  h = await startHarness(
    { timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null, contactsCheck: false } },
    { dispatcher: { reconcileWindowSeconds: 2, maintenanceMs: 200 } },
  );
  templateId = await approvedTemplate(h, channel);
  // Read the channel's health once, so faults injected below hit the sends, not the first health read; one
  // send teaches the dispatcher that this network (like the Cloud API) has no contacts check.
  assert.equal((await h.call('GET', `/api/v1/message-templates/waba-status?channel_id=${channel}`)).status, 200);
  await untilStatus(h, (await send('905553400099')).body.data.message_id, ACCEPTED);
});
after(() => h.close());

async function send(phone: string, components: unknown = sendParams()) {
  const res = await singleSend(h, { channel_id: channel, phone_number: phone, message_template_id: templateId, message_template: components });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res;
}

async function received(phone: string): Promise<number> {
  return (await simAdmin(h, `/_sim/received?to=${encodeURIComponent('+' + phone)}`)).messages.length;
}

async function attemptsOf(id: string): Promise<number> {
  const row = await h.store.db.selectFrom('messages' as never).select(['attempts' as never]).where('id' as never, '=', id as never).executeTakeFirstOrThrow();
  return (row as { attempts: number }).attempts;
}

test('130429 above the network throughput is retried until every message is accepted once', async () => {
  await simAdmin(h, '/_sim/limits', { throughputMps: 2 });
  try {
    const before = (await simAdmin(h, '/_sim/stats')).refused_130429;
    const phones = Array.from({ length: 8 }, (_, i) => `9055533${String(i + 1).padStart(2, '0')}55`);
    const ids = [];
    for (const phone of phones) ids.push((await send(phone)).body.data.message_id);
    for (const id of ids) await untilStatus(h, id, ACCEPTED, 30_000);
    const stats = await simAdmin(h, '/_sim/stats');
    assert.ok(stats.refused_130429 > before, `expected 130429 refusals, stats ${JSON.stringify(stats)}`);
    assert.equal(stats.duplicate_sends, 0);
    for (const phone of phones) assert.equal(await received(phone), 1, phone);
  } finally {
    await simAdmin(h, '/_sim/limits', { throughputMps: 80 });
  }
});

test('a non-Graph 5xx (a proxy’s HTML 502/503) after the send was written is in doubt: not resent, OUTCOME_UNKNOWN', async () => {
  await simAdmin(h, '/_sim/faults', { serverErrorRate: 1 });
  let id = '';
  try {
    id = (await send('905553400011')).body.data.message_id;
    const record = await untilStatus(h, id, ['SENT_TO_BACKEND_FAILED'], 20_000);
    assert.equal(record.error_message, 'OUTCOME_UNKNOWN');
  } finally {
    await simAdmin(h, '/_sim/faults', { serverErrorRate: 0 });
  }
  assert.equal(await attemptsOf(id), 1);
});

test('131000 (service error) is retried', async () => {
  await simAdmin(h, '/_sim/faults', { errorRate: 1 });
  let id = '';
  try {
    id = (await send('905553400022')).body.data.message_id;
    await eventually(async () => (await attemptsOf(id)) >= 2, 15_000);
  } finally {
    await simAdmin(h, '/_sim/faults', { errorRate: 0 });
  }
  await untilStatus(h, id, ACCEPTED, 30_000);
});

test('132000 is not retried: SENT_TO_BACKEND_FAILED after one attempt with the network’s title and code', async () => {
  // Our copy of the template says one body variable while the network's has two: the network answers 132000.
  const template = await approvedTemplate(h, channel);
  const row = await h.store.db.selectFrom('templates').select('components').where('id', '=', template).executeTakeFirstOrThrow();
  const components = (row.components as Array<{ type: string; text?: string; example?: unknown }>).map((c) =>
    c.type === 'BODY' ? { ...c, text: 'Hello {{1}}, welcome back.', example: { body_text: [['x']] } } : c,
  );
  await h.store.db.updateTable('templates').set({ components: JSON.stringify(components) }).where('id', '=', template).execute();
  const res = await singleSend(h, {
    channel_id: channel,
    phone_number: '905553400033',
    message_template_id: template,
    message_template: [{ type: 'BODY', parameters: ['only'] }, { type: 'BUTTONS', buttons: [{ parameters: ['p'] }] }],
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const record = await untilStatus(h, res.body.data.message_id, ['SENT_TO_BACKEND_FAILED']);
  assert.match(record.error_message_detail, /^132000/);
  assert.ok(record.error_message.length > 0);
  assert.ok(record.failed_time);
  assert.equal(await attemptsOf(res.body.data.message_id), 1);
  assert.equal(await received('905553400033'), 0);
});

test('a send whose answer never comes is not resent: after the reconciliation window it is OUTCOME_UNKNOWN', async () => {
  await simAdmin(h, '/_sim/faults', { timeoutRate: 1 });
  let id = '';
  try {
    id = (await send('905553400044')).body.data.message_id;
    await eventually(async () => (await attemptsOf(id)) === 1, 10_000);
    const record = await untilStatus(h, id, ['SENT_TO_BACKEND_FAILED'], 20_000);
    assert.equal(record.error_message, 'OUTCOME_UNKNOWN');
  } finally {
    await simAdmin(h, '/_sim/faults', { timeoutRate: 0 });
  }
  assert.equal(await attemptsOf(id), 1);
});
