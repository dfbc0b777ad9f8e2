/**
 * Tier quota on the simulator's TIER_50 channel: a held bulk send costs nothing while the
 * window is full (its rows are not claimed and put back), it resumes when the window frees, and a slot is
 * spent only on a send the network accepted (an invalid number gives it back).
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';

const small = SIM_CHANNEL_IDS.small;
let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function harness(tierWindowMs: number): Promise<Harness> {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } }, { dispatcher: { tierWindowMs } });
  return h;
}

async function versionsOfWaiting(hh: Harness, wizardId: string): Promise<Map<string, number>> {
  const rows = await sql<{ id: string; version: number }>`
    select id, version from messages where send_wizard_id = ${wizardId} and status = 'QUEUED' order by id`.execute(hh.store.db);
  return new Map(rows.rows.map((r) => [r.id, r.version]));
}

test('a bulk send held by a full tier window costs nothing while it waits: __v of its waiting rows stays put', async () => {
  const hh = await harness(24 * 3600 * 1000);
  const template = await approvedTemplate(hh, small);
  const id = await startV1(hh, { message_template_id: template, rows: v1Rows(phones(70, '9055710')), total_time: 0, channel_id: small });
  await eventually(async () => {
    const it = await listItem(hh, small, id);
    return it && it.status === 'PAUSED' && it.processed_count === 50 && it.queued === 20 ? it : undefined;
  }, 30_000);
  const first = await versionsOfWaiting(hh, id);
  assert.equal(first.size, 20);
  await new Promise((r) => setTimeout(r, 3000));
  const later = await versionsOfWaiting(hh, id);
  assert.deepEqual([...later.entries()], [...first.entries()], 'a waiting row was claimed and put back');
});

test('a held bulk send resumes by itself when the window frees its slots', async () => {
  const hh = await harness(4000);
  const template = await approvedTemplate(hh, small);
  const id = await startV1(hh, { message_template_id: template, rows: v1Rows(phones(70, '9055720')), total_time: 0, channel_id: small });
  await eventually(async () => {
    const it = await listItem(hh, small, id);
    return it && it.status === 'PAUSED' && it.processed_count === 50 ? it : undefined;
  }, 30_000);
  const done = await untilWizard(hh, small, id, ['COMPLETED'], 30_000);
  assert.equal(done.processed_count, 70);
});

test('an invalid number spends no tier slot: 50 valid recipients all go out in one window', async () => {
  const hh = await harness(24 * 3600 * 1000);
  const template = await approvedTemplate(hh, small);
  const numbers = phones(60, '9055730');
  // The invalid numbers come last, when the 50 valid ones have filled the window: they must not wait for a slot.
  const invalid = numbers.slice(50);
  for (const n of invalid) {
    await sql`insert into suppressed_numbers (company_id, phone_number, reason) values (${hh.a.companyId}, ${`+${n}`}, '131026')`.execute(hh.store.db);
  }
  const id = await startV1(hh, { message_template_id: template, rows: v1Rows(numbers), total_time: 0, channel_id: small });
  const done = await untilWizard(hh, small, id, ['COMPLETED'], 30_000).catch(async (e) => {
    const st = await sql`select status, error_message_detail, count(*)::int as n from messages where send_wizard_id = ${id} group by 1, 2`.execute(hh.store.db);
    throw new Error(`${e} ${JSON.stringify(st.rows)}`);
  });
  assert.equal(done.failed_count, 10);
  assert.equal(done.delivered_count, 50);
  const used = await sql<{ n: number }>`select count(*)::int as n from tier_recipients where channel_id = ${small}`.execute(hh.store.db);
  assert.equal(used.rows[0].n, 50);
});

test('a recipient sent again counts from its latest send, not its first', async () => {
  const hh = await harness(24 * 3600 * 1000);
  await sql`insert into tier_recipients (channel_id, phone_number, last_sent_at) values (${small}, '+905574000001', now() - interval '20 hours')`.execute(hh.store.db);
  const template = await approvedTemplate(hh, small);
  const id = await startV1(hh, { message_template_id: template, rows: v1Rows(['905574000001']), total_time: 0, channel_id: small });
  await untilWizard(hh, small, id, ['COMPLETED'], 30_000);
  const row = await sql<{ age: number }>`
    select extract(epoch from now() - last_sent_at)::float as age from tier_recipients
    where channel_id = ${small} and phone_number = '+905574000001'`.execute(hh.store.db);
  assert.ok(row.rows[0].age < 60, `counted from ${row.rows[0].age} s ago`);
});
