import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countryOfPhone, countryOfRecipient } from '../../src/domain/countries.js';
import { isBsuid, isParentBsuid, parseBsuid, parseRecipient, recipientIdentity, recipientKey, sendTarget } from '../../src/domain/recipients.js';

const ROW = { phone: 'rows[3].phone_number', userId: 'rows[3].user_id' };

test('a BSUID is a country code, a dot and the id; a parent BSUID has ENT between them', () => {
  assert.deepEqual(parseBsuid('US.13491208655302741918'), { ok: true, userId: 'US.13491208655302741918', parent: false, country: 'US' });
  assert.deepEqual(parseBsuid(' US.ENT.11815799212886844830 '), { ok: true, userId: 'US.ENT.11815799212886844830', parent: true, country: 'US' });
  assert.ok(isParentBsuid('US.ENT.11815799212886844830'));
  assert.ok(!isParentBsuid('US.13491208655302741918'));
});

test('malformed BSUIDs are refused: no dot, lower-case country, three letters, no id, spaces, ENT alone, too long', () => {
  for (const bad of ['US13491208655302741918', 'us.13491208655302741918', 'USA.1349120865', 'US.', 'US.ENT.', 'US.ENT', 'US.1349 1208', '+905551234567', `US.${'1'.repeat(79)}`, '']) {
    assert.equal(parseBsuid(bad).ok, false, bad);
    assert.equal(isBsuid(bad), false, bad);
  }
});

test('a recipient is a phone number, a BSUID or both; the phone is normalised to E.164', () => {
  assert.deepEqual(parseRecipient('905551234567', undefined, ROW), { ok: true, phone: '+905551234567', userId: null });
  assert.deepEqual(parseRecipient(null, 'TR.1234567890', ROW), { ok: true, phone: null, userId: 'TR.1234567890' });
  assert.deepEqual(parseRecipient('  ', 'TR.1234567890', ROW), { ok: true, phone: null, userId: 'TR.1234567890' });
  assert.deepEqual(parseRecipient(905551234567, 'TR.1234567890', ROW), { ok: true, phone: '+905551234567', userId: 'TR.1234567890' });
});

test('a recipient with neither names the phone field; a malformed value names its own field', () => {
  assert.deepEqual(parseRecipient(undefined, '', ROW), { ok: false, field: ROW.phone, reason: 'a recipient needs rows[3].phone_number or rows[3].user_id (a BSUID)' });
  const badUser = parseRecipient('905551234567', 'TR-123', ROW);
  assert.equal(badUser.ok, false);
  assert.equal(!badUser.ok && badUser.field, ROW.userId);
  const badPhone = parseRecipient('12ab', 'TR.123', ROW);
  assert.equal(!badPhone.ok && badPhone.field, ROW.phone);
  const wrongType = parseRecipient(undefined, { id: 1 }, ROW);
  assert.equal(!wrongType.ok && wrongType.field, ROW.userId);
});

test('the recipient key is the BSUID when known (own, else linked), else the phone', () => {
  assert.equal(recipientKey({ phone: '+905551234567', userId: 'TR.1' }), 'TR.1');
  assert.equal(recipientKey({ phone: '+905551234567', userId: null }, 'TR.9'), 'TR.9');
  assert.equal(recipientKey({ phone: '+905551234567', userId: null }), '+905551234567');
  assert.equal(recipientKey({ phone: null, userId: 'TR.1' }, 'TR.9'), 'TR.1');
});

test('the country of a number comes from its calling code; +1 tells Canada and the Caribbean from the US', () => {
  assert.equal(countryOfPhone('+905551234567'), 'TR');
  assert.equal(countryOfPhone('+442079460958'), 'GB');
  assert.equal(countryOfPhone('+5511912345678'), 'BR');
  assert.equal(countryOfPhone('+77011234567'), 'KZ');
  assert.equal(countryOfPhone('+74951234567'), 'RU');
  assert.equal(countryOfPhone('+16505551234'), 'US');
  assert.equal(countryOfPhone('+14165551234'), 'CA');
  assert.equal(countryOfPhone('+18095551234'), 'DO');
  assert.equal(countryOfPhone('+2348031234567'), 'NG');
  assert.equal(countryOfPhone('+8001234567'), null, '800 is not a country');
});

test('the country of a recipient: the phone first, else the BSUID prefix', () => {
  assert.equal(countryOfRecipient({ phone: '+905551234567', userId: 'US.1' }), 'TR');
  assert.equal(countryOfRecipient({ phone: null, userId: 'IN.1648738043044942' }), 'IN');
  assert.equal(countryOfRecipient({ phone: null, userId: 'US.ENT.11815799212886844830' }), 'US');
});

test('the send request names the phone number with to when known, else the BSUID with recipient', () => {
  assert.deepEqual(sendTarget({ phone: '+905551234567', userId: null }), { to: '+905551234567' });
  assert.deepEqual(sendTarget({ phone: null, userId: 'TR.1234567890' }), { recipient: 'TR.1234567890' });
  assert.deepEqual(sendTarget({ phone: '+905551234567', userId: 'TR.1234567890' }), { to: '+905551234567' });
});

test('a recipient identity: the key, and every other identifier the row or the network gave', () => {
  assert.deepEqual(recipientIdentity({ phone: '+905551234567', userId: null }), { key: '+905551234567', aliases: [] });
  assert.deepEqual(recipientIdentity({ phone: '+905551234567', userId: null }, 'TR.9'), { key: 'TR.9', aliases: ['+905551234567'] });
  assert.deepEqual(recipientIdentity({ phone: null, userId: 'TR.1' }, null, '+905551234567'), { key: 'TR.1', aliases: ['+905551234567'] });
  assert.deepEqual(recipientIdentity({ phone: '+905551234567', userId: 'TR.1' }), { key: 'TR.1', aliases: ['+905551234567'] });
});
