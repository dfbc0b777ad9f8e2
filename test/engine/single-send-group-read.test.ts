import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { addChannel, createCompany, createToken, revokeToken } from '../../src/admin.js';
import { createSecretBox } from '../../src/domain/secret-box.js';
import { hashToken } from '../../src/domain/tokens.js';
import { GroupFactsReader } from '../../src/engine/single-send.js';
import type { SingleSendAsk, SingleSendAnswer } from '../../src/store/single-sends.js';
import { createTestStore } from '../support/db.js';
import { StatementCounter } from '../support/statement-counter.js';

let store: Awaited<ReturnType<typeof createTestStore>>;
let a: { companyId: string; token: string };
let b: { companyId: string; token: string };
const channelA = '100000000000891';
const channelB = '100000000000892';

const ask = (company: { companyId: string; token: string }, channelId: string, phone: string): SingleSendAsk => ({
  companyId: company.companyId, channelId, templateId: 'no-such-template', ids: { phone, userId: null }, tokenHash: hashToken(company.token),
});
const channelOf = (answer: SingleSendAnswer) => (typeof answer === 'object' ? answer.channel.id : answer);

before(async () => {
  store = await createTestStore();
  const secrets = createSecretBox('0'.repeat(64));
  a = await createCompany(store.db, 'Group read A');
  b = await createCompany(store.db, 'Group read B');
  await addChannel(store.db, { companyId: a.companyId, phoneNumberId: channelA, wabaId: '1', accessToken: 't' }, secrets);
  await addChannel(store.db, { companyId: b.companyId, phoneNumberId: channelB, wabaId: '2', accessToken: 't' }, secrets);
});
after(() => store.cleanup());

test('single sends that arrive together are read by one statement, each scoped to its own company', async () => {
  const counter = new StatementCounter();
  const reader = new GroupFactsReader(store.db.withPlugin(counter));
  const answers = await Promise.all([
    reader.read(ask(a, channelA, '+15550000001')),
    reader.read(ask(a, channelA, '+15550000002')),
    reader.read(ask(b, channelB, '+15550000003')),
    reader.read(ask(a, channelB, '+15550000004')), // company B's channel, asked by company A
  ]);
  assert.deepEqual(answers.map(channelOf), [channelA, channelA, channelB, undefined]);
  // The first ask goes alone (nothing was running), the three that arrived meanwhile go together.
  assert.equal(counter.count, 2);
});

test('a revoked token in a group is refused alone; the others of its group get their facts', async () => {
  const revoked = await createToken(store.db, a.companyId, 'revoked');
  assert.equal(await revokeToken(store.db, revoked.tokenId), true);
  const reader = new GroupFactsReader(store.db);
  const answers = await Promise.all([
    reader.read(ask(a, channelA, '+15550000011')),
    reader.read(ask(a, channelA, '+15550000012')),
    reader.read(ask({ companyId: a.companyId, token: revoked.token }, channelA, '+15550000013')),
    reader.read(ask({ companyId: b.companyId, token: a.token }, channelB, '+15550000014')), // A's token for company B
    reader.read(ask(a, channelA, '+15550000015')),
  ]);
  assert.deepEqual(answers.map(channelOf), [channelA, channelA, 'TOKEN_REVOKED', 'TOKEN_REVOKED', channelA]);
});
