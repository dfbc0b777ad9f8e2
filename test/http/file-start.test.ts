import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones } from '../support/bulk.js';
import { csvOf, csvPart, fieldParts, startFile, xlsxPart, type Part, type Table } from '../support/files.js';

let h: Harness;
let templateId: string;
// The FLAGGED channel: rows are stored and held, never sent, so the stored rows can be compared as they were made.
const channel = SIM_CHANNEL_IDS.flagged;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, SIM_CHANNEL_IDS.main);
});
after(() => h.close());

/** A recipient list for the sendable template (body {{1}} {{2}}, URL button variable), with a duplicate number last. */
function table(numbers: string[]): Table {
  const rows: Table = [['id', 'phone_number', 'full_name', 'BODY.1', 'BODY.2', 'url_button_param']];
  numbers.forEach((n, i) => rows.push([i + 1, n, `Customer ${i + 1}`, `Name${i + 1}`, `CODE${i + 1}`, `p${i + 1}`]));
  rows.push([numbers.length + 1, numbers[0], 'Again', 'x', 'y', 'z']);
  return rows;
}

function fields(extra: Record<string, string | number | boolean | object> = {}): Part[] {
  return fieldParts({ message_template_id: templateId, channel_id: channel, total_time: 0, ...extra });
}

/** The stored rows of a bulk send, as a start made them. */
async function storedRows(wizardId: string) {
  const result = await sql<Record<string, unknown>>`
    select row_no, row_ref, phone_number, full_name, payload from messages where send_wizard_id = ${wizardId} order by row_no`.execute(h.store.db);
  return result.rows.map((r) => ({ ...r, row_ref: Number(r.row_ref) }) as { row_ref: number; full_name: unknown; payload: unknown });
}

async function counts() {
  const n = async (table: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(h.store.db)).rows[0].n;
  return { messages: await n('messages'), send_wizards: await n('send_wizards') };
}

/** The JSON startv2 of the same list. */
async function jsonStart(t: Table): Promise<string> {
  const res = await h.call('POST', `${A}/startv2`, {
    body: {
      message_template_id: templateId,
      channel_id: channel,
      total_time: 0,
      param_headers: ['id', 'phone', 'FULL_NAME', 'BODY.1', 'BODY.2', 'BUTTONS.0'],
      rows: t.slice(1),
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.data.send_wizard_id;
}

test('a CSV start stores the same rows as the JSON start of the same list', async () => {
  const t = table(phones(5, '9055621'));
  const fromJson = await jsonStart(t);
  const res = await startFile(h, [...fields(), csvPart(t)]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 5);
  assert.equal(res.body.data.duplicate_count, 1);
  assert.deepEqual(await storedRows(res.body.data.send_wizard_id), await storedRows(fromJson));
});

test('an XLSX start stores the same rows as the JSON start of the same list', async () => {
  const t = table(phones(5, '9055622'));
  const fromJson = await jsonStart(t);
  const res = await startFile(h, [...fields(), await xlsxPart(t)]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 5);
  assert.deepEqual(await storedRows(res.body.data.send_wizard_id), await storedRows(fromJson));
});

test('the file may come before the fields, and a mapping names other headers', async () => {
  const numbers = phones(3, '9055623');
  const t: Table = [['Telefon', 'Ad', 'Kod', 'Link', 'Note'], ...numbers.map((n, i) => [n, `N${i}`, `C${i}`, `l${i}`, 'ignored'])];
  const mapping = { Telefon: 'phone_number', Ad: 'BODY.1', Kod: 'body.2', Link: 'BUTTONS.0' };
  const res = await startFile(h, [csvPart(t), ...fields({ mapping })]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await storedRows(res.body.data.send_wizard_id);
  assert.deepEqual(rows.map((r) => r.row_ref), [2, 3, 4]); // no id column: the sheet row is the reference
  assert.equal(rows[0].full_name, null);
  assert.deepEqual((rows[1].payload as { template: { components: unknown[] } }).template.components[0], {
    type: 'body',
    parameters: [{ type: 'text', text: 'N1' }, { type: 'text', text: 'C1' }],
  });
});

test('a semicolon-separated CSV is read', async () => {
  const t = table(phones(2, '9055624'));
  const res = await startFile(h, [...fields(), { name: 'file', fileName: 'list.csv', type: 'text/csv', data: csvOf(t, ';') }]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 2);
});

test('a bad row in a file is 400 naming its sheet row and column; nothing is stored', async () => {
  const t = table(phones(4, '9055625'));
  t[3][4] = ''; // BODY.2 of the third data row (sheet row 4)
  const before = await counts();
  for (const part of [csvPart(t), await xlsxPart(t)]) {
    const res = await startFile(h, [...fields(), part]);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
    assert.equal(res.body.errors[0].field, 'rows[4].BODY.2');
    assert.match(res.body.errors[0].message, /^row 4: /);
  }
  assert.deepEqual(await counts(), before);
});

test('a bad phone number names the phone column', async () => {
  const t = table(phones(2, '9055626'));
  t[2][1] = 'not a number';
  const res = await startFile(h, [...fields(), csvPart(t)]);
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'rows[3].phone_number');
});

test('dry_run on a file checks it and stores nothing', async () => {
  const before = await counts();
  const res = await startFile(h, [...fields({ dry_run: true, channel_id: SIM_CHANNEL_IDS.main }), csvPart(table(phones(4, '9055627')))]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const { estimate, ...data } = res.body.data;
  assert.deepEqual(data, { dry_run: true, summary: 4, duplicate_count: 1, tier_needed_24h: 4, tier_left_24h: null });
  assert.equal(estimate.billable_count, 4);
  assert.deepEqual(await counts(), before);
});

test('mapping errors are 400 MAPPING_INVALID naming the mapping entry', async () => {
  const t = table(phones(2, '9055628'));
  const cases: Array<[unknown, string, RegExp]> = [
    [{ Missing: 'phone_number' }, 'mapping.Missing', /no column "Missing"/],
    [{ phone_number: 'phone_number', 'BODY.1': 'BODY.9' }, 'mapping.BODY.1', /not a target/],
    [{ phone_number: 'phone_number', 'BODY.1': 'BODY.1' }, 'mapping', /needs the columns BODY\.2, BUTTONS\.0/],
    [{ 'BODY.1': 'BODY.1', 'BODY.2': 'BODY.2', url_button_param: 'BUTTONS.0' }, 'mapping', /phone_number/],
    [{ phone_number: 'phone_number', full_name: 'phone_number' }, 'mapping.full_name', /both feed phone_number/],
    ['[1,2]', 'mapping', /JSON object/],
  ];
  for (const [mapping, field, message] of cases) {
    const res = await startFile(h, [...fields({ mapping: typeof mapping === 'string' ? mapping : (mapping as object) }), csvPart(t)]);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'MAPPING_INVALID');
    assert.equal(res.body.errors[0].field, field);
    assert.match(res.body.errors[0].message, message);
  }
});

test('without a mapping, a file without a phone_number header is MAPPING_INVALID', async () => {
  const res = await startFile(h, [...fields(), csvPart([['tel', 'BODY.1'], ['905550000013', 'x']])]);
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'MAPPING_INVALID');
});

test('a file that is neither CSV nor XLSX is 415 FILE_TYPE_UNSUPPORTED', async () => {
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]), Buffer.alloc(64, 7)]);
  for (const file of [
    { name: 'file', fileName: 'list.png', type: 'image/png', data: png },
    { name: 'file', fileName: 'list.xlsx', type: 'text/csv', data: Buffer.from('phone_number\n905550000013\n') },
    { name: 'file', fileName: 'list.xls', type: 'application/vnd.ms-excel', data: Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]) },
  ]) {
    const res = await startFile(h, [...fields(), file]);
    assert.equal(res.status, 415, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'FILE_TYPE_UNSUPPORTED');
    assert.equal(res.body.errors[0].field, 'file');
  }
});

