/**
 * Send wizard in headless chromium: the channel step warns with the service's own reason (blocked_reason) for a
 * number the wizard used to think could send (BANNED); the wizard keeps its place, list, mapping and pacing when
 * the user opens another tab of the console and comes back; a column's example values are shown whole.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { DESKTOP, PHONE, expectNoConsoleErrors, expectNoSidewaysScroll, startConsoleWorld, type ConsoleWorld } from './support.js';

const MAIN = SIM_CHANNEL_IDS.main;
const SMALL = SIM_CHANNEL_IDS.small;
let world: ConsoleWorld;
let templateId: string;
const shots = join(tmpdir(), 'tms-console-shots');

before(async () => {
  world = await startConsoleWorld();
  mkdirSync(shots, { recursive: true });
  templateId = await approvedTemplate(world.h, MAIN);
});
after(() => world?.close());

test('a BANNED number is shown as unable to send, in the service’s words', async () => {
  await simAdmin(world.h, `/_sim/channels/${SMALL}`, { status: 'BANNED' });
  try {
    await eventually(async () => {
      const res = await world.h.call('GET', '/api/v1/channels');
      return res.body.items.find((c: { id: string; blocked_reason: string | null }) => c.id === SMALL)?.blocked_reason ? true : undefined;
    }, 30_000);
    for (const viewport of [DESKTOP, PHONE]) {
      const watched = await world.signedIn('/send', viewport);
      const { page } = watched;
      await page.getByLabel('Channel').selectOption(SMALL);
      const warning = page.getByTestId('channel-blocked');
      assert.match(await warning.innerText(), /cannot send now: WhatsApp banned the number/);
      assert.equal(await page.getByRole('button', { name: 'Next: Template' }).isEnabled(), true, 'a blocked number can still be chosen: its send waits');
      await page.getByLabel('Channel').selectOption(MAIN);
      await warning.waitFor({ state: 'detached' });
      await expectNoSidewaysScroll(page);
      await page.getByLabel('Channel').selectOption(SMALL);
      await page.screenshot({ path: join(shots, `wizard-channel-${viewport.width}.png`), fullPage: true });
      expectNoConsoleErrors(watched);
      await page.close();
    }
  } finally {
    await simAdmin(world.h, `/_sim/channels/${SMALL}`, { status: 'CONNECTED' });
  }
});

test('leaving for another tab and coming back keeps the step, the list, the mapping and the pacing', async () => {
  const longName = 'Ayşe Yılmaz-Korkmaz, Customer Success Department, İstanbul Anadolu Yakası Office';
  const watched = await world.signedIn(`/send?channel=${MAIN}&template=${templateId}`, PHONE);
  const { page } = watched;
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  await page.getByLabel(/Or paste a list/).fill(`phone,name,BODY.1,BODY.2,url\n905557730013,"${longName}",Ayse,K1,a-1\n905557730023,Can,Can,K2,c-2`);
  await page.getByRole('button', { name: 'Use pasted list' }).click();
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  // The name column's examples are shown whole, wrapped inside the page.
  const examples = page.locator('#map-full_name-examples');
  assert.match(await examples.innerText(), new RegExp(longName));
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'wizard-columns-390.png'), fullPage: true });
  // The user's own choice: no name column.
  await page.getByLabel('Recipient name (optional)').selectOption('');
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor();
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  await page.getByRole('radio', { name: 'Over 1 hour' }).check();

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Reports' }).click();
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Send' }).click();

  await page.getByRole('heading', { name: '6. Pacing' }).waitFor();
  assert.equal(await page.getByRole('radio', { name: 'Over 1 hour' }).isChecked(), true);
  await page.waitForURL(new RegExp(`channel=${MAIN}&template=${templateId}`));
  await page.getByRole('button', { name: 'Back' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor();
  await page.getByRole('button', { name: 'Back' }).click();
  assert.equal(await page.getByLabel('Recipient name (optional)').inputValue(), '', 'the user’s mapping is kept, not made again');
  assert.equal(await page.getByLabel('Phone number (with country code)').inputValue(), '0');
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  assert.equal(await page.getByTestId('confirm-count').innerText(), '2');
  await page.getByTestId('confirm-summary').getByText('over 1 h').waitFor();
  expectNoConsoleErrors(watched);
});

test('the sample Excel file for the template maps itself when chosen; a fixed value fills a whole column', async () => {
  const watched = await world.signedIn(`/send?channel=${MAIN}&template=${templateId}`, DESKTOP);
  const { page } = watched;
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download Excel (.xlsx)' }).click()]);
  assert.match(file.suggestedFilename(), /-recipients\.xlsx$/);
  const path = await file.path();
  // The CSV sample too.
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
  assert.match(csv.suggestedFilename(), /-recipients\.csv$/);
  await page.getByLabel('A CSV or Excel (.xlsx) file').setInputFiles({
    name: file.suggestedFilename(), mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: readFileSync(path),
  });
  // The sample's two example rows: one by phone number, one by BSUID only.
  await page.getByTestId('list-summary').filter({ hasText: 'Read 2 rows' }).waitFor();
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  // Every select has a column: nothing is missing.
  assert.equal(await page.locator('.mapping-grid select[aria-invalid="true"]').count(), 0);
  assert.equal(await page.getByRole('button', { name: 'Next: Preview & check' }).isEnabled(), true);
  // The second body value becomes one value for every row.
  await page.getByLabel(/Body \{\{2\}\}/).first().selectOption('fixed');
  assert.equal(await page.getByRole('button', { name: 'Next: Preview & check' }).isDisabled(), true, 'a blank fixed value is missing');
  await page.getByLabel(/Body \{\{2\}\}: the value for every row/).fill('SPRINGALL');
  await page.screenshot({ path: join(shots, 'wizard-columns-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  await page.getByRole('figure', { name: 'Message for row 1' }).getByText(/SPRINGALL/).waitFor();
  expectNoConsoleErrors(watched);
});
