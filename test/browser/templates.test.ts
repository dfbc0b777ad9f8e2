/**
 * Templates page in headless chromium: a template with a URL button (with a {{1}} suffix) and a quick reply
 * is made in the create form; a broken URL first comes back from the service as a field-path error shown
 * at the URL field; once fixed the template is created and the list shows it APPROVED (the simulator
 * reviews after 1 s; the list refreshes itself). Then it is deleted through the confirm dialog. Both
 * pages are looked at in 1280 and 390 px wide tabs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { DESKTOP, PHONE, expectNoConsoleErrors, expectNoSidewaysScroll, startConsoleWorld, type ConsoleWorld } from './support.js';

let world: ConsoleWorld;
const shots = join(tmpdir(), 'tms-console-shots');

before(async () => {
  world = await startConsoleWorld();
  mkdirSync(shots, { recursive: true });
  // A second template, made through the API, for the filters.
  const res = await world.h.call('POST', '/agent-app/message-template/template', {
    body: { name: 'welcome_note', category: 'MARKETING', language: 'en_US', channel_id: '110000000000001', components: [{ type: 'BODY', text: 'Welcome to *our shop*!' }] },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
});
after(() => world?.close());

test('a template with a URL and a quick-reply button is created in the form, its field error shown at the field, and listed APPROVED', async () => {
  const watched = await world.signedIn('/templates', DESKTOP);
  const { page } = watched;
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByRole('heading', { name: 'New template' }).waitFor();

  await page.getByLabel('Name', { exact: true }).fill('Spring Sale 2026');
  assert.equal(await page.getByLabel('Name', { exact: true }).inputValue(), 'spring_sale_2026');
  await page.getByTestId('name-status').filter({ hasText: 'The name is free' }).waitFor();

  await page.getByLabel('Body text').fill('Hello {{1}}, spring prices start at {{2}} today.');
  await page.getByLabel('Example for {{1}}').fill('Ayse');
  await page.getByLabel('Example for {{2}}').fill('9.99');
  await page.getByLabel('Footer text').fill('Reply STOP to opt out');
  await page.getByRole('button', { name: '+ Visit website (URL)' }).click();
  await page.locator('#tpl-buttons-0-text').fill('Shop now');
  // ftp:// passes the browser's own checks; the service refuses it with the field path components[2].buttons[0].url.
  await page.locator('#tpl-buttons-0-url').fill('ftp://shop.example.com/{{1}}');
  await page.getByLabel('Example suffix for {{1}}').fill('spring');
  await page.getByRole('button', { name: '+ Quick reply' }).click();
  await page.locator('#tpl-buttons-1-text').fill('Stop promotions');

  const preview = page.getByRole('figure', { name: 'Live preview of the template' });
  await preview.getByText('Hello Ayse, spring prices start at 9.99 today.').waitFor();
  await preview.getByText('Shop now').waitFor();
  await preview.getByText('Stop promotions').waitFor();
  await page.screenshot({ path: join(shots, 'template-form-1280.png'), fullPage: true });

  await page.getByRole('button', { name: 'Submit for review' }).click();
  const urlError = page.locator('[data-field-error="tpl-buttons-0-url"]');
  await urlError.waitFor();
  assert.match(await urlError.innerText(), /http/);
  assert.equal(await page.locator('#tpl-buttons-0-url').getAttribute('aria-invalid'), 'true');

  await page.locator('#tpl-buttons-0-url').fill('https://shop.example.com/{{1}}');
  assert.equal(await urlError.count(), 0, 'editing the field clears its error');
  await page.getByRole('button', { name: 'Submit for review' }).click();

  await page.getByRole('heading', { name: 'Templates' }).waitFor();
  const row = page.locator('tr[data-template="spring_sale_2026"]');
  await row.locator('[data-testid="template-status"][data-code="APPROVED"]').waitFor({ timeout: 30_000 });
  assert.equal(await row.getByRole('cell').nth(2).innerText(), 'Marketing');
  assert.equal(await row.getByTestId('template-status').innerText(), 'Approved');
  await page.getByRole('complementary', { name: 'Template preview' }).getByText('Stop promotions').waitFor();

  const res = await world.h.call('GET', '/api/v1/message-templates?channel_id=110000000000001');
  const made = res.body.items.find((t: { name: string }) => t.name === 'spring_sale_2026');
  assert.equal(made.status, 'APPROVED');
  assert.deepEqual(made.components.find((c: { type: string }) => c.type === 'BUTTONS').buttons, [
    { type: 'URL', text: 'Shop now', url: 'https://shop.example.com/{{1}}', example: ['spring'] },
    { type: 'QUICK_REPLY', text: 'Stop promotions' },
  ]);
  await page.screenshot({ path: join(shots, 'templates-1280.png'), fullPage: true });
  // The one 400 is the refused ftp:// URL, on purpose.
  expectNoConsoleErrors(watched, [/status of 400/]);
});

test('the list filters by status and text, and a template is deleted after the confirm dialog', async () => {
  const watched = await world.signedIn('/templates', DESKTOP);
  const { page } = watched;
  await page.locator('tr[data-template="spring_sale_2026"]').waitFor();
  await page.getByLabel('Search').fill('our shop');
  await page.locator('tr[data-template="welcome_note"]').waitFor();
  assert.equal(await page.locator('tr[data-template="spring_sale_2026"]').count(), 0);
  await page.getByLabel('Search').fill('');
  await page.getByLabel('Status').selectOption('APPROVED');
  await page.locator('tr[data-template="spring_sale_2026"]').waitFor();

  await page.getByRole('button', { name: 'Delete spring_sale_2026' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete spring_sale_2026?' });
  await dialog.waitFor();
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'detached' });
  assert.equal(await page.locator('tr[data-template="spring_sale_2026"]').count(), 1, 'Escape cancels');

  await page.getByRole('button', { name: 'Delete spring_sale_2026' }).click();
  await dialog.getByRole('button', { name: 'Delete template' }).click();
  await page.getByRole('status').filter({ hasText: 'Deleted spring_sale_2026' }).waitFor();
  await page.locator('tr[data-template="spring_sale_2026"]').waitFor({ state: 'detached' });
  const res = await world.h.call('GET', '/api/v1/message-templates?channel_id=110000000000001');
  assert.equal(res.body.items.some((t: { name: string }) => t.name === 'spring_sale_2026'), false);
  expectNoConsoleErrors(watched);
});

/** A real 1x1 PNG (the service sniffs the content; the preview shows it). */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

