/**
 * A start that sends as fast as the channel allows stores its rows on PostgreSQL while it is still checking the
 * rest of the list, in the accepting transaction: a row refused after whole batches were stored leaves nothing,
 * and a list accepted in full is stored in full, numbered in order. (PGlite checks the whole list first: the
 * same outcomes hold there.)
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, startV1, v1Rows } from '../support/bulk.js';

const A = '/agent-app/message-template/send-wizard';
// The FLAGGED channel holds its sends, so the stored rows stay as the start left them.
const flagged = SIM_CHANNEL_IDS.flagged;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function storedOf(harness: Harness, prefix: string) {
  const messages = await sql<{ n: number }>`select count(*)::int as n from messages where phone_number like ${`+${prefix}%`}`.execute(harness.store.db);
  const sends = await sql<{ n: number }>`select count(*)::int as n from send_wizards`.execute(harness.store.db);
  return { messages: messages.rows[0].n, sends: sends.rows[0].n };
}

test('a row refused after whole batches were handed to the database leaves no row and no bulk send', async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { bulkBatchSize: 7 });
  const template = await approvedTemplate(h, flagged);
  const rows = v1Rows(phones(2600, '9055910'));
  rows[2500].params = ['only one'];
  const res = await h.call('POST', `${A}/start`, { body: { message_template_id: template, rows, total_time: 0, channel_id: flagged } });
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
  assert.equal(res.body.errors[0].field, 'rows[2500].params[1]');
  assert.deepEqual(await storedOf(h, '9055910'), { messages: 0, sends: 0 });
});

test('a list with duplicates, checked while it is stored, is stored in full: rows numbered 1..n in list order', async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { bulkBatchSize: 7 });
  const template = await approvedTemplate(h, flagged);
  const numbers = phones(2500, '9055920');
  const rows = v1Rows([...numbers, ...numbers.slice(0, 40)]);
  const id = await startV1(h, { message_template_id: template, rows, total_time: 0, channel_id: flagged });
  const item = await listItem(h, flagged, id);
  assert.equal(item.summary, 2500);
  const stored = await sql<{ row_no: number; phone_number: string }>`
    select row_no, phone_number from messages where send_wizard_id = ${id} order by row_no`.execute(h.store.db);
  assert.equal(stored.rows.length, 2500);
  assert.deepEqual(stored.rows.map((r) => r.row_no), Array.from({ length: 2500 }, (_, k) => k + 1));
  assert.deepEqual(stored.rows.map((r) => r.phone_number), numbers.map((p) => `+${p}`));
});
