import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  cleanContact,
  contactFor,
  contactRequestPhone,
  inboundSender,
  marketingPreferences,
  statusParentUserId,
  statusPhone,
  statusUserId,
  statusUsername,
  systemUserIdChange,
  userIdUpdates,
} from '../../src/domain/webhook-recipients.js';

test('an inbound sender with a username and no phone number is known by BSUID only', () => {
  assert.deepEqual(inboundSender({ from_user_id: 'US.1349' }, { user_id: 'US.1349', profile: { username: 'ana' } }), {
    phone: null, userId: 'US.1349', parentUserId: null, username: 'ana',
  });
});

test('an inbound sender reads the phone number from `from` or the contact’s wa_id, in E.164', () => {
  assert.equal(inboundSender({ from: '905551230001' }, undefined).phone, '+905551230001');
  assert.equal(inboundSender({}, { wa_id: '905551230002' }).phone, '+905551230002');
});

test('a malformed BSUID reads as absent', () => {
  assert.equal(inboundSender({ from_user_id: 'not a bsuid' }, { user_id: 'us.1' }).userId, null);
});

test('a status sent to a BSUID has no phone number; recipient_id holding a BSUID is not read as one', () => {
  const status = { recipient_id: 'US.77', recipient_user_id: 'US.77' };
  assert.equal(statusPhone(status, undefined), null);
  assert.equal(statusUserId(status, undefined), 'US.77');
  assert.equal(statusParentUserId(status, undefined), null);
  assert.equal(statusUsername(undefined), null);
});

test('a status reads the parent BSUID and the contact’s username', () => {
  const status = { recipient_id: '905551230001', recipient_parent_user_id: 'US.ENT.9' };
  const contact = { user_id: 'US.5', profile: { username: 'bo' } };
  assert.equal(statusPhone(status, contact), '+905551230001');
  assert.equal(statusUserId(status, contact), 'US.5');
  assert.equal(statusParentUserId(status, contact), 'US.ENT.9');
  assert.equal(statusUsername(contact), 'bo');
});

test('a contact-request answer gives the shared number; a forwarded card gives none', () => {
  const card = { phones: [{ phone: '+90 555 123 0077', wa_id: '905551230077' }] };
  assert.equal(contactRequestPhone({ type: 'contacts', origin: 'contact_request', contacts: [card] }), '+905551230077');
  assert.equal(contactRequestPhone({ type: 'contacts', contacts: [{ ...card, origin: 'contact_request' }] }), '+905551230077');
  assert.equal(contactRequestPhone({ type: 'contacts', contacts: [card] }), null);
});

test('a user_changed_user_id system message names the old and the new BSUID', () => {
  assert.deepEqual(systemUserIdChange({ type: 'system', system: { type: 'user_changed_user_id', user_id: 'US.2', previous_user_id: 'US.1' } }), {
    from: 'US.1', to: 'US.2', parentUserId: null,
  });
  assert.deepEqual(systemUserIdChange({ type: 'system', from_user_id: 'US.1', system: { type: 'user_changed_user_id', user_id: 'US.2' } })?.from, 'US.1');
  assert.equal(systemUserIdChange({ type: 'system', system: { type: 'user_changed_number', wa_id: '1' } }), null);
});

test('user_id_update items read {previous, current} and flat ids; an item without two BSUIDs is skipped', () => {
  assert.deepEqual(userIdUpdates({ user_id_update: [
    { user_id: { previous: 'US.1', current: 'US.2' }, parent_user_id: { previous: 'US.ENT.1', current: 'US.ENT.2' } },
    { previous_user_id: 'US.3', user_id: 'US.4' },
    { user_id: { previous: 'US.5' } },
  ] }), [{ from: 'US.1', to: 'US.2', parentUserId: 'US.ENT.2' }, { from: 'US.3', to: 'US.4', parentUserId: null }]);
});

test('marketing preferences keep stop and resume of marketing_messages only', () => {
  const prefs = marketingPreferences({
    contacts: [{ wa_id: '905551230002', user_id: 'TR.6' }],
    user_preferences: [
      { wa_id: '905551230002', category: 'marketing_messages', value: 'stop', detail: 'User requested to stop marketing messages' },
      { wa_id: '905551230002', category: 'something_else', value: 'stop' },
      { wa_id: '905551230002', category: 'marketing_messages', value: 'maybe' },
    ],
  });
  assert.deepEqual(prefs, [{
    person: { phone: '+905551230002', userId: 'TR.6', parentUserId: null, username: null },
    value: 'stop',
    detail: 'User requested to stop marketing messages',
  }]);
});

test('a username or preference detail holding NUL, which the database cannot store, reads as absent', () => {
  assert.equal(inboundSender({ from_user_id: 'US.1' }, { profile: { username: 'a\u0000b' } }).username, null);
  const [pref] = marketingPreferences({ user_preferences: [{ user_id: 'US.1', category: 'marketing_messages', value: 'stop', detail: 'x\u0000' }] });
  assert.equal(pref.detail, null);
});

test('a contact kept with a status holds only the fields that read as valid', () => {
  assert.deepEqual(cleanContact({ wa_id: '905551230001', user_id: 'US.1', profile: { name: 'x\u0000', username: 'ana' } }), {
    wa_id: '905551230001', user_id: 'US.1', profile: { username: 'ana' },
  });
  assert.deepEqual(cleanContact({ wa_id: 'x\u0000', user_id: 'bad', profile: { username: 'a\u0000' } }), {});
});

test("a status naming another number does not take a body's only contact", () => {
  const contacts = [{ wa_id: '905591000043', user_id: 'TR.22819065452640563483' }];
  // A failed status to a phone number carries no recipient_user_id and no contact of its own.
  assert.equal(contactFor(contacts, { phone: '905591000001' }), undefined);
  assert.equal(contactFor(contacts, { userId: 'TR.13910066598821103345' }), undefined);
  assert.deepEqual(contactFor(contacts, { phone: '905591000043' }), contacts[0]);
  assert.deepEqual(contactFor(contacts, {}), contacts[0], 'an item naming nobody takes the only contact');
});
