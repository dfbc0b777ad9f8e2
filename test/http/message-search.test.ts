/**
 * GET /api/v1/messages?phone_number=: a recipient's messages (single sends and bulk rows), newest first, paged
 * by the last message's id, scoped to the caller's company, read from the index in order.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';

const main = SIM_CHANNEL_IDS.main;
const PHONE = '905557770013';
let h: Harness;
/** Message ids to PHONE in the order they were made. */
const made: string[] = [];

before(async () => {
  h = await startHarness();
  const template = await approvedTemplate(h, main);
  for (let i = 0; i < 2; i++) {
    const res = await singleSend(h, { channel_id: main, phone_number: PHONE, message_template_id: template, message_template: sendParams() });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    made.push(res.body.data.message_id);
  }
  const id = await startV1(h, { message_template_id: template, channel_id: main, total_time: 0, rows: v1Rows([PHONE, '905557770023']) });
  await untilWizard(h, main, id, ['COMPLETED'], 30_000);
  const detail = await h.call('POST', '/agent-app/message-template/send-wizard/reports/detail', { body: { id, data: { page: 1, page_size: 10 } } });
  made.push(detail.body.data.report_details.find((r: { phone_number: string }) => r.phone_number === `+${PHONE}`).message_id);
});
after(() => h?.close());

const search = (query: string, token = h.a.token) => h.call('GET', `/api/v1/messages?${query}`, { token });

test("a number's messages come newest first, single sends and bulk rows alike, and no other number's", async () => {
  const res = await search(`phone_number=%2B${PHONE}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual(res.body.items.map((m: { _id: string }) => m._id), [...made].reverse());
  assert.ok(res.body.items.every((m: { phone_number: string }) => m.phone_number === `+${PHONE}`));
  assert.equal(res.body.next, null);
});

test('the number is read as any send takes it: without +, with 00 or spaces', async () => {
  for (const form of [PHONE, `00${PHONE}`, `+90 555 777 00 13`]) {
    const res = await search(`phone_number=${encodeURIComponent(form)}`);
    assert.equal(res.body.items.length, 3, form);
  }
});

test('pages of one walk every message once, newest first, and the last page has no next', async () => {
  const seen: string[] = [];
  let after: string | null = null;
  for (let i = 0; i < 5; i++) {
    const res = await search(`phone_number=${PHONE}&limit=1${after ? `&after=${after}` : ''}`);
    assert.equal(res.status, 200);
    seen.push(...res.body.items.map((m: { _id: string }) => m._id));
    after = res.body.next;
    if (!after) break;
  }
  assert.deepEqual(seen, [...made].reverse());
});

test("another company sees none of the company's messages to the number", async () => {
  const res = await search(`phone_number=${PHONE}`, h.b.token);
  assert.equal(res.status, 200);
  assert.deepEqual([res.body.items, res.body.next], [[], null]);
});

test('a malformed number or a limit over 100 is a 400 naming the field', async () => {
  for (const [query, field] of [['phone_number=12ab', 'phone_number'], ['phone_number=0123', 'phone_number'], [`phone_number=${PHONE}&limit=101`, 'limit'], [`phone_number=${PHONE}&limit=0`, 'limit']]) {
    const res = await search(query);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.errors[0].field, field, query);
  }
  assert.equal((await search('limit=5')).status, 400);
});

test('a page is read from the phone index in order, with no sort and no scan of other rows', async () => {
  const plan = await h.store.db.transaction().execute(async (tx) => {
    await sql`set local enable_seqscan = off`.execute(tx);
    const rows = await sql<Record<string, string>>`
      explain select * from messages where phone_number = ${`+${PHONE}`} and company_id = ${h.a.companyId}
      order by created_at desc, id desc limit 21`.execute(tx);
    return rows.rows.map((r) => Object.values(r)[0]).join('\n');
  });
  assert.match(plan, /Index Scan Backward using messages_by_phone/);
  assert.doesNotMatch(plan, /Sort/);
});
