/**
 * The storing pass of bulk starts in COPY chunks (here of 2 rows, so every list crosses chunk boundaries):
 * duplicates found across chunks, rows numbered 1..n in list order, due times, cells that COPY's text format
 * must escape, and a start that fails while storing leaving nothing behind. Files and JSON starts share it.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones } from '../support/bulk.js';
import { csvOf, csvPart, fieldParts, startFile, type Table } from '../support/files.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.flagged; // rows are stored and held, never sent
const A = '/agent-app/message-template/send-wizard';
const HEADER = ['id', 'phone_number', 'full_name', 'BODY.1', 'BODY.2', 'url_button_param'];

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { bulkBatchSize: 2 });
  templateId = await approvedTemplate(h, SIM_CHANNEL_IDS.main);
});
after(() => h.close());

function fields(extra: Record<string, string | number | boolean> = {}) {
  return fieldParts({ message_template_id: templateId, channel_id: channel, total_time: 0, ...extra });
}

/** Data rows for these numbers (ids 1..n). */
function rowsOf(numbers: string[]): Table {
  return numbers.map((n, i) => [i + 1, n, `Customer ${i + 1}`, `Name${i + 1}`, `CODE${i + 1}`, `p${i + 1}`]);
}

async function storedRows(wizardId: string) {
  const result = await sql<{ row_no: number; row_ref: string; phone_number: string; full_name: string | null; payload: unknown; due_at: Date }>`
    select row_no, row_ref, phone_number, full_name, payload, due_at from messages where send_wizard_id = ${wizardId} order by row_no`.execute(h.store.db);
  return result.rows;
}

async function counts() {
  const n = async (table: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(h.store.db)).rows[0].n;
  return { messages: await n('messages'), send_wizards: await n('send_wizards') };
}

test('duplicates across storing chunks are dropped and counted; the first row of each number is kept, numbered 1..n', async () => {
  const [a, b, c, d, e] = phones(5, '9055641');
  const list = rowsOf([a, b, c, a, d, b, e]);
  const expected = { refs: [1, 2, 3, 5, 7], phones: [a, b, c, d, e].map((p) => `+${p}`) };

  const file = await startFile(h, [...fields(), csvPart([HEADER, ...list])]);
  assert.equal(file.status, 200, JSON.stringify(file.body));
  assert.equal(file.body.data.summary, 5);
  assert.equal(file.body.data.duplicate_count, 2);

  const json = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, channel_id: channel, total_time: 0, param_headers: ['id', 'phone', 'FULL_NAME', 'BODY.1', 'BODY.2', 'BUTTONS.0'], rows: list },
  });
  assert.equal(json.status, 200, JSON.stringify(json.body));
  assert.equal(json.body.data.duplicate_count, 2);

  for (const id of [file.body.data.send_wizard_id, json.body.data.send_wizard_id]) {
    const rows = await storedRows(id);
    assert.deepEqual(rows.map((r) => r.row_no), [1, 2, 3, 4, 5]);
    assert.deepEqual(rows.map((r) => Number(r.row_ref)), expected.refs);
    assert.deepEqual(rows.map((r) => r.phone_number), expected.phones);
    assert.deepEqual(rows.map((r) => r.full_name), ['Customer 1', 'Customer 2', 'Customer 3', 'Customer 5', 'Customer 7']);
  }

  const dry = await startFile(h, [...fields({ dry_run: true }), csvPart([HEADER, ...list])]);
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.data.summary, 5);
  assert.equal(dry.body.data.duplicate_count, 2);
});

test('due times are spread evenly over total_time across chunks', async () => {
  const at = new Date(Math.ceil(Date.now() / 1000) * 1000 + 3_600_000);
  const res = await startFile(h, [...fields({ total_time: 100, scheduled_at: at.toISOString() }), csvPart([HEADER, ...rowsOf(phones(5, '9055642'))])]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await storedRows(res.body.data.send_wizard_id);
  assert.deepEqual(rows.map((r) => new Date(r.due_at).getTime() - at.getTime()), [0, 20_000, 40_000, 60_000, 80_000]);
});

test('cells with backslashes, quotes, tabs, new lines and non-ASCII text are stored exactly as given', async () => {
  const [a, b, c] = phones(3, '9055643');
  const name = 'Ayşe\tK.\n"Çiçek" \\ back\\slash\r';
  const param = 'x\\y "quoted" \\n not a new line 🙂';
  const list = rowsOf([a, b, c]);
  list[1][2] = name;
  list[1][3] = param;
  const res = await startFile(h, [...fields(), csvPart([HEADER, ...list])]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await storedRows(res.body.data.send_wizard_id);
  assert.equal(rows[1].full_name, name);
  const body = (rows[1].payload as { template: { components: Array<{ type: string; parameters: Array<{ text: string }> }> } }).template.components[0];
  assert.equal(body.type, 'body');
  assert.equal(body.parameters[0].text, param);
  assert.equal(rows[2].full_name, 'Customer 3');
});

test('a NUL character in a cell is 400 naming its sheet row and column, also past the first 64 KiB; nothing is stored', async () => {
  const numbers = phones(2002, '905564');
  const list = rowsOf(numbers);
  list[2000][3] = 'a\u0000b'; // BODY.1 of sheet row 2002, well past the bytes the file kind is read from
  const data = csvOf([HEADER, ...list]);
  assert.ok(data.indexOf(0) > 64 * 1024);
  const before = await counts();
  const res = await startFile(h, [...fields(), { name: 'file', fileName: 'list.csv', type: 'text/csv', data }]);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'VALIDATION_FAILED');
  assert.equal(res.body.errors[0].field, 'rows[2002].BODY.1');
  assert.deepEqual(await counts(), before);
});

test('a start that fails while storing its rows leaves nothing stored', async () => {
  const numbers = phones(7, '9055645');
  // The database refuses the sixth row (third chunk), after two chunks were stored.
  await sql`create function test_refuse_row() returns trigger language plpgsql as $fn$
    begin
      if new.phone_number = ${sql.lit(`+${numbers[5]}`)} then raise exception 'refused by the test'; end if;
      return new;
    end $fn$`.execute(h.store.db);
  await sql`create trigger test_refuse_row before insert on messages for each row execute function test_refuse_row()`.execute(h.store.db);
  try {
    const before = await counts();
    const res = await startFile(h, [...fields(), csvPart([HEADER, ...rowsOf(numbers)])]);
    assert.equal(res.status, 500, JSON.stringify(res.body));
    assert.deepEqual(await counts(), before);
  } finally {
    await sql`drop trigger test_refuse_row on messages`.execute(h.store.db);
    await sql`drop function test_refuse_row()`.execute(h.store.db);
  }
});
