import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { EXPORT_COLUMNS, exportReport } from '../../src/engine/report-export.js';
import { eventually, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';

let h: Harness;
let wizardId: string;
let apiRows: Array<Record<string, unknown>>;
const channel = SIM_CHANNEL_IDS.main;
const EXPORT = '/agent-app/message-template/send-wizard/reports/detail/export';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  const templateId = await approvedTemplate(h, channel);
  // Two numbers ending in 000 fail (131026): the export then has error fields too.
  const numbers = [...phones(10, '9055641'), '905564200000', '905564300000'];
  wizardId = await startV1(h, { message_template_id: templateId, rows: v1Rows(numbers), total_time: 0, channel_id: channel });
  await untilWizard(h, channel, wizardId, ['COMPLETED'], 60_000);
  apiRows = await eventually(async () => {
    const rows = await reportRows(h, wizardId);
    return rows.every((r: { status: string }) => ['BACKEND_SEEN', 'BACKEND_FAILED'].includes(r.status)) ? rows : undefined;
  }, 60_000);
});
after(() => h.close());

/** The row's pricing cells from the API item (the shipped rate card has no figure for Turkey: list_price empty). */
function pricingCell(r: Record<string, unknown>, c: string): unknown {
  const p = r.pricing as { category: string; type: string | null; billable: boolean } | null;
  if (c === 'pricing_category') return p?.category;
  if (c === 'pricing_type') return p?.type;
  if (c === 'billed') return p ? String(p.billable && ['BACKEND_SENT', 'BACKEND_SEEN'].includes(r.status as string)) : null;
  return null;
}

/** The API's report rows as export cells (strings; unset fields empty). */
function expected(rows: Array<Record<string, unknown>>): string[][] {
  return rows.map((r) => EXPORT_COLUMNS.map((c) => {
    const v = c === 'row' ? r.row : ['pricing_category', 'pricing_type', 'billed', 'list_price'].includes(c) ? pricingCell(r, c) : r[c];
    return v === undefined || v === null ? '' : String(v);
  }));
}

async function download(query: string, token = h.a.token) {
  return h.app.http.inject({ method: 'GET', url: `${EXPORT}?${query}`, headers: { authorization: `Bearer ${token}` } });
}

async function xlsxTable(data: Buffer): Promise<string[][]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as never);
  const sheet = workbook.worksheets[0];
  const out: string[][] = [];
  sheet.eachRow({ includeEmpty: false }, (row) => {
    out.push(EXPORT_COLUMNS.map((_, i) => {
      const v = row.getCell(i + 1).value;
      return v === null || v === undefined ? '' : String(v);
    }));
  });
  return out;
}

test('the CSV export has the report detail rows of the API, header first', async () => {
  const res = await download(`id=${wizardId}&format=csv`);
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^text\/csv/);
  assert.equal(res.headers['content-disposition'], `attachment; filename="report-${wizardId}.csv"`);
  const table = parse(res.body) as string[][];
  assert.deepEqual(table[0], [...EXPORT_COLUMNS]);
  assert.equal(table.length - 1, 12);
  assert.deepEqual(table.slice(1), expected(apiRows));
});

test('rows read in several keyset batches join up in row order', async () => {
  const file = await exportReport(h.store.db, { warn: () => undefined }, h.a.companyId, wizardId, 'csv', undefined, 5);
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(Buffer.from(chunk));
  assert.deepEqual((parse(Buffer.concat(chunks)) as string[][]).slice(1), expected(apiRows));
});

test('the XLSX export has the same rows', async () => {
  const res = await download(`id=${wizardId}&format=xlsx`);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-type'], 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  assert.equal(res.headers['content-disposition'], `attachment; filename="report-${wizardId}.xlsx"`);
  const table = await xlsxTable(res.rawPayload);
  assert.deepEqual(table[0], [...EXPORT_COLUMNS]);
  assert.deepEqual(table.slice(1), expected(apiRows));
});

test('status exports only the rows the status filter of reports/detail lists', async () => {
  const res = await download(`id=${wizardId}&format=csv&status=BACKEND_FAILED`);
  assert.equal(res.statusCode, 200);
  assert.equal(res.headers['content-disposition'], `attachment; filename="report-${wizardId}-backend_failed.csv"`);
  const detail = await h.call('POST', '/agent-app/message-template/send-wizard/reports/detail', { body: { id: wizardId, status: 'BACKEND_FAILED' } });
  const table = (parse(res.body) as string[][]).slice(1);
  assert.equal(table.length, 2);
  assert.deepEqual(table, expected(detail.body.data.report_details));
  assert.ok(table.every((r) => r[EXPORT_COLUMNS.indexOf('error_message')] !== ''));
});

test('format defaults to csv', async () => {
  const res = await download(`id=${wizardId}`);
  assert.equal(res.statusCode, 200);
  assert.match(String(res.headers['content-type']), /^text\/csv/);
});

test("another company's bulk send and a missing one are both 404 NOT_FOUND", async () => {
  const other = await download(`id=${wizardId}&format=csv`, h.b.token);
  const missing = await download('id=000000000000000000000000&format=xlsx');
  for (const res of [other, missing]) {
    assert.equal(res.statusCode, 404);
    assert.equal(res.json().errors[0].code, 'NOT_FOUND');
  }
});

test('an unknown format or status is 400', async () => {
  for (const q of [`id=${wizardId}&format=pdf`, `id=${wizardId}&status=DONE`, 'format=csv']) {
    const res = await download(q);
    assert.equal(res.statusCode, 400, q);
    assert.equal(res.json().errors[0].code, 'VALIDATION_FAILED');
  }
});
