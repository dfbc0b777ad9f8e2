/**
 * The web console in real headless chromium: sign-in, channels, live reports, stop, widths, the README's
 * screenshot. One service and one browser for the file (the suite runs on a 2-core CI).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'csv-parse/sync';
import ExcelJS from 'exceljs';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { listItem, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';
import { DESKTOP, expectNoConsoleErrors, expectNoSidewaysScroll, PHONE, startConsoleWorld, type ConsoleWorld } from './support.js';

let w: ConsoleWorld;
let template: string;
const main = SIM_CHANNEL_IDS.main;

before(async () => {
  w = await startConsoleWorld();
  template = await approvedTemplate(w.h, main);
});
after(() => w?.close());

/** The browser's own line for a response the test provoked on purpose. */
const HTTP_401 = /Failed to load resource: the server responded with a status of 401/;

test('signing in with a good token (keyboard only) shows the company name and the channels', async () => {
  const watched = await w.open();
  const { page } = watched;
  await page.goto(`${w.h.appUrl}/`);
  await page.getByLabel('API token').waitFor();
  await page.keyboard.type(w.h.a.token); // the token field has the focus
  await page.keyboard.press('Enter');
  await page.getByTestId('company-name').filter({ hasText: 'Company A' }).waitFor();
  await watched.page.getByRole('heading', { name: 'Channels' }).waitFor();
  assert.equal(await watched.page.evaluate(() => sessionStorage.getItem('tms.token')), w.h.a.token);
  expectNoConsoleErrors(watched);
  await watched.page.close();
});

