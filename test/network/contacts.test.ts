import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AUTH, assertSameShape, credsOf, fixture, httpJson, networkErrorOf, startSim, type SimSetup } from './helpers.js';

const creds = credsOf();
let s: SimSetup;
let rehearsal: SimSetup;
before(async () => {
  s = await startSim();
  rehearsal = await startSim({ limits: { contactsCheck: true } });
});
after(async () => {
  await s.close();
  await rehearsal.close();
});

test('by default POST /v1/contacts answers as Graph does: v1 is an unknown object, 400 100/33', async () => {
  const raw = await httpJson('POST', `${s.rootUrl}/v1/contacts`, { blocking: 'wait', contacts: ['+15550101234'] }, AUTH);
  assert.equal(raw.status, 400);
  const real = fixture('graph_error_100_subcode_33_unsupported_post__ruby-sdk-vcr') as { error: { message: string } };
  assertSameShape(raw.json, real);
  assert.equal(raw.json.error.message, real.error.message.replace("'123123'", "'v1'"));
  assert.deepEqual([raw.json.error.type, raw.json.error.code, raw.json.error.error_subcode], ['GraphMethodException', 100, 33]);
});

test('the adapter reads the default simulator\'s 100/33 as "no contacts check"', async () => {
  assert.deepEqual(await s.net.checkContacts(creds, ['+15550101234']), { available: false });
});

test('the enabled rehearsal check says invalid for numbers ending in 000 and valid with wa_id otherwise', async () => {
  const result = await rehearsal.net.checkContacts(creds, ['+1 555 010 1000', '+1 (555) 010-1234']);
  assert.deepEqual(result, {
    available: true,
    contacts: [
      { input: '+1 555 010 1000', status: 'invalid' },
      { input: '+1 (555) 010-1234', status: 'valid', wa_id: '15550101234' },
    ],
  });
});

test('the rehearsal check needs the access token', async () => {
  const err = await networkErrorOf(rehearsal.net.checkContacts(credsOf(undefined, 'wrong'), ['+15550101234']));
  assert.equal(err.code, 190);
});

test('switching the check off at run time answers 100/33 again', async () => {
  await httpJson('POST', `${rehearsal.rootUrl}/_sim/limits`, { contactsCheck: false });
  try {
    assert.deepEqual(await rehearsal.net.checkContacts(creds, ['+15550101234']), { available: false });
  } finally {
    await httpJson('POST', `${rehearsal.rootUrl}/_sim/limits`, { contactsCheck: true });
  }
});