test('a carousel template with an uploaded image per card is created and approved', async () => {
  const watched = await world.signedIn('/templates/new', DESKTOP);
  const { page } = watched;
  await page.getByLabel('Name', { exact: true }).fill('spring_picks');
  await page.getByRole('radio', { name: /Carousel/ }).check();
  await page.locator('#tpl-body').fill('Picks for {{1}} this week');
  await page.locator('#tpl-bodyExamples-0').fill('Ayse');
  for (const j of [0, 1]) {
    const card = page.getByRole('listitem', { name: `Card ${j + 1}` });
    await page.locator(`#tpl-cards-${j}-media`).setInputFiles({ name: `pick-${j}.png`, mimeType: 'image/png', buffer: PNG });
    await card.getByText(`Uploaded: pick-${j}.png`).waitFor();
    await page.locator(`#tpl-cards-${j}-body`).fill('Only {{1}} today');
    await page.locator(`#tpl-cards-${j}-bodyExamples-0`).fill(`${j + 5}.99`);
    await card.getByRole('button', { name: '+ Quick reply' }).click();
    await page.locator(`#tpl-cards-${j}-buttons-0-text`).fill('More like this');
  }
  const preview = page.getByRole('figure', { name: 'Live preview of the template' });
  await preview.getByText('Only 6.99 today').waitFor();
  assert.equal(await preview.getByRole('img', { name: 'Header image' }).count(), 2);
  await page.screenshot({ path: join(shots, 'template-carousel-1280.png'), fullPage: true });
  await page.getByRole('button', { name: 'Submit for review' }).click();
  const row = page.locator('tr[data-template="spring_picks"]');
  await row.locator('[data-testid="template-status"][data-code="APPROVED"]').waitFor({ timeout: 30_000 });
  const res = await world.h.call('GET', '/api/v1/message-templates?channel_id=110000000000001');
  const made = res.body.items.find((t: { name: string }) => t.name === 'spring_picks');
  const cards = made.components.find((c: { type: string }) => c.type === 'CAROUSEL').cards;
  assert.equal(cards.length, 2);
  for (const card of cards) assert.match(card.components[0].example.header_handle[0], /\S/);
  expectNoConsoleErrors(watched);
});

test('the templates list and the create form fit a 390 px phone', async () => {
  const watched = await world.signedIn('/templates', PHONE);
  const { page } = watched;
  await page.locator('tr[data-template="welcome_note"]').waitFor();
  await page.getByRole('button', { name: 'welcome_note', exact: true }).click();
  await page.getByRole('figure', { name: 'Preview of welcome_note' }).getByText('our shop').waitFor();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'templates-390.png'), fullPage: true });
  await page.getByRole('link', { name: 'New template' }).click();
  await page.getByLabel('Body text').fill('Hi {{1}}');
  await page.getByRole('radio', { name: /Carousel/ }).check();
  await page.getByRole('button', { name: '+ Visit website (URL)' }).first().click();
  await expectNoSidewaysScroll(page);
  await page.screenshot({ path: join(shots, 'template-form-390.png'), fullPage: true });
  expectNoConsoleErrors(watched);
});

test('a REQUEST_CONTACT_INFO button is added without a label, previewed with WhatsApp’s own, and created bare', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const watched = await world.signedIn('/templates', viewport);
    const { page } = watched;
    await page.getByRole('link', { name: 'New template' }).click();
    const name = `ask_phone_${viewport.width}`;
    await page.getByLabel('Name', { exact: true }).fill(name);
    await page.getByTestId('name-status').filter({ hasText: 'The name is free' }).waitFor();
    await page.getByLabel('Body text').fill('Share your number for delivery updates.');
    await page.getByRole('button', { name: '+ Request phone number' }).click();
    assert.equal(await page.locator('#tpl-buttons-0-text').count(), 0, 'no label field for this button');
    await page.getByRole('figure', { name: 'Live preview of the template' }).getByText('Share phone number').waitFor();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: join(shots, `template-contact-button-${viewport.width}.png`), fullPage: true });
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page.getByRole('heading', { name: 'Templates' }).waitFor();
    const res = await world.h.call('GET', '/api/v1/message-templates?channel_id=110000000000001');
    const made = res.body.items.find((t: { name: string }) => t.name === name);
    assert.deepEqual(made.components.find((c: { type: string }) => c.type === 'BUTTONS').buttons, [{ type: 'REQUEST_CONTACT_INFO' }]);
    expectNoConsoleErrors(watched);
  }
});
