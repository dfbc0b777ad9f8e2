import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createCompany } from '../../src/admin.js';
import { isValidVerifyToken } from '../../src/domain/webhook-signature.js';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { listItem } from '../support/bulk.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { uniqueName } from '../support/templates.js';

let h: Harness;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
});
after(() => h.close());

function carousel() {
  const card = {
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aGFuZGxl'] } },
      { type: 'BODY', text: 'Only {{1}} today', example: { body_text: [['9.99']] } },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'More' }, { type: 'URL', text: 'Buy', url: 'https://b.example.com/{{1}}', example: ['x'] }] },
    ],
  };
  return [
    { type: 'BODY', text: 'Picks for {{1}} this week', example: { body_text: [['Ali']] } },
    { type: 'CAROUSEL', cards: [card, card] },
  ];
}

test('a bulk send of a carousel whose cards have buttons reports has_button true', async () => {
  const templateId = await approvedTemplate(h, channel, carousel() as never);
  const headers = ['ROW', 'PHONE', 'BODY.1', 'CAROUSEL.0.HEADER', 'CAROUSEL.0.BODY.1', 'CAROUSEL.0.BUTTONS.1', 'CAROUSEL.1.HEADER', 'CAROUSEL.1.BODY.1', 'CAROUSEL.1.BUTTONS.1'];
  const rows = [[1, '905557800033', 'Ali', 'https://img.example.com/a.png', '5.00', 'sku-a', 'https://img.example.com/b.png', '7.50', 'sku-b']];
  const res = await h.call('POST', '/agent-app/message-template/send-wizard/startv2', {
    body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel, param_headers: headers },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const item = await listItem(h, channel, res.body.data.send_wizard_id);
  assert.equal(item.has_button, true);
});

test('a bulk send of a template without any button reports has_button false', async () => {
  const templateId = await approvedTemplate(h, channel, [{ type: 'BODY', text: 'Hello {{1}}, see you.', example: { body_text: [['Ali']] } }] as never);
  const res = await h.call('POST', '/agent-app/message-template/send-wizard/startv2', {
    body: { message_template_id: templateId, rows: [[1, '905557800043', 'Ali']], total_time: 0, channel_id: channel, param_headers: ['ROW', 'PHONE', 'BODY.1'] },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal((await listItem(h, channel, res.body.data.send_wizard_id)).has_button, false);
});

test("another company whose channel has the same WABA id does not learn this company's template names through 409", async () => {
  // Company C registered a channel under the same WABA id (the data model allows it: the WABA id is a channel
  // column, not unique). Its access token is not one the network accepts for that WABA, so only our own
  // records could answer — and they must answer for C's templates only.
  const c = await createCompany(h.store.db, 'Company C');
  await h.store.db
    .insertInto('channels')
    .values({ id: '990000000000077', company_id: c.companyId, waba_id: SIM_WABA_ID, access_token: 'c-token-not-valid-for-this-waba' } as never)
    .execute();
  const name = uniqueName('scoped');
  const created = await h.call('POST', '/agent-app/message-template/template', {
    body: { name, category: 'MARKETING', language: 'en_US', components: [{ type: 'BODY', text: 'Plain text body.' }], channel_id: channel },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));

  const mine = await h.call('POST', '/api/v1/message-templates/check-name', { body: { channel_id: channel, name } });
  assert.equal(mine.status, 409, JSON.stringify(mine.body));
  assert.equal(mine.body.errors[0].code, 'TEMPLATE_NAME_TAKEN');

  const theirs = await h.call('POST', '/api/v1/message-templates/check-name', { token: c.token, body: { channel_id: '990000000000077', name } });
  assert.equal(theirs.status, 200, JSON.stringify(theirs.body));
});

test('the webhook verify token is compared over digests: only the exact token passes', () => {
  assert.equal(isValidVerifyToken('test-verify', 'test-verify'), true);
  assert.equal(isValidVerifyToken('test-verifz', 'test-verify'), false);
  assert.equal(isValidVerifyToken('test-verify-longer', 'test-verify'), false);
  assert.equal(isValidVerifyToken('', 'test-verify'), false);
  assert.equal(isValidVerifyToken(undefined, 'test-verify'), false);
});

test('the verification handshake answers the challenge for the token and 403 in the envelope for another of the same length', async () => {
  const ok = await h.call('GET', '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=test-verify&hub.challenge=42', { token: null });
  assert.equal(ok.status, 200);
  assert.equal(ok.body, 42);
  const bad = await h.call('GET', '/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=test-verifz&hub.challenge=42', { token: null });
  assert.equal(bad.status, 403);
  assert.equal(bad.body.errors[0].code, 'WEBHOOK_VERIFY_FAILED');
});
