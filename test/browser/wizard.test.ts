/**
 * Send wizard in headless chromium: an XLSX list (made here with exceljs) with one bad row (a phone number
 * too short to be one) is chosen as a file; the columns map themselves from the header names; the preview
 * lists the bad row at its phone cell, the cell is fixed in the preview, the service's dry run confirms
 * the list (count, duplicates removed, tier quota), the send starts and links to its report; the bulk send
 * reaches COMPLETED and its report rows and the messages the simulator received match the file.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import ExcelJS from 'exceljs';
import { simAdmin } from '../support/harness.js';
import { reportRows, untilWizard } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';
import { DESKTOP, PHONE, expectNoConsoleErrors, expectNoSidewaysScroll, startConsoleWorld, type ConsoleWorld } from './support.js';

const CHANNEL = '110000000000001';
let world: ConsoleWorld;
let templateId: string;
let templateName: string;
const shots = join(tmpdir(), 'tms-console-shots');

/** The file's rows: phone, name, BODY.1, BODY.2, BUTTONS.0 (URL suffix). Row 3's number is bad. */
const FILE_ROWS = [
  ['905557710013', 'Ayse Yilmaz', 'Ayse', 'SPRING1', 'ay-1'],
  ['905557710023', 'Mehmet Kaya', 'Mehmet', 'SPRING2', 'me-2'],
  ['90555', 'Deniz Acar', 'Deniz', 'SPRING3', 'de-3'],
  ['905557710043', 'Elif Demir', 'Elif', 'SPRING4', 'el-4'],
];
const FIXED_PHONE = '905557710033';

async function xlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Recipients');
  ws.addRow(['phone_number', 'full_name', 'BODY.1', 'BODY.2', 'BUTTONS.0']);
  for (const r of FILE_ROWS) ws.addRow([Number(r[0]), ...r.slice(1)]);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

before(async () => {
  world = await startConsoleWorld();
  mkdirSync(shots, { recursive: true });
  templateId = await approvedTemplate(world.h, CHANNEL);
  const res = await world.h.call('GET', `/api/v1/message-templates/${templateId}?channel_id=${CHANNEL}`);
  templateName = res.body.data.message_template.name;
});
after(() => world?.close());

test('an XLSX list with a bad row: the error is shown in the preview, fixed there, and the started bulk send completes with the file’s rows', async () => {
  const watched = await world.signedIn('/send', DESKTOP);
  const { page } = watched;
  await page.getByLabel('Channel').selectOption(CHANNEL);
  await page.getByRole('button', { name: 'Next: Template' }).click();
  await page.getByLabel('Approved template').selectOption(templateId);
  await page.getByRole('figure', { name: `Preview of ${templateName}` }).waitFor();
  await page.getByRole('button', { name: 'Next: Recipients' }).click();

  await page.getByLabel('A CSV or Excel (.xlsx) file').setInputFiles({
    name: 'spring.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await xlsx(),
  });
  await page.getByTestId('list-summary').filter({ hasText: 'Read 4 rows and 5 columns from the spring.xlsx' }).waitFor();
  await page.getByRole('button', { name: 'Next: Columns' }).click();

  // Every column mapped itself from its header name.
  assert.equal(await page.getByLabel('Phone number (with country code)').inputValue(), '0');
  assert.equal(await page.getByLabel(/Body \{\{2\}\}/).inputValue(), '3');
  assert.equal(await page.getByLabel(/end of its link/).inputValue(), '4');
  assert.equal(await page.getByLabel('Recipient name (optional)').inputValue(), '1');
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();

  // The bad row is listed with its row and column, and its cell is marked.
  const issues = page.getByTestId('issues');
  await issues.getByText('Row 3, phone number').waitFor();
  assert.equal(await issues.locator('li').count(), 1);
  assert.equal(await page.getByRole('button', { name: 'Next: Pacing' }).isDisabled(), true);
  await page.getByRole('figure', { name: 'Message for row 1' }).getByText('Hello Ayse, your code is SPRING1 today.').waitFor();
  await page.screenshot({ path: join(shots, 'wizard-check-1280.png'), fullPage: true });

  // Fix it in the preview: the link goes to the cell, typing a good number and leaving the cell commits it.
  await issues.getByRole('link', { name: 'Row 3, phone number' }).click();
  const cell = page.getByLabel('Row 3 phone number');
  assert.equal(await cell.evaluate((el) => el === document.activeElement), true);
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  await cell.fill(FIXED_PHONE);
  await cell.press('Tab');
  await issues.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Check with the service' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor();
  await page.getByRole('button', { name: 'Next: Pacing' }).click();

  await page.getByRole('radio', { name: 'Over 10 minutes' }).check();
  await page.getByTestId('pacing-text').filter({ hasText: 'spread evenly over 10 min' }).waitFor();
  await page.getByRole('radio', { name: 'As fast as the channel allows' }).check();
  await page.getByRole('button', { name: 'Next: Confirm' }).click();

  assert.equal(await page.getByTestId('confirm-count').innerText(), '4');
  assert.equal(await page.getByTestId('confirm-duplicates').innerText(), '0');
  await page.getByTestId('confirm-summary').getByText(/not messaged from this number in the last 24 hours/).waitFor();
  await page.getByLabel('Name this send (optional)').fill('Spring VIP list');
  await page.screenshot({ path: join(shots, 'wizard-confirm-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Start sending 4 messages' }).click();

  const link = page.getByTestId('report-link');
  await link.waitFor();
  const id = new URL((await link.getAttribute('href'))!.replace('#', ''), 'http://x').searchParams.get('id')!;
  assert.ok(id);

  const item = await untilWizard(world.h, CHANNEL, id, ['COMPLETED'], 60_000);
  assert.equal(item.summary, 4);
  assert.equal(item.send_name, 'Spring VIP list');
  const rows = await reportRows(world.h, id);
  const expected = FILE_ROWS.map((r, i) => [i + 1, `+${i === 2 ? FIXED_PHONE : r[0]}`, r[1]]);
  assert.deepEqual(rows.map((r: { row_id: number; phone_number: string; full_name: string }) => [r.row_id, r.phone_number, r.full_name]), expected);
  for (const [k, r] of FILE_ROWS.entries()) {
    const phone = k === 2 ? FIXED_PHONE : r[0];
    const got = await simAdmin(world.h, `/_sim/received?to=%2B${phone}`);
    assert.equal(got.messages.length, 1, phone);
    assert.deepEqual(got.messages[0].components, [
      { type: 'body', parameters: [{ type: 'text', text: r[2] }, { type: 'text', text: r[3] }] },
      { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: r[4] }] },
    ]);
  }
  await link.click();
  await page.waitForURL(/#\/reports/);
  // The reports list titles the send with its own name and says the template beside it.
  const card = page.locator(`[data-send-id="${id}"]`);
  assert.equal(await card.getByTestId('send-title').innerText(), 'Spring VIP list');
  assert.equal(await card.getByTestId('send-template').innerText(), `Template ${templateName}`);
  await page.screenshot({ path: join(shots, 'reports-named-1280.png'), fullPage: true });
  expectNoConsoleErrors(watched);
});

