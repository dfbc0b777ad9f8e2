/**
 * The Webhooks page (headless chromium): add an endpoint (the bad address refused at its field, the secret shown
 * once and copied), see it listed, see a message's status changes arrive in its delivery log, fit 390 px, remove
 * it after the confirmation. Screenshots in the temp folder.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { eventually } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';
import { DESKTOP, PHONE, expectNoConsoleErrors, expectNoSidewaysScroll, startConsoleWorld, type ConsoleWorld } from './support.js';

const CHANNEL = '110000000000001';
let world: ConsoleWorld;
let receiver: Receiver;
const shots = join(tmpdir(), 'tms-console-shots');

before(async () => {
  world = await startConsoleWorld();
  receiver = await startReceiver(() => 200);
  mkdirSync(shots, { recursive: true });
  await world.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: world.h.appUrl });
});
after(async () => {
  await receiver?.close();
  await world?.close();
});

test('add an endpoint, see its deliveries after a send, check 390 px, remove it with the confirmation', async () => {
  const watched = await world.signedIn('/webhooks', DESKTOP);
  const { page } = watched;
  await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
  await page.getByText('No endpoints yet.').waitFor();

  const url = page.getByLabel('Address (URL) of your receiver');
  await url.fill('ftp://example.com/hook');
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  await page.locator('#endpoint-url-error').waitFor();
  assert.equal(await url.getAttribute('aria-invalid'), 'true');

  await url.fill(receiver.url);
  await page.getByLabel(/Bulk send status changes/).uncheck();
  await page.getByRole('button', { name: 'Add endpoint' }).click();
  const once = page.getByTestId('secret-once');
  await once.getByText('It will not be shown again').waitFor();
  const secret = await page.getByTestId('secret').innerText();
  assert.match(secret, /^whsec_/);
  await once.getByRole('button', { name: 'Copy secret' }).click();
  await once.getByText('Copied.').waitFor();
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
  receiver.setSecret(secret);

  const card = page.locator('[data-endpoint-id]');
  await card.getByRole('heading', { name: receiver.url }).waitFor();
  assert.match(await card.innerText(), /Message status changes/);
  assert.doesNotMatch(await card.innerText(), /Bulk send status changes/);
  assert.match(await card.getByTestId('last-result').innerText(), /Nothing sent yet/);
  await page.screenshot({ path: join(shots, 'webhooks-added-1280.png'), fullPage: true });

  const templateId = await approvedTemplate(world.h, CHANNEL);
  const sent = await singleSend(world.h, { channel_id: CHANNEL, phone_number: '905550177013', message_template_id: templateId, message_template: sendParams() });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await eventually(async () => receiver.received.length > 0, 20_000);
  assert.ok(receiver.received.every((r) => r.verified), 'signed with the secret the page showed');

  await card.getByRole('link', { name: /Recent deliveries/ }).click();
  const deliveries = page.getByTestId('deliveries');
  await page.getByRole('heading', { name: /Recent deliveries/, level: 2 }).waitFor();
  await eventually(async () => {
    await page.locator('.deliveries').getByRole('button', { name: 'Refresh' }).click();
    return (await deliveries.locator('tr[data-delivery-id]').filter({ hasText: 'Delivered' }).count()) > 0;
  }, 20_000);
  const row = deliveries.locator('tr[data-delivery-id]').last();
  assert.match(await row.innerText(), /Message: Queued → Sending/);
  assert.match(await row.innerText(), /\b1\b/);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'webhooks-deliveries-1280.png'), fullPage: true });

  await card.getByTestId('last-result').filter({ hasText: 'Delivered' }).waitFor();
  await page.setViewportSize(PHONE);
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'webhooks-390.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);

  await card.getByRole('button', { name: /Remove/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Remove this endpoint?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal((await world.h.call('GET', '/api/v1/webhook-endpoints')).body.items.length, 1);
  await card.getByRole('button', { name: /Remove/ }).click();
  await dialog.getByRole('button', { name: 'Remove endpoint' }).click();
  await page.getByText(`Removed ${receiver.url}`).waitFor();
  await card.waitFor({ state: 'detached' });
  assert.equal((await world.h.call('GET', '/api/v1/webhook-endpoints')).body.items.length, 0);
  expectNoConsoleErrors(watched, [/status of 400/]);
});
