/**
 * The number check: local by default (no network call); the rehearsal-only contacts check only when enabled,
 * and then an answer it cannot use never fails a row.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

const main = SIM_CHANNEL_IDS.main;
const FAST = { timings: { templateApprovalDelayMs: 50, sentDelayMs: 10, deliveredDelayMs: 20, readDelayMs: 30, failedDelayMs: 10 }, limits: { pairRateBurst: null } };

async function send(h: Harness, template: string, phone: string) {
  const res = await singleSend(h, { channel_id: main, phone_number: phone, message_template_id: template, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.message_id as string;
}

const contactsCalls = async (h: Harness) =>
  ((await simAdmin(h, '/_sim/requests')).items as Array<{ path: string }>).filter((i) => i.path.includes('/contacts')).length;
const received = async (h: Harness, phone: string) => (await simAdmin(h, `/_sim/received?to=%2B${phone}`)).messages.length as number;

describe('default (local) number check', () => {
  let h: Harness;
  let template: string;
  before(async () => {
    h = await startHarness(FAST);
    template = await approvedTemplate(h, main);
  });
  after(() => h.close());

  test('a single send and a bulk send reach BACKEND_SEEN without any /v1/contacts call', async () => {
    const id = await send(h, template, '905556600013');
    await untilStatus(h, id, ['BACKEND_SEEN']);
    const wizard = await startV1(h, { message_template_id: template, rows: v1Rows(phones(5, '9055566')), total_time: 0, channel_id: main });
    await untilWizard(h, main, wizard, ['COMPLETED']);
    await eventually(async () => (await reportRows(h, wizard)).every((r: { status: string }) => r.status === 'BACKEND_SEEN'), 15_000);
    assert.equal(await contactsCalls(h), 0);
    assert.equal((await simAdmin(h, '/_sim/requests')).unknown_paths, 0);
  });

  test('a 000 number fails by its own 131026 status; a second send to it is refused locally, never sent', async () => {
    const first = await untilStatus(h, await send(h, template, '905556610000'), ['BACKEND_FAILED']);
    assert.match(String(first.error_message_detail), /131026/);
    const second = await untilStatus(h, await send(h, template, '905556610000'), ['OPT_IN_FAILED_INVALID_NUMBER', 'BACKEND_FAILED']);
    assert.equal(second.status, 'OPT_IN_FAILED_INVALID_NUMBER');
    assert.equal(await received(h, '905556610000'), 1);
    assert.equal(await contactsCalls(h), 0);
  });
});

describe('NUMBER_CHECK=contacts against a simulator with the rehearsal check', () => {
  let h: Harness;
  let template: string;
  before(async () => {
    h = await startHarness({ ...FAST, limits: { ...FAST.limits, contactsCheck: true } }, { dispatcher: { numberCheck: 'contacts' } });
    template = await approvedTemplate(h, main);
  });
  after(() => h.close());

  test('the check asks /v1/contacts and a number it calls invalid is never sent', async () => {
    const bad = await untilStatus(h, await send(h, template, '905556620000'), ['OPT_IN_FAILED_INVALID_NUMBER', 'BACKEND_FAILED']);
    assert.equal(bad.status, 'OPT_IN_FAILED_INVALID_NUMBER');
    assert.equal(await received(h, '905556620000'), 0);
    await untilStatus(h, await send(h, template, '905556620013'), ['BACKEND_SEEN']);
    assert.ok((await contactsCalls(h)) >= 2);
  });
});

describe('NUMBER_CHECK=contacts against a Graph-faithful network (no contacts check)', () => {
  let h: Harness;
  let template: string;
  before(async () => {
    h = await startHarness(FAST, { dispatcher: { numberCheck: 'contacts' } });
    template = await approvedTemplate(h, main);
  });
  after(() => h.close());

  test('the 400/100/33 answer fails no row: the rows are sent, and the network is asked once, not again', async () => {
    await untilStatus(h, await send(h, template, '905556630013'), ['BACKEND_SEEN']);
    await untilStatus(h, await send(h, template, '905556630023'), ['BACKEND_SEEN']);
    const calls = ((await simAdmin(h, '/_sim/requests')).items as Array<{ path: string; error_code?: number }>).filter((i) => i.path === '/v1/contacts');
    assert.deepEqual(calls.map((c) => c.error_code), [100]);
  });
});
