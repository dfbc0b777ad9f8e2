import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { credsOf, httpJson, networkErrorOf, startSim, type SimSetup } from './helpers.js';

const creds = credsOf();
let s: SimSetup;
before(async () => {
  s = await startSim();
});
after(() => s.close());

test('the contacts check says invalid for numbers ending in 000 and valid with wa_id otherwise', async () => {
  const result = await s.net.checkContacts(creds, ['+1 555 010 1000', '+1 (555) 010-1234']);
  assert.deepEqual(result, {
    available: true,
    contacts: [
      { input: '+1 555 010 1000', status: 'invalid' },
      { input: '+1 (555) 010-1234', status: 'valid', wa_id: '15550101234' },
    ],
  });
});

test('the contacts check needs the access token', async () => {
  const err = await networkErrorOf(s.net.checkContacts(credsOf(undefined, 'wrong'), ['+15550101234']));
  assert.equal(err.code, 190);
});

test('a network without a contacts check (404, like the Cloud API) is reported as unavailable', async () => {
  await httpJson('POST', `${s.rootUrl}/_sim/limits`, { contactsCheck: false });
  try {
    assert.deepEqual(await s.net.checkContacts(creds, ['+15550101234']), { available: false });
  } finally {
    await httpJson('POST', `${s.rootUrl}/_sim/limits`, { contactsCheck: true });
  }
});