test('a bad token is refused with a clear message and nothing is stored', async () => {
  const watched = await w.open();
  const { page } = watched;
  await page.goto(`${w.h.appUrl}/`);
  await page.getByLabel('API token').fill('tms_not-a-real-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  assert.match(await alert.innerText(), /did not accept this token: it is unknown or revoked/);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('tms.token')), null);
  expectNoConsoleErrors(watched, [HTTP_401]);
  await page.close();
});

test('a token refused mid-session signs the user out to the sign-in page with a message', async () => {
  const watched = await w.open();
  const { page } = watched;
  await page.goto(`${w.h.appUrl}/#/signin`);
  await page.evaluate(() => sessionStorage.setItem('tms.token', 'tms_revoked-meanwhile'));
  await page.goto(`${w.h.appUrl}/#/channels`);
  await page.getByText('Your session ended').waitFor();
  assert.match(page.url(), /#\/signin$/);
  assert.equal(await page.evaluate(() => sessionStorage.getItem('tms.token')), null);
  expectNoConsoleErrors(watched, [HTTP_401]);
  await page.close();
});

test('the channels page shows status, quality and tier badges, the tier quota and why a channel is blocked', async () => {
  const watched = await w.signedIn('/channels');
  const { page } = watched;
  const card = (id: string) => page.locator(`[data-channel-id="${id}"]`);
  await card(SIM_CHANNEL_IDS.small).waitFor();
  assert.equal(await page.locator('[data-channel-id]').count(), 4);

  const flagged = card(SIM_CHANNEL_IDS.flagged);
  assert.equal(await flagged.locator('.badge.yellow[data-code="FLAGGED"]', { hasText: 'Flagged' }).count(), 1);
  assert.match(await flagged.getByTestId('blocked-reason').innerText(), /WhatsApp flagged the number/);
  const red = card(SIM_CHANNEL_IDS.red);
  assert.equal(await red.locator('.badge.red[data-code="RED"]', { hasText: 'Low quality' }).count(), 1);
  assert.match(await red.getByTestId('blocked-reason').innerText(), /quality rating is low/);
  const healthy = card(main);
  assert.equal(await healthy.locator('.badge.green[data-code="CONNECTED"]', { hasText: 'Connected' }).count(), 1);
  assert.equal(await healthy.getByTestId('blocked-reason').count(), 0);
  assert.match(await healthy.innerText(), /no cap/);
  const small = card(SIM_CHANNEL_IDS.small);
  assert.equal(await small.locator('.badge[data-code="TIER_50"]', { hasText: '50 customers a day' }).count(), 1);
  assert.equal(await small.getByTestId('tier-left').innerText(), '50 left');
  assert.match(await small.getByTestId('tier-used').innerText(), /^0 of 50 customers messaged/);
  expectNoConsoleErrors(watched);
  await page.close();
});

test('the Marketing Messages toggle of a channel turns the setting on and off, and shows why the service switched it off', async () => {
  for (const viewport of [DESKTOP, PHONE]) {
    const watched = await w.signedIn('/channels', viewport);
    const { page } = watched;
    const card = page.locator(`[data-channel-id="${main}"]`);
    const toggle = card.getByLabel('Send marketing templates through the Marketing Messages API');
    await toggle.waitFor();
    assert.equal(await toggle.isChecked(), false);
    await toggle.check();
    const on = async () => (await w.h.call('GET', '/api/v1/channels')).body.items.find((c: { id: string }) => c.id === main).marketing_messages.enabled;
    for (let i = 0; i < 50 && !(await on()); i++) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await on(), true);
    // The service switches it off when the network refuses the account; the card says why after a refresh.
    await w.h.store.db.updateTable('channels').set({ marketing_messages_enabled: false, marketing_messages_disabled_reason: 'The network refused the Marketing Messages API for this account (134102: not onboarded)', marketing_messages_disabled_at: new Date() }).where('id', '=', main).execute();
    await page.getByRole('button', { name: 'Refresh' }).click();
    await card.getByTestId('marketing-messages-off').filter({ hasText: '134102' }).waitFor();
    assert.equal(await toggle.isChecked(), false);
    await expectNoSidewaysScroll(page);
    if (process.env.TMS_CONSOLE_SHOTS) await page.screenshot({ path: `${process.env.TMS_CONSOLE_SHOTS}/channels-marketing-messages-${viewport.width}.png`, fullPage: true });
    await w.h.call('PUT', `/api/v1/channels/${main}/marketing-messages`, { body: { enabled: false } });
    expectNoConsoleErrors(watched);
    await page.close();
  }
});

test('live counters move to COMPLETED without a reload and match the API', async () => {
  // The page is open first; the send (paced over 20 s) starts through the API and shows up by itself.
  const watched = await w.signedIn(`/reports?channel=${main}`);
  const { page } = watched;
  await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
  const id = await startV1(w.h, { message_template_id: template, channel_id: main, total_time: 20, rows: v1Rows([...phones(24, '9055531'), '905553100001']) });
  const card = page.locator(`[data-send-id="${id}"]`);
  await page.locator(`[data-send-id="${id}"][data-status="RUNNING"]`).waitFor();
  const firstPct = await card.getByTestId('progress-pct').innerText();
  await page.locator(`[data-send-id="${id}"][data-status="COMPLETED"]`).waitFor({ timeout: 90_000 });
  assert.notEqual(firstPct, '100%', 'the page saw the send before it finished');
  const item = await listItem(w.h, main, id);
  assert.equal(item.status, 'COMPLETED');
  const stage = async (name: string) => Number((await card.locator(`[data-stage="${name}"] :is(.stage-value, dd)`).innerText()).replace(/,/g, ''));
  assert.equal(await stage('delivered_count'), item.delivered_count);
  assert.equal(await stage('sent_count'), item.sent_count);
  assert.equal(await stage('seen_count'), item.seen_count);
  assert.equal(await stage('failed_count'), item.failed_count);
  assert.equal(await stage('summary'), item.summary);
  assert.equal(await card.getByTestId('progress-pct').innerText(), '100%');
  // WhatsApp's order and words: sent → delivered → read, each rate of the stage before.
  const labels = await card.locator('.funnel .stage-label').allInnerTexts();
  assert.deepEqual(labels.slice(-3).map((l) => l.toLowerCase()), ['sent', 'delivered', 'read']);
  const rates = await card.getByTestId('stage-rate').allInnerTexts();
  const pct = (part: number, whole: number) => `${(Math.round((part / whole) * 1000) / 10).toLocaleString('en-US')} %`;
  assert.deepEqual(rates, [`${pct(item.sent_count, item.delivered_count)} of sent`, `${pct(item.seen_count, item.sent_count)} of delivered`]);
  assert.match(await card.locator('.badge[data-code="COMPLETED"]').innerText(), /Finished$/);
  expectNoConsoleErrors(watched);
  await page.close();
});

test('stop asks for confirmation; cancelling keeps the send, confirming stops it', async () => {
  const id = await startV1(w.h, { message_template_id: template, channel_id: main, total_time: 3600, rows: v1Rows(phones(40, '9055532')) });
  const watched = await w.signedIn(`/reports?channel=${main}`);
  const { page } = watched;
  const card = page.locator(`[data-send-id="${id}"]`);
  await card.getByRole('button', { name: 'Stop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Stop this bulk send?' });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.notEqual((await listItem(w.h, main, id)).status, 'STOPPED');

  await card.getByRole('button', { name: 'Stop' }).click();
  await dialog.getByRole('button', { name: 'Stop bulk send' }).click();
  await page.locator(`[data-send-id="${id}"][data-status="STOPPED"]`).waitFor();
  await page.getByRole('status').filter({ hasText: /Stopped .* cancelled/ }).waitFor();
  const item = await listItem(w.h, main, id);
  assert.equal(item.status, 'STOPPED');
  assert.ok(item.cancelled_count > 0);
  expectNoConsoleErrors(watched);
  await page.close();
});

test('pause and resume from the card move the send to PAUSED_BY_USER and back to RUNNING', async () => {
  const id = await startV1(w.h, { message_template_id: template, channel_id: main, total_time: 3600, rows: v1Rows(phones(30, '9055534')) });
  const watched = await w.signedIn(`/reports?channel=${main}`);
  const { page } = watched;
  const card = page.locator(`[data-send-id="${id}"]`);
  await card.getByRole('button', { name: 'Pause' }).click();
  await page.locator(`[data-send-id="${id}"][data-status="PAUSED_BY_USER"]`).waitFor();
  assert.equal((await listItem(w.h, main, id)).status, 'PAUSED_BY_USER');
  await card.getByRole('button', { name: 'Resume' }).click();
  await page.locator(`[data-send-id="${id}"][data-status="RUNNING"]`).waitFor();
  assert.equal((await listItem(w.h, main, id)).status, 'RUNNING');
  await w.h.call('POST', '/agent-app/message-template/send-wizard/stop', { body: { send_wizard_id: id, channel_id: main } });
  expectNoConsoleErrors(watched);
  await page.close();
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`every page loads without console errors or sideways scrolling at ${viewport.width} px`, async () => {
    const watched = await w.signedIn('/channels', viewport);
    const { page } = watched;
    for (const [path, heading] of [['/overview', 'Overview'], ['/channels', 'Channels'], ['/templates', 'Templates'], ['/send', 'Send'], [`/reports?channel=${main}`, 'Reports'], ['/lookup', 'Message lookup'], ['/webhooks', 'Webhooks']]) {
      await page.goto(`${w.h.appUrl}/#${path}`);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
      if (process.env.TMS_CONSOLE_SHOTS) await page.screenshot({ path: `${process.env.TMS_CONSOLE_SHOTS}/${path.split('?')[0].slice(1)}-${viewport.width}.png`, fullPage: true });
    }
    expectNoConsoleErrors(watched);
    await page.close();
  });
}

/** A finished bulk send of 48 rows, some failed (the simulator fails numbers ending in 001 and 002); made once. */
let finished: Promise<string> | undefined;
function finishedSend(): Promise<string> {
  finished ??= (async () => {
    const spring = await approvedTemplate(w.h, main, undefined, 'spring_sale_reminder');
    const id = await startV1(w.h, {
      message_template_id: spring,
      channel_id: main,
      total_time: 0,
      rows: v1Rows([...phones(46, '9055533'), '905553300001', '905553300002']),
    });
    await untilWizard(w.h, main, id, ['COMPLETED'], 60_000);
    await settledRows(id);
    return id;
  })();
  return finished;
}

/**
 * The report rows once no status changed for 3 s: COMPLETED means every row reached the network's answer,
 * but sent/seen events keep arriving for a moment after.
 */
async function settledRows(id: string) {
  let last = '';
  let same = 0;
  for (let i = 0; i < 60; i++) {
    const rows = await reportRows(w.h, id);
    const key = rows.map((r: Record<string, unknown>) => r.status).join();
    same = key === last ? same + 1 : 0;
    if (same >= 3) return rows;
    last = key;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`the statuses of bulk send ${id} did not settle`);
}

test('the detail exports as CSV and XLSX files whose rows match the API, with the status filter applied', async () => {
  const id = await finishedSend();
  const api = await settledRows(id);
  const watched = await w.signedIn(`/reports?channel=${main}&id=${id}`);
  const { page } = watched;
  const detail = page.getByTestId('report-detail');
  await detail.locator('tbody tr[data-row]').first().waitFor();

  const download = async (button: string) => {
    const [file] = await Promise.all([page.waitForEvent('download'), detail.getByRole('button', { name: button }).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), bytes: readFileSync(path) };
  };

  const csv = await download('Export CSV');
  assert.equal(csv.name, `report-${id}.csv`);
  const records: Array<Record<string, string>> = parse(csv.bytes, { columns: true });
  assert.deepEqual(
    records.map((r) => [Number(r.row), r.phone_number, r.status, r.message_id]),
    api.map((r: Record<string, unknown>) => [r.row, r.phone_number, r.status, r.message_id]),
  );

  const xlsx = await download('Export XLSX');
  assert.equal(xlsx.name, `report-${id}.xlsx`);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(xlsx.bytes as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  const header = (sheet.getRow(1).values as unknown[]).slice(1);
  const col = (name: string) => header.indexOf(name) + 1;
  const xlsxRows = [];
  for (let i = 2; i <= sheet.rowCount; i++) {
    const row = sheet.getRow(i);
    xlsxRows.push([Number(row.getCell(col('row')).value), String(row.getCell(col('phone_number')).value), String(row.getCell(col('status')).value)]);
  }
  assert.deepEqual(xlsxRows, api.map((r: Record<string, unknown>) => [r.row, r.phone_number, r.status]));

  // Filtered by status: the table and the file hold only the failed rows.
  const failed = api.filter((r: Record<string, unknown>) => r.status === 'BACKEND_FAILED' || r.status === 'OPT_IN_FAILED_INVALID_NUMBER');
  const status = String(failed[0]?.status ?? 'BACKEND_FAILED');
  await detail.getByLabel('Status').selectOption(status);
  // The unfiltered table holds a row of that status too: wait for the others to go, then for the filtered rows.
  await detail.locator(`tbody tr[data-row] .badge:not([data-code="${status}"])`).first().waitFor({ state: 'detached' });
  await detail.locator(`tbody tr[data-row] .badge[data-code="${status}"]`).first().waitFor();
  const shown = await detail.locator('tbody tr[data-row]').count();
  const expected = api.filter((r: Record<string, unknown>) => r.status === status);
  assert.equal(shown, expected.length);
  const filtered = await download('Export CSV');
  const filteredRows: Array<Record<string, string>> = parse(filtered.bytes, { columns: true });
  assert.deepEqual(filteredRows.map((r) => r.message_id), expected.map((r: Record<string, unknown>) => r.message_id));
  expectNoConsoleErrors(watched);
  await page.close();
});

test("a detail row's Look up link shows the message record; an unknown id is listed as not found", async () => {
  const id = await finishedSend();
  const [first] = await settledRows(id);
  const watched = await w.signedIn(`/reports?channel=${main}&id=${id}`);
  const { page } = watched;
  await page.locator('tbody tr[data-row="1"]').getByRole('link', { name: 'Look up' }).click();
  const record = page.locator(`[data-message-id="${first.message_id}"]`);
  await record.waitFor();
  assert.equal(await record.locator('.badge').getAttribute('data-code'), first.status);
  assert.match(await record.innerText(), new RegExp(first.phone_number.replace('+', '\\+')));
  await page.getByLabel('Message ids').fill(`${first.message_id}\n6b0000000000000000000000`);
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByRole('status').filter({ hasText: '6b0000000000000000000000' }).waitFor();
  assert.equal(await page.locator('[data-message-id]').count(), 1);
  expectNoConsoleErrors(watched);
  await page.close();
});

test("a phone search lists the number's messages newest first; a failed one says why, a read one shows its times", async () => {
  const id = await finishedSend();
  const rows = await settledRows(id);
  const failed = rows.find((r: Record<string, unknown>) => r.phone_number === '+905553300001');
  const read = rows.find((r: Record<string, unknown>) => r.status === 'BACKEND_SEEN');
  const watched = await w.signedIn('/lookup', PHONE);
  const { page } = watched;
  await page.getByLabel('Phone number or user ID', { exact: true }).fill('+90 555 330 0001');
  await page.getByRole('button', { name: 'Find messages' }).click();
  const card = page.locator(`[data-message-id="${failed.message_id}"]`);
  await card.waitFor();
  assert.equal(await card.locator('.badge').getAttribute('data-code'), failed.status);
  assert.match(await card.getByTestId('failure-reason').innerText(), new RegExp(`Why it failed: ${failed.error_message}`));
  assert.match(page.url(), /#\/lookup\?phone=/);
  await expectNoSidewaysScroll(page);
  if (process.env.TMS_CONSOLE_SHOTS) await page.screenshot({ path: `${process.env.TMS_CONSOLE_SHOTS}/lookup-phone-390.png`, fullPage: true });

  await page.getByLabel('Phone number or user ID', { exact: true }).fill(read.phone_number);
  await page.getByRole('button', { name: 'Find messages' }).click();
  const readCard = page.locator(`[data-message-id="${read.message_id}"]`);
  await readCard.waitFor();
  for (const field of ['backend_sended_time', 'sended_time', 'delivered_time', 'seen_time']) {
    assert.equal(await readCard.locator(`[data-time="${field}"].done`).count(), 1, field);
  }
  assert.equal(await readCard.getByTestId('failure-reason').count(), 0);
  await page.getByLabel('Phone number or user ID', { exact: true }).fill('12ab');
  await page.getByRole('button', { name: 'Find messages' }).click();
  await page.getByRole('alert').filter({ hasText: 'phone_number' }).waitFor();
  expectNoConsoleErrors(watched, [/status of 400/]);
  await page.close();
});

test("the overview shows the period's totals and rates as the API counts them, failures by code, limits, and a chart", async () => {
  await finishedSend();
  const api = (await w.h.call('GET', `/api/v1/overview?period=24h&channel_id=${main}`)).body.data;
  const watched = await w.signedIn(`/overview?channel=${main}`);
  const { page } = watched;
  const overview = page.getByTestId('overview');
  await overview.waitFor();
  const tile = async (name: string) => Number((await overview.getByTestId(`tile-${name}`).locator('.tile-value').innerText()).replace(/,/g, ''));
  assert.deepEqual(
    [await tile('messages'), await tile('sent'), await tile('delivered'), await tile('read'), await tile('failed')],
    [api.totals.messages, api.totals.sent, api.totals.delivered, api.totals.read, api.totals.failed],
  );
  assert.equal(await overview.getByTestId('delivered-rate').innerText(), `${api.totals.delivered_rate.toLocaleString('en-US')} %`);
  assert.equal(await overview.locator('[data-testid="failures"] tr[data-code="131049"]').count(), 1);
  assert.equal(await overview.locator('[data-testid="overview-chart"] canvas').count(), 1);
  assert.match(await overview.locator(`[data-channel-id="${main}"] [data-testid="limit-use"]`).innerText(), /customers, no cap/);
  const cost = overview.getByTestId('tile-cost');
  const costShown = await cost.locator('.tile-value').innerText();
  assert.ok(costShown === 'unknown' || costShown.includes('$'), costShown);
  assert.match(await cost.innerText(), new RegExp(`${api.cost.billable_count.toLocaleString('en-US')} billed[^]*Meta's list price, not an invoice`));
  // The period is a radio group: arrow keys move it, and the page follows.
  await page.getByLabel('Last 24 hours').focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForURL(/period=7d/);
  await overview.getByTestId('overview-chart').locator('tbody tr').nth(7).waitFor({ state: 'attached' });
  await expectNoSidewaysScroll(page);
  if (process.env.TMS_CONSOLE_SHOTS) await page.screenshot({ path: `${process.env.TMS_CONSOLE_SHOTS}/overview-7d-1280.png`, fullPage: true });
  expectNoConsoleErrors(watched);
  await page.close();
});

test("a bulk send's detail shows the send over time, ending at its counters, and its failures by reason", async () => {
  const id = await finishedSend();
  await settledRows(id);
  const item = await listItem(w.h, main, id);
  const watched = await w.signedIn(`/reports?channel=${main}&id=${id}`, PHONE);
  const { page } = watched;
  const chart = page.getByTestId('send-timeline');
  await chart.locator('canvas').waitFor();
  await chart.getByText('Show as a table').click();
  const last = chart.locator('tbody tr').last();
  const cells = (await last.locator('td').allInnerTexts()).slice(1).map((v) => Number(v.replace(/,/g, '')));
  const timeline = (await w.h.call('GET', `/api/v1/send-wizards/${id}/timeline`)).body.data;
  assert.deepEqual(cells, [timeline.points.at(-1).handed, item.delivered_count, item.sent_count, item.seen_count, item.failed_count]);
  // Below the chart, the failed rows by reason, as the API counts them.
  const failures = page.getByTestId('send-failures');
  for (const f of timeline.failures) {
    const row = failures.locator(`tr[data-code="${f.code}"]`);
    assert.equal(Number((await row.locator('td').nth(2).innerText()).replace(/,/g, '')), f.count);
  }
  assert.equal(await failures.locator('tbody tr').count(), timeline.failures.length);
  assert.ok(timeline.failures.length > 0);
  await expectNoSidewaysScroll(page);
  if (process.env.TMS_CONSOLE_SHOTS) await page.screenshot({ path: `${process.env.TMS_CONSOLE_SHOTS}/report-timeline-390.png`, fullPage: true });
  expectNoConsoleErrors(watched);
  await page.close();
});

test("a finished send's card gives its estimated cost, said to be Meta's list price and not an invoice", async () => {
  const id = await finishedSend();
  await settledRows(id);
  const item = await listItem(w.h, main, id);
  const watched = await w.signedIn(`/reports?channel=${main}`);
  const { page } = watched;
  const cost = page.locator(`[data-send-id="${id}"]`).getByTestId('send-cost');
  await cost.waitFor();
  const allUnknown = item.cost.billable_count > 0 && item.cost.unknown_price_count === item.cost.billable_count;
  const money = allUnknown ? 'unknown' : new Intl.NumberFormat('en-US', { style: 'currency', currency: item.cost.currency, maximumFractionDigits: 4 }).format(item.cost.estimated_cost);
  assert.equal(await cost.getByTestId('estimated-cost').innerText(), money);
  assert.match(await cost.locator('summary').innerText(), /Meta's list price, not an invoice/);
  expectNoConsoleErrors(watched);
  await page.close();
});

test('the README screenshot: reports with a finished send and its detail (npm run screenshot writes docs/console.png)', async () => {
  const id = await finishedSend();
  const watched = await w.signedIn(`/reports?channel=${main}&id=${id}`, { width: 1280, height: 1000 });
  const { page } = watched;
  await page.locator(`[data-send-id="${id}"][data-status="COMPLETED"]`).waitFor();
  await page.getByTestId('report-detail').locator('tbody tr[data-row]').first().waitFor();
  // `npm run screenshot` points TMS_SCREENSHOT at docs/console.png; the suite itself changes no tracked file.
  const target = process.env.TMS_SCREENSHOT ?? join(mkdtempSync(join(tmpdir(), 'tms-screenshot-')), 'console.png');
  mkdirSync(dirname(target), { recursive: true });
  await page.screenshot({ path: target });
  assert.ok(statSync(target).size > 10_000, `the screenshot ${target} is nearly empty`);
  if (!process.env.TMS_SCREENSHOT) rmSync(dirname(target), { recursive: true, force: true });
  expectNoConsoleErrors(watched);
  await page.close();
});
