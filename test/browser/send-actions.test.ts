/**
 * A bulk send's card shows the actions the server answers in `allowed_actions` (read from the bulk-send
 * transition table), never a decision of its own from the status.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { phones, startV1, v1Rows } from '../support/bulk.js';
import { approvedTemplate } from '../support/sending.js';
import { DESKTOP, expectNoConsoleErrors, expectNoSidewaysScroll, PHONE, signIn, startConsoleWorld, type ConsoleWorld } from './support.js';

let w: ConsoleWorld;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const REPORTS = '**/agent-app/message-template/send-wizard/reports';

before(async () => {
  w = await startConsoleWorld();
  template = await approvedTemplate(w.h, main);
});
after(() => w?.close());

/** The labels of the action buttons on a card (Details is a link, not an action). */
async function actionButtons(card: import('playwright-core').Locator): Promise<string[]> {
  return card.locator('.send-foot button').allInnerTexts();
}

test('a scheduled bulk send offers only Stop, as the server answers', async () => {
  const at = new Date(Date.now() + 3600_000).toISOString();
  const id = await startV1(w.h, { message_template_id: template, channel_id: main, total_time: 0, scheduled_at: at, rows: v1Rows(phones(2, '9055541')) });
  const watched = await w.signedIn(`/reports?channel=${main}`);
  const card = watched.page.locator(`[data-send-id="${id}"]`);
  await card.waitFor();
  assert.deepEqual(await actionButtons(card), ['Stop']);
  await w.h.call('POST', '/agent-app/message-template/send-wizard/stop', { body: { send_wizard_id: id, channel_id: main } });
  expectNoConsoleErrors(watched);
  await watched.page.close();
});

test('the card shows exactly the actions of the answer, whatever the status says', async () => {
  const id = await startV1(w.h, { message_template_id: template, channel_id: main, total_time: 3600, rows: v1Rows(phones(20, '9055542')) });
  const watched = await w.open();
  const { page } = watched;
  // The answer is rewritten on its way to the page: a RUNNING send the server would let pause is offered resume and
  // retry only, so buttons that follow the status instead of the answer would show.
  await page.route(REPORTS, async (route) => {
    const response = await route.fetch();
    const body = await response.json();
    for (const item of body.items) if (item.send_wizard_id === id) item.allowed_actions = ['resume', 'retry'];
    await route.fulfill({ response, json: body });
  });
  await signIn(page, w.h.appUrl, w.h.a.token);
  await page.goto(`${w.h.appUrl}/#/reports?channel=${main}`);
  const card = page.locator(`[data-send-id="${id}"][data-status="RUNNING"]`);
  await card.waitFor();
  assert.deepEqual(await actionButtons(card), ['Resume', 'Retry failed']);
  await w.h.call('POST', '/agent-app/message-template/send-wizard/stop', { body: { send_wizard_id: id, channel_id: main } });
  expectNoConsoleErrors(watched);
  await page.close();
});

for (const viewport of [DESKTOP, PHONE]) {
  test(`a user-paused send offers Resume and Stop and fits ${viewport.width} px`, async () => {
    const id = await startV1(w.h, { message_template_id: template, channel_id: main, total_time: 3600, rows: v1Rows(phones(10, `90555${viewport.width}`)) });
    const paused = await w.h.call('POST', '/agent-app/message-template/send-wizard/pause', { body: { send_wizard_id: id, channel_id: main } });
    assert.equal(paused.status, 200, JSON.stringify(paused.body));
    const watched = await w.signedIn(`/reports?channel=${main}`, viewport);
    const { page } = watched;
    const card = page.locator(`[data-send-id="${id}"][data-status="PAUSED_BY_USER"]`);
    await card.waitFor();
    assert.deepEqual(await actionButtons(card), ['Resume', 'Stop']);
    await expectNoSidewaysScroll(page);
    if (process.env.TMS_CONSOLE_SHOTS) await card.screenshot({ path: `${process.env.TMS_CONSOLE_SHOTS}/send-card-${viewport.width}.png` });
    await w.h.call('POST', '/agent-app/message-template/send-wizard/stop', { body: { send_wizard_id: id, channel_id: main } });
    expectNoConsoleErrors(watched);
    await page.close();
  });
}