test('a pasted list goes through the wizard at 390 px wide', async () => {
  const watched = await world.signedIn(`/send?channel=${CHANNEL}&template=${templateId}`, PHONE);
  const { page } = watched;
  // From a template's Send link the wizard opens at the recipients.
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  // Row 2's BODY.1 passes the console's own checks but not the service's (a parameter is at most 1,024 characters).
  const long = 'y'.repeat(1100);
  await page.getByLabel(/Or paste a list/).fill(`phone\tname\tBODY.1\tBODY.2\turl\n905557720013\tCan\tCan\tX1\tc-1\n905557720013\tCan again\t${long}\tX1\tc-1`);
  await page.getByRole('button', { name: 'Use pasted list' }).click();
  await page.getByTestId('list-summary').waitFor();
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  await expectNoSidewaysScroll(page);
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  // The service's dry run names rows[1].BODY.1: listed, and marked at that cell.
  await page.getByTestId('issues').getByText(/Row 2, Body \{\{1\}\}: .*1024/).waitFor();
  const cell = page.getByLabel('Row 2 Body {{1}}');
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  await cell.fill('Can');
  await cell.press('Tab');
  await page.getByRole('button', { name: 'Check with the service' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'wizard-check-390.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  assert.equal(await page.getByTestId('confirm-count').innerText(), '1');
  assert.equal(await page.getByTestId('confirm-duplicates').innerText(), '1');
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'wizard-confirm-390.png'), fullPage: true });
  // The one 400 is the dry run that refused row 2, on purpose.
  expectNoConsoleErrors(watched, [/status of 400/]);
});

test('a list too big to edit goes to the service as the file: its rows are checked there (a bad one named by sheet row) and it starts from the file', async () => {
  const ROWS = 5_001;
  const bigXlsx = async (badAt: number | null) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Big');
    ws.addRow(['phone_number', 'BODY.1', 'BODY.2', 'BUTTONS.0']);
    for (let i = 0; i < ROWS; i++) ws.addRow([i === badAt ? '12' : `9055588${String(i).padStart(5, '0')}`, `N${i}`, `C${i}`, `u${i}`]);
    return Buffer.from(await wb.xlsx.writeBuffer());
  };
  const watched = await world.signedIn(`/send?channel=${CHANNEL}&template=${templateId}`, DESKTOP);
  const { page } = watched;
  const choose = async (buffer: Buffer) => {
    await page.getByLabel('A CSV or Excel (.xlsx) file').setInputFiles({ name: 'big.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await page.getByTestId('list-summary').filter({ hasText: '5,001 rows' }).waitFor({ timeout: 60_000 });
  };
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  await choose(await bigXlsx(3_999));
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  // Data row 3,999 (0-based) is sheet row 4,001: the header is row 1.
  await page.getByTestId('issues').getByText('Sheet row 4001, phone number').waitFor({ timeout: 60_000 });
  assert.equal(await page.getByRole('button', { name: 'Next: Pacing' }).isDisabled(), true);

  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByRole('button', { name: 'Back' }).click();
  await choose(await bigXlsx(null));
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  assert.equal(await page.getByTestId('confirm-count').innerText(), '5,001');
  await page.getByRole('button', { name: 'Start sending 5,001 messages' }).click();
  const link = page.getByTestId('report-link');
  await link.waitFor({ timeout: 60_000 });
  const id = new URL((await link.getAttribute('href'))!.replace('#', ''), 'http://x').searchParams.get('id')!;
  const res = await world.h.call('POST', '/agent-app/message-template/send-wizard/stop', { body: { send_wizard_id: id, channel_id: CHANNEL } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const rows = await world.h.call('POST', '/agent-app/message-template/send-wizard/reports/detail', { body: { id, data: { page: 1, page_size: 1 } } });
  assert.equal(rows.body.pagination.total, ROWS);
  // The one 400 is the refused file with the bad row, on purpose.
  expectNoConsoleErrors(watched, [/status of 400/]);
});
