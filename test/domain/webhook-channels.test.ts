/** The channel a webhook change or body concerns: what the inbox stores beside a body to pick its lane. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bodyPhoneNumberId, changePhoneNumberId } from '../../src/domain/webhook-channels.js';

const change = (phoneNumberId: unknown) => ({ field: 'messages', value: { metadata: { display_phone_number: '1555', phone_number_id: phoneNumberId }, statuses: [] } });
const body = (...changes: unknown[]) => ({ object: 'whatsapp_business_account', entry: [{ id: 'waba', changes }] });

test('a change names the channel of its metadata.phone_number_id', () => {
  assert.equal(changePhoneNumberId(change('106540352242922').value), '106540352242922');
});

test('a change names no channel when the id is missing, not a string, empty, longer than 64 or holds NUL', () => {
  for (const id of [undefined, 106540352242922, '', 'x'.repeat(65), '1065\u00004035']) assert.equal(changePhoneNumberId(change(id).value), null, String(id));
  assert.equal(changePhoneNumberId({ event: 'APPROVED', message_template_id: 1 }), null);
  assert.equal(changePhoneNumberId(null), null);
  assert.equal(changePhoneNumberId({ metadata: 'x' }), null);
});

test('a body whose changes all name one channel concerns that channel, across entries too', () => {
  assert.equal(bodyPhoneNumberId(body(change('1'), change('1'))), '1');
  assert.equal(bodyPhoneNumberId({ entry: [{ changes: [change('7')] }, { changes: [change('7')] }] }), '7');
});

test('a body concerns no single channel when its changes name two, or one of them names none', () => {
  assert.equal(bodyPhoneNumberId(body(change('1'), change('2'))), null);
  assert.equal(bodyPhoneNumberId(body(change('1'), { field: 'message_template_status_update', value: { event: 'APPROVED' } })), null);
  assert.equal(bodyPhoneNumberId(body({ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT' } })), null);
});

test('a body that is not one concerns no channel', () => {
  for (const b of [undefined, null, 'text', [], { entry: 'x' }, { entry: [{ changes: 'x' }] }, { entry: [] }, { entry: [null] }]) assert.equal(bodyPhoneNumberId(b), null, JSON.stringify(b));
});
