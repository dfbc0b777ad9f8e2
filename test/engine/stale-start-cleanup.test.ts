import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { insertBulkSend } from '../../src/store/bulk-sends.js';
import { BULK_ROW_COLUMNS, copyBulkSendRows, copyField } from '../../src/store/message-inserts.js';
import { startHarness, type Harness } from '../support/harness.js';

// A start whose process died while storing its rows (PENDING, not marked alive for 10 minutes) is removed by the
// dispatcher's maintenance: its rows first, then the bulk send, which the reference checks of `messages` allow only
// once no row names it. A start still marked alive is left alone.
let h: Harness;
before(async () => {
  h = await startHarness();
});
after(() => h.close());

async function storeStart(id: string, rows: number): Promise<void> {
  await insertBulkSend(h.store.db, {
    id, company_id: h.a.companyId, channel_id: SIM_CHANNEL_IDS.main, template_id: 't1', template_name: 't', from_number: '+1',
    has_button: false, total_time: 0,
  });
  const lines = Array.from({ length: rows }, (_, i) => {
    const row: Record<(typeof BULK_ROW_COLUMNS)[number], string | number | null> = {
      id: `${id}-${i + 1}`, row_no: i + 1, due_at: new Date().toISOString(), company_id: h.a.companyId, channel_id: SIM_CHANNEL_IDS.main,
      template_id: 't1', waba_id: '1', send_wizard_id: id, status: 'NONE', row_ref: null, phone_number: `+1888${i}`, user_id: null,
      full_name: null, payload: '{"to":"x"}',
    };
    return `${BULK_ROW_COLUMNS.map((c) => copyField(row[c])).join('\t')}\n`;
  });
  await copyBulkSendRows(h.store.db, (async function* () { yield lines.join(''); })());
}

const left = async (id: string) => ({
  rows: Number((await sql<{ n: string }>`select count(*) as n from messages where send_wizard_id = ${id}`.execute(h.store.db)).rows[0].n),
  bulkSend: (await sql`select 1 from send_wizards where id = ${id}`.execute(h.store.db)).rows.length,
});

test('maintenance removes a dead start\'s rows and then its bulk send, and leaves a live start', async () => {
  await storeStart('dead-start', 40);
  await storeStart('live-start', 10);
  await sql`update send_wizards set updated_at = now() - interval '11 minutes' where id = 'dead-start'`.execute(h.store.db);
  await h.app.dispatcher.maintain();
  assert.deepEqual(await left('dead-start'), { rows: 0, bulkSend: 0 });
  assert.deepEqual(await left('live-start'), { rows: 10, bulkSend: 1 });
});
