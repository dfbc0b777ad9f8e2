import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, lookup, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

function body(phone: string, extra: Record<string, unknown> = {}) {
  return { channel_id: channel, phone_number: phone, message_template_id: templateId, full_name: 'Ayse Y', message_template: sendParams(), ...extra };
}

test('a send reaches BACKEND_SEEN with every time field set once, in order', async () => {
  const res = await singleSend(h, body('905551230101'));
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.match(res.body.data.message_id, /^[0-9a-f]{24}$/);
  const record = await untilStatus(h, res.body.data.message_id, ['BACKEND_SEEN']);
  for (const field of ['backend_sended_time', 'sended_time', 'delivered_time', 'seen_time']) assert.ok(record[field], field);
  assert.equal(record.failed_time, null);
  assert.ok(record.backend_sended_time <= record.sended_time);
  assert.ok(record.sended_time <= record.delivered_time);
  assert.ok(record.delivered_time <= record.seen_time);
  assert.match(record.ext_id, /^wamid\./);
  assert.equal(record.webhook_response.status, 'read');
});

test('the message record carries every field of the interface', async () => {
  const res = await singleSend(h, body('905551230102'));
  const [record] = await lookup(h, [res.body.data.message_id]);
  for (const field of ['_id', 'status', 'company_id', 'phone_number', 'from_number', 'full_name', 'message_template_id', 'whatsapp_account_id', 'created_at', 'updated_at', '__v', 'ext_id', 'webhook_response']) {
    assert.ok(field in record, field);
  }
  assert.equal(record.company_id, h.a.companyId);
  assert.equal(record.phone_number, '+905551230102');
  assert.equal(record.from_number, '+1 555-000-0001');
  assert.equal(record.full_name, 'Ayse Y');
  assert.equal(record.message_template_id, templateId);
  assert.equal(record.whatsapp_account_id, '100000000000001');
  assert.equal(typeof record.__v, 'number');
});

test('the customer received exactly what the template and parameters say', async () => {
  const res = await singleSend(h, body('905551230103'));
  await untilStatus(h, res.body.data.message_id, ['BACKEND_SEEN', 'BACKEND_SENT', 'BACKEND_DELIVERED']);
  const received = await simAdmin(h, '/_sim/received?to=%2B905551230103');
  assert.equal(received.messages.length, 1);
  assert.equal(received.messages[0].biz_opaque_callback_data, res.body.data.message_id);
  assert.deepEqual(received.messages[0].components, [
    { type: 'body', parameters: [{ type: 'text', text: 'Ayse' }, { type: 'text', text: 'CODE42' }] },
    { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'summer-sale' }] },
  ]);
});
