import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createToken, revokeToken } from '../../src/admin.js';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { OTHER_CHANNEL_ID, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';

// The single send checks a token this instance has seen live in its own first read (no lookup before it): a
// token revoked since is still refused before anything is written, whatever else the request gets wrong.
let h: Harness;
let templateId: string;
const channel = SIM_CHANNELS[0].id;
let phone = 0;
const body = () => ({ channel_id: channel, phone_number: `90530${String(1_000_000 + (phone += 1))}`, message_template_id: templateId, message_template: sendParams() });
const count = async (table: 'messages' | 'idempotency_keys') =>
  (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(h.store.db)).rows[0].n;

before(async () => {
  h = await startHarness();
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

/** A fresh token of company A that this instance has already seen live (one accepted single send). */
async function seenToken(): Promise<{ token: string; tokenId: string }> {
  const made = await createToken(h.store.db, h.a.companyId, 'seen');
  const res = await singleSend(h, body(), made.token);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return made;
}

test('a seen token keeps working for single sends, and is refused with 401 and nothing stored once revoked', async () => {
  const made = await seenToken();
  assert.equal((await singleSend(h, body(), made.token)).status, 200);
  assert.equal(await revokeToken(h.store.db, made.tokenId), true);
  const before = await count('messages');
  for (let i = 0; i < 2; i += 1) {
    const res = await singleSend(h, body(), made.token);
    assert.equal(res.status, 401);
    assert.equal(res.body.errors[0].code, 'UNAUTHORIZED');
  }
  assert.equal(await count('messages'), before);
});

test('a revoked seen token is 401 before bad input is reported', async () => {
  const made = await seenToken();
  await revokeToken(h.store.db, made.tokenId);
  const { channel_id: _dropped, ...noChannel } = body();
  const res = await singleSend(h, noChannel, made.token);
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 'UNAUTHORIZED');
  // A live token with the same bad input gets the validation error.
  assert.equal((await singleSend(h, noChannel)).status, 400);
});

test('a revoked seen token is 401 before the channel is looked for, and before a bad parameter', async () => {
  const made = await seenToken();
  await revokeToken(h.store.db, made.tokenId);
  const before = await count('messages');
  assert.equal((await singleSend(h, { ...body(), channel_id: OTHER_CHANNEL_ID }, made.token)).status, 401);
  assert.equal((await singleSend(h, { ...body(), message_template: [{ type: 'BODY', parameters: ['only one'] }] }, made.token)).status, 401);
  assert.equal(await count('messages'), before);
});

test('a revoked seen token with an Idempotency-Key is 401 and reserves no key', async () => {
  const made = await seenToken();
  await revokeToken(h.store.db, made.tokenId);
  const keys = await count('idempotency_keys');
  const res = await h.call('POST', '/agent-app/message-template/single-messagev2', { token: made.token, body: body(), headers: { 'idempotency-key': 'revoked-seen-1' } });
  assert.equal(res.status, 401);
  assert.equal(await count('idempotency_keys'), keys);
});

test('a seen token still sees only its own company: another company\'s channel is 404', async () => {
  const made = await seenToken();
  const res = await singleSend(h, { ...body(), channel_id: OTHER_CHANNEL_ID }, made.token);
  assert.equal(res.status, 404);
  assert.equal(res.body.errors[0].code, 'CHANNEL_NOT_FOUND');
});
