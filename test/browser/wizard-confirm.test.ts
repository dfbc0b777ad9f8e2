/**
 * Send wizard in headless chromium, the last steps: a test send of one row's message to one number through the
 * single send (the simulator receives exactly that row's values, and no bulk send starts), then a scheduled start
 * (a time that has passed is refused in words; a later one makes the bulk send SCHEDULED at that time).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin } from '../support/harness.js';
import { listItem } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';
import { DESKTOP, PHONE, expectNoConsoleErrors, expectNoSidewaysScroll, startConsoleWorld, type ConsoleWorld } from './support.js';

const MAIN = SIM_CHANNEL_IDS.main;
let world: ConsoleWorld;
let templateId: string;
const shots = join(tmpdir(), 'tms-console-shots');

before(async () => {
  world = await startConsoleWorld();
  mkdirSync(shots, { recursive: true });
  templateId = await approvedTemplate(world.h, MAIN);
});
after(() => world?.close());

/** The wizard at its confirm step with a two-row pasted list. */
async function toConfirm(viewport: { width: number; height: number }, list: string) {
  const watched = await world.signedIn(`/send?channel=${MAIN}&template=${templateId}`, viewport);
  const { page } = watched;
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  await page.getByLabel(/Or paste a list/).fill(list);
  await page.getByRole('button', { name: 'Use pasted list' }).click();
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  await page.getByTestId('check-state').filter({ hasText: 'Checked by the service' }).waitFor();
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  return watched;
}

const bulkSends = async () => (await world.h.call('POST', '/agent-app/message-template/send-wizard/reports', { body: { channel_id: MAIN, page: 1, page_size: 500 } })).body.pagination.total;

test('a test send delivers one row’s message to the number given, and starts no bulk send', async () => {
  const watched = await toConfirm(DESKTOP, 'phone,BODY.1,BODY.2,url\n905557760013,Ayse,T1,a-1\n905557760023,Mehmet,T2,m-2');
  const { page } = watched;
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  const before = await bulkSends();
  await page.getByLabel('Your phone number (with country code)').fill('905557769993');
  await page.getByLabel('With the values of').selectOption({ label: 'Row 2 (905557760023)' });
  await page.getByRole('button', { name: 'Send test message' }).click();
  await page.locator('[data-testid="test-send-status"]:is([data-code="BACKEND_SENT"], [data-code="BACKEND_SEEN"])').waitFor({ timeout: 60_000 });
  const got = await simAdmin(world.h, '/_sim/received?to=%2B905557769993');
  assert.equal(got.messages.length, 1);
  assert.deepEqual(got.messages[0].components, [
    { type: 'body', parameters: [{ type: 'text', text: 'Mehmet' }, { type: 'text', text: 'T2' }] },
    { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'm-2' }] },
  ]);
  assert.equal(await bulkSends(), before, 'no bulk send was started');
  await page.screenshot({ path: join(shots, 'wizard-test-send-1280.png'), fullPage: true });
  expectNoConsoleErrors(watched);
  await page.close();
});

test('a bad test number is refused in words and nothing is sent', async () => {
  const watched = await toConfirm(PHONE, 'phone,BODY.1,BODY.2,url\n905557770013,Can,T3,c-3');
  const { page } = watched;
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  await page.getByLabel('Your phone number (with country code)').fill('12');
  await page.getByRole('button', { name: 'Send test message' }).click();
  await page.getByTestId('test-send-error').waitFor();
  assert.match(await page.getByTestId('test-send-error').innerText(), /phone/i);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'wizard-test-send-390.png'), fullPage: true });
  expectNoConsoleErrors(watched, [/status of 400/]);
  await page.close();
});

