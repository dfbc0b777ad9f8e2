import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import pino from 'pino';
import { createToken, revokeToken } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { sendSingle, type SingleSendDeps } from '../../src/engine/single-send.js';
import { SIM_CHANNELS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';
import { StatementCounter } from '../support/statement-counter.js';

// A single send to a channel and template that a request of the same company passed before is checked against
// those rows and stored by one statement that checks them again; whatever changed since, the answer is the one a
// fresh read gives, and nothing is stored for a refused request.
let h: Harness;
let templateId: string;
const channel = SIM_CHANNELS[0].id;
let phone = 0;
const nextPhone = () => `90531${String(1_000_000 + (phone += 1))}`;
const body = (to = nextPhone()) => ({ channel_id: channel, phone_number: to, message_template_id: templateId, message_template: sendParams() });
const messagesTo = async (to: string) =>
  (await sql<{ n: number }>`select count(*)::int as n from messages where phone_number = ${`+${to}`}`.execute(h.store.db)).rows[0].n;

/** Two accepted sends: the first reads the channel's health from the network, the second leaves its facts known. */
async function knownPair(token = h.a.token): Promise<void> {
  for (let i = 0; i < 2; i += 1) {
    const res = await singleSend(h, body(), token);
    assert.equal(res.status, 200, JSON.stringify(res.body));
  }
}

before(async () => {
  h = await startHarness();
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

test('a single send on known facts is stored by one statement', async () => {
  const counter = new StatementCounter();
  const deps: SingleSendDeps = {
    db: h.store.db.withPlugin(counter),
    health: { db: h.store.db, network: h.network, maxAgeMs: 30_000, log: pino({ level: 'silent' }), secrets: createSecretBox(h.config.secretKey) },
    queued: () => {},
  };
  const request = () => ({ channelId: channel, phoneNumber: nextPhone(), templateId, components: sendParams() });
  await sendSingle(deps, h.a.companyId, request());
  await sendSingle(deps, h.a.companyId, request());
  const before = counter.count;
  const id = await sendSingle(deps, h.a.companyId, request());
  assert.equal(counter.count - before, 1);
  const stored = await sql<{ status: string }>`select status from messages where id = ${id}`.execute(h.store.db);
  assert.equal(stored.rows[0].status, 'QUEUED');
});

test('a template paused since the facts were known is refused as before, nothing stored', async () => {
  await knownPair();
  await sql`update templates set status = 'PAUSED' where id = ${templateId}`.execute(h.store.db);
  try {
    const to = nextPhone();
    const res = await singleSend(h, body(to));
    assert.equal(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.errors[0].code, 'TEMPLATE_NOT_APPROVED');
    assert.equal(await messagesTo(to), 0);
  } finally {
    await sql`update templates set status = 'APPROVED' where id = ${templateId}`.execute(h.store.db);
  }
});

test('a recipient opted out since the facts were known is refused, nothing stored', async () => {
  await knownPair();
  const to = nextPhone();
  await sql`insert into opt_outs (company_id, phone_number, applies_to, source) values (${h.a.companyId}, ${`+${to}`}, 'all', 'api')`.execute(h.store.db);
  const res = await singleSend(h, body(to));
  assert.equal(res.body.errors?.[0].code, 'RECIPIENT_OPTED_OUT', JSON.stringify(res.body));
  assert.equal(await messagesTo(to), 0);
  // The next recipient is sent as before.
  assert.equal((await singleSend(h, body())).status, 200);
});

test('a token revoked since the facts were known is 401, nothing stored', async () => {
  const made = await createToken(h.store.db, h.a.companyId, 'known facts');
  await knownPair(made.token);
  await revokeToken(h.store.db, made.tokenId);
  const to = nextPhone();
  const res = await singleSend(h, body(to), made.token);
  assert.equal(res.status, 401);
  assert.equal(res.body.errors[0].code, 'UNAUTHORIZED');
  assert.equal(await messagesTo(to), 0);
});

test("another company's request for a known channel and template is 404, nothing stored", async () => {
  await knownPair();
  const to = nextPhone();
  const res = await singleSend(h, body(to), h.b.token);
  assert.equal(res.status, 404);
  assert.equal(res.body.errors[0].code, 'CHANNEL_NOT_FOUND');
  assert.equal(await messagesTo(to), 0);
});

test('bad parameters on known facts get the same answer as on a fresh read', async () => {
  await knownPair();
  const res = await singleSend(h, { ...body(), message_template: [{ type: 'BODY', parameters: ['only one'] }] });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
});
