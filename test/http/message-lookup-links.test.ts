/**
 * GET /api/v1/messages follows recipient links: by user_id, also the messages to the linked phone number that carry
 * no BSUID; by phone_number, also the messages to a linked BSUID that carry no phone number. Scoped to the company,
 * paged as before, read from the indexes.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { messagesOfRecipientQuery } from '../../src/store/message-lookup.js';
import { upsertRecipientLinks } from '../../src/store/recipient-links.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';

const channel = SIM_CHANNEL_IDS.main;
const PHONE = '905557780011';
let h: Harness;
let userId: string;
let otherUserId: string;
/** In the order they were made: by number, to the BSUID, by number, by number but reported under another BSUID. */
const m: string[] = [];

before(async () => {
  h = await startHarness();
  const templateId = await approvedTemplate(h, channel);
  // No status webhooks: a message keeps the identifier it was sent to, as one whose statuses never named the other.
  h.simulator.setWebhookTarget(null);
  userId = (await simAdmin(h, `/_sim/users/${PHONE}`)).user_id as string;
  otherUserId = (await simAdmin(h, '/_sim/users/905557780022')).user_id as string;
  const send = async (recipient: Record<string, unknown>) => {
    const res = await singleSend(h, { channel_id: channel, message_template_id: templateId, message_template: sendParams(), ...recipient });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    m.push(res.body.data.message_id);
  };
  await send({ phone_number: PHONE });
  await send({ recipient: userId });
  await send({ phone_number: PHONE });
  await send({ phone_number: PHONE });
  // The number's message reported under another BSUID (a recycled number): that BSUID's, not the linked one's.
  await h.store.db.updateTable('messages').set({ user_id: otherUserId }).where('id', '=', m[3]).execute();
});
after(() => h?.close());

const ids = (body: { items: { _id: string }[] }) => body.items.map((r) => r._id);
const search = (query: string, token = h.a.token) => h.call('GET', `/api/v1/messages?${query}`, { token });

test('without a link each lookup finds only its own identifier', async () => {
  assert.deepEqual(ids((await search(`user_id=${userId}`)).body), [m[1]]);
  assert.deepEqual(ids((await search(`phone_number=${PHONE}`)).body), [m[3], m[2], m[0]]);
});

test('once linked, the BSUID finds the number messages without a BSUID, and the number finds the BSUID-only ones', async () => {
  await upsertRecipientLinks(h.store.db, h.a.companyId, [{ phone_number: `+${PHONE}`, user_id: userId, source: 'status_webhook' }]);
  const byUser = await search(`user_id=${userId}`);
  assert.equal(byUser.status, 200, JSON.stringify(byUser.body));
  assert.deepEqual(ids(byUser.body), [m[2], m[1], m[0]]);
  assert.equal(byUser.body.next, null);
  assert.deepEqual(ids((await search(`phone_number=${PHONE}`)).body), [m[3], m[2], m[1], m[0]]);
  // The other BSUID keeps its own message and gains nothing: it has no link.
  assert.deepEqual(ids((await search(`user_id=${otherUserId}`)).body), [m[3]]);
});

test('pages of a linked lookup walk every message once, newest first', async () => {
  for (const [query, expected] of [[`user_id=${userId}`, [m[2], m[1], m[0]]], [`phone_number=${PHONE}`, [m[3], m[2], m[1], m[0]]]] as const) {
    const seen: string[] = [];
    let next: string | null = null;
    for (let i = 0; i < 6; i++) {
      const res = await search(`${query}&limit=1${next ? `&after=${next}` : ''}`);
      assert.equal(res.status, 200);
      seen.push(...ids(res.body));
      next = res.body.next;
      if (!next) break;
    }
    assert.deepEqual(seen, expected, query);
  }
});

test("a link of another company finds none of this company's messages", async () => {
  await upsertRecipientLinks(h.store.db, h.b.companyId, [{ phone_number: `+${PHONE}`, user_id: userId, source: 'status_webhook' }]);
  for (const query of [`user_id=${userId}`, `phone_number=${PHONE}`]) {
    const res = await search(query, h.b.token);
    assert.deepEqual([res.status, res.body.items, res.body.next], [200, [], null], query);
  }
});

test('both parts of a lookup are index walks, with no scan of the messages table', async () => {
  for (const [who, indexes] of [
    [{ userId }, [/messages_by_user_id/, /messages_by_phone/, /recipient_links_pkey/]],
    [{ phone: `+${PHONE}` }, [/messages_by_phone/, /messages_by_user_id/, /recipient_links_by_phone|recipient_links_pkey/]],
  ] as const) {
    for (const afterId of [undefined, m[2]]) {
      const plan = await h.store.db.transaction().execute(async (tx) => {
        await sql`set local enable_seqscan = off`.execute(tx);
        const rows = await sql<Record<string, string>>`explain ${messagesOfRecipientQuery(h.a.companyId, who, 21, afterId)}`.execute(tx);
        return rows.rows.map((r) => Object.values(r)[0]).join('\n');
      });
      for (const index of indexes) assert.match(plan, index, plan);
      assert.doesNotMatch(plan, /Seq Scan/, plan);
    }
  }
});