test('a start time that has passed is refused; a later one schedules the bulk send for that time', async () => {
  const watched = await toConfirm(PHONE, 'phone,BODY.1,BODY.2,url\n905557780013,Elif,S1,e-1\n905557780023,Deniz,S2,d-2');
  const { page } = watched;
  await page.getByRole('radio', { name: 'At a time' }).check();
  // The browser's local time as a datetime-local value (the page's time zone decides, as for a user).
  const local = (ms: number) => page.evaluate((offset) => {
    const d = new Date(Date.now() + offset);
    return [d.getFullYear(), '-', d.getMonth() + 1, '-', d.getDate(), 'T', d.getHours(), ':', d.getMinutes()]
      .map((v) => (typeof v === 'number' && v < 10 ? `0${v}` : String(v))).join('');
  }, ms);
  await page.getByLabel(/Start at/).fill(await local(-2 * 3600_000));
  await page.getByText('That time has passed').waitFor();
  assert.equal(await page.getByRole('button', { name: 'Next: Confirm' }).isDisabled(), true);
  const at = await local(3 * 3600_000);
  await page.getByLabel(/Start at/).fill(at);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'wizard-pacing-390.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  await page.getByLabel('Name this send (optional)').fill('Evening list');
  await page.getByRole('button', { name: 'Schedule 2 messages' }).click();
  const link = page.getByTestId('report-link');
  await link.waitFor();
  const id = new URL((await link.getAttribute('href'))!.replace('#', ''), 'http://x').searchParams.get('id')!;
  const item = await listItem(world.h, MAIN, id);
  assert.equal(item.status, 'SCHEDULED');
  const expected = await page.evaluate((v) => new Date(v).toISOString(), at);
  assert.equal(item.scheduled_at, expected);
  assert.equal(item.send_name, 'Evening list');
  await page.getByText(/Scheduled: 2 messages start/).waitFor();
  const res = await world.h.call('POST', '/agent-app/message-template/send-wizard/stop', { body: { send_wizard_id: id, channel_id: MAIN } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  expectNoConsoleErrors(watched);
});

test('rows with problems can be left out: counted and listed before the start, in the report after, with the cost estimate said as list price', async () => {
  const long = 'z'.repeat(1100);
  const watched = await world.signedIn(`/send?channel=${MAIN}&template=${templateId}`, DESKTOP);
  const { page } = watched;
  await page.getByRole('heading', { name: '3. Recipients' }).waitFor();
  await page.getByLabel(/Or paste a list/).fill(`phone,BODY.1,BODY.2,url\n905557790013,Ayse,K1,a\n123,Bad,K2,b\n905557790033,${long},K3,c\n905557790043,Elif,K4,e`);
  await page.getByRole('button', { name: 'Use pasted list' }).click();
  await page.getByRole('button', { name: 'Next: Columns' }).click();
  await page.getByRole('button', { name: 'Next: Preview & check' }).click();
  await page.getByTestId('issues').getByText(/Row 2, phone number/).waitFor();
  assert.equal(await page.getByRole('button', { name: 'Next: Pacing' }).isDisabled(), true);
  await page.getByLabel(/Leave out the rows with problems/).check();
  await page.getByTestId('check-state').filter({ hasText: '2 rows will be left out' }).waitFor();
  // The service's own verdict lists the long value too, which the console's checks let through.
  await page.getByTestId('issues').getByText(/Row 3, Body \{\{1\}\}/).waitFor();
  await page.screenshot({ path: join(shots, 'wizard-skip-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Next: Pacing' }).click();
  await page.getByRole('button', { name: 'Next: Confirm' }).click();
  assert.equal(await page.getByTestId('confirm-count').innerText(), '2');
  assert.match(await page.getByTestId('confirm-skipped').innerText(), /^2/);
  assert.match(await page.getByTestId('confirm-estimate').innerText(), /list price.*not an invoice/s);
  await page.getByRole('button', { name: 'Start sending 2 messages' }).click();
  const link = page.getByTestId('report-link');
  await link.waitFor();
  const id = new URL((await link.getAttribute('href'))!.replace('#', ''), 'http://x').searchParams.get('id')!;
  assert.equal((await listItem(world.h, MAIN, id)).skipped_count, 2);
  await link.click();
  const card = page.locator(`[data-send-id="${id}"]`);
  await card.getByTestId('skipped-count').filter({ hasText: '2 rows left out as invalid' }).click();
  const listed = card.getByTestId('skipped-rows');
  await listed.getByText(/^Row 2 \(123\)/).waitFor();
  assert.equal(await listed.locator('li').count(), 2);
  expectNoConsoleErrors(watched);
});