test('a broken CSV, an empty file and a header without rows are 400 FILE_INVALID', async () => {
  const header = 'phone_number,BODY.1,BODY.2,url_button_param\n';
  for (const data of [`${header}905550000013,x,"y,z\n905550000023,x,y,z\n`, '', header]) {
    const res = await startFile(h, [...fields(), { name: 'file', fileName: 'list.csv', type: 'text/csv', data: Buffer.from(data) }]);
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'FILE_INVALID');
  }
});

test('a damaged XLSX is 400 FILE_INVALID', async () => {
  const part = (await xlsxPart(table(phones(2, '9055629')))) as Part & { data: Buffer };
  const damaged: Part = { ...part, data: part.data.subarray(0, Math.floor(part.data.length / 2)) };
  const res = await startFile(h, [...fields(), damaged]);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'FILE_INVALID');
});

test('missing file, unknown field and a bad total_time are 400 naming the field', async () => {
  const t = table(phones(1, '9055630'));
  const noFile = await startFile(h, fields());
  assert.equal(noFile.status, 400);
  assert.equal(noFile.body.errors[0].field, 'file');
  const unknown = await startFile(h, [...fields({ colour: 'red' }), csvPart(t)]);
  assert.equal(unknown.body.errors[0].field, 'colour');
  const time = await startFile(h, [...fieldParts({ message_template_id: templateId, channel_id: channel, total_time: 'soon' }), csvPart(t)]);
  assert.equal(time.body.errors[0].field, 'total_time');
});

test("another company's channel is 404 and stores nothing", async () => {
  const before = await counts();
  const res = await startFile(h, [...fieldParts({ message_template_id: templateId, channel_id: OTHER_CHANNEL_ID, total_time: 0 }), csvPart(table(phones(1, '9055631')))]);
  assert.equal(res.status, 404);
  const again = await startFile(h, [...fields(), csvPart(table(phones(1, '9055631')))], h.b.token);
  assert.equal(again.status, 404);
  assert.deepEqual(await counts(), before);
});

test('a JSON body on start-file is 415', async () => {
  const res = await h.call('POST', `${A}/start-file`, { body: { message_template_id: templateId } });
  assert.equal(res.status, 415);
});

test('Idempotency-Key: the same fields and file under one key start once, whatever the multipart framing', async () => {
  const t = table(phones(2, '9055632'));
  const key = { 'idempotency-key': 'file-start-1' };
  const first = await startFile(h, [...fields(), csvPart(t)], h.a.token, key);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  const again = await startFile(h, [csvPart(t), ...fields()], h.a.token, key); // another boundary, another part order
  assert.equal(again.status, 200);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(again.body.data.send_wizard_id, first.body.data.send_wizard_id);
  const other = await startFile(h, [...fields(), csvPart(table(phones(2, '9055633')))], h.a.token, key);
  assert.equal(other.status, 409);
  assert.equal(other.body.errors[0].code, 'IDEMPOTENCY_KEY_REUSED');
});
