/**
 * Customers known only by a BSUID in the console (headless chromium): the wizard maps a user ID column by itself,
 * marks a malformed BSUID at its cell, and sends to BSUIDs; the report detail shows the user ID column; the message
 * lookup finds a BSUID's messages. At 1280 px and 390 px, screenshots in the temp folder.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { simAdmin } from '../support/harness.js';
import { reportRows, untilWizard } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';
import { DESKTOP, PHONE, expectNoConsoleErrors, expectNoSidewaysScroll, startConsoleWorld, type ConsoleWorld } from './support.js';

const CHANNEL = '110000000000001';
let world: ConsoleWorld;
let templateId: string;
let sendId: string;
let bsuid: string;
const shots = join(tmpdir(), 'tms-console-shots');

before(async () => {
  world = await startConsoleWorld();
  mkdirSync(shots, { recursive: true });
  templateId = await approvedTemplate(world.h, CHANNEL);
});
after(() => world?.close());

test('a list with a user ID column: mapped by itself, a bad BSUID marked at its cell, fixed, sent to the BSUIDs', async () => {
  const [u1, u2] = [(await simAdmin(world.h, '/_sim/users/905557740013')).user_id, (await simAdmin(world.h, '/_sim/users/905557740023')).user_id];
  bsuid = u1;
  const watched = await world.signedIn(`/send?channel=${CHANNEL}&template=${templateId}`, DESKTOP);
  const { page } = watched;
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  await page.getByLabel(/Or paste a list/).fill(
    `phone\tbsuid\tname\tBODY.1\tBODY.2\turl\n\t${u1}\tCan\tCan\tX1\tc-1\n905557740033\t\tEce\tEce\tX2\tc-2\n\tTR-123\tDeniz\tDeniz\tX3\tc-3`,
  );
  await page.getByRole('button', { name: 'Use pasted list' }).click();
  await page.getByTestId('list-summary').waitFor();
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  assert.equal(await page.getByLabel('WhatsApp user ID (BSUID, optional)').inputValue(), '1');
  await page.getByLabel('Phone number (with country code; optional with a user ID)').waitFor();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'bsuid-columns-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();

  const issues = page.getByTestId('issues');
  await issues.getByText('Row 3, user ID (BSUID)').waitFor();
  assert.equal(await issues.locator('li').count(), 1);
  const cell = page.getByLabel('Row 3 user ID (BSUID)');
  assert.equal(await cell.getAttribute('aria-invalid'), 'true');
  await page.screenshot({ path: join(shots, 'bsuid-check-1280.png'), fullPage: true });
  await cell.fill(u2);
  await cell.press('Tab');
  await issues.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Check with the service' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor();
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  assert.equal(await page.getByTestId('confirm-count').innerText(), '3');
  await page.getByRole('button', { name: 'Start sending 3 messages' }).click();
  const link = page.getByTestId('report-link');
  await link.waitFor();
  sendId = new URL((await link.getAttribute('href'))!.replace('#', ''), 'http://x').searchParams.get('id')!;
  await untilWizard(world.h, CHANNEL, sendId, ['COMPLETED'], 60_000);
  const rows = await reportRows(world.h, sendId);
  assert.deepEqual(rows.map((r: { phone_number: string | null; user_id: string | null }) => [r.phone_number, r.user_id === null ? null : r.user_id.slice(0, 3)]), [
    [null, 'TR.'], ['+905557740033', 'TR.'], [null, 'TR.'],
  ]);
  assert.deepEqual([rows[0].user_id, rows[2].user_id], [u1, u2]);
  assert.equal((await simAdmin(world.h, '/_sim/received?to=905557740023')).messages[0].recipient, u2);

  await link.click();
  await page.waitForURL(/#\/reports/);
  const table = page.getByTestId('report-rows');
  await table.getByRole('columnheader', { name: 'User ID' }).waitFor();
  await table.getByText(u1).waitFor();
  await page.screenshot({ path: join(shots, 'bsuid-report-1280.png'), fullPage: true });
  expectNoConsoleErrors(watched);
});

test('the message lookup finds a BSUID’s messages at 390 px, with the user ID on the card; the report detail fits too', async () => {
  assert.ok(sendId, 'the wizard test ran first');
  const watched = await world.signedIn('/lookup', PHONE);
  const { page } = watched;
  await page.getByLabel('Phone number or user ID').fill(bsuid);
  await page.getByRole('button', { name: 'Find messages' }).click();
  const card = page.locator('[data-message-id]').first();
  await card.waitFor();
  assert.equal(await card.getByTestId('user-id').innerText(), bsuid);
  assert.match(await card.innerText(), /phone number not known/);
  assert.match(page.url(), /#\/lookup\?phone=/);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'bsuid-lookup-390.png'), fullPage: true });
  await page.getByLabel('Phone number or user ID').fill('TR.ENT.');
  await page.getByRole('button', { name: 'Find messages' }).click();
  await page.getByRole('alert').filter({ hasText: 'phone_number' }).waitFor();

  await page.goto(`${world.h.appUrl}/#/reports?channel=${CHANNEL}&id=${sendId}`);
  await page.getByTestId('report-rows').getByRole('columnheader', { name: 'User ID' }).waitFor();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'bsuid-report-390.png'), fullPage: true });
  expectNoConsoleErrors(watched, [/status of 400/]);
});
