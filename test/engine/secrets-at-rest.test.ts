/** Channel access tokens are sealed at rest, plaintext rows are sealed by the migrate step, and no answer or log shows them. */
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, test } from 'node:test';
import pino from 'pino';
import { LOG_REDACT_PATHS } from '../../src/app.js';
import { createSecretBox, type SecretBox } from '../../src/domain/secret-box.js';
import { sealStoredTokens } from '../../src/engine/credentials.js';
import { SIM_ACCESS_TOKEN, SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend, untilStatus } from '../support/sending.js';

let h: Harness;
let secrets: SecretBox;
const channel = SIM_CHANNEL_IDS.main;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  secrets = createSecretBox(h.config.secretKey);
});
after(() => h.close());

async function storedToken(id: string): Promise<string> {
  const row = await h.store.db.selectFrom('channels').select('access_token').where('id', '=', id).executeTakeFirstOrThrow();
  return row.access_token;
}

test('a channel added through addChannel stores its access token sealed, not in plaintext', async () => {
  const stored = await storedToken(channel);
  assert.notEqual(stored, SIM_ACCESS_TOKEN);
  assert.ok(!stored.includes(SIM_ACCESS_TOKEN));
  assert.match(stored, /^enc:v1:/);
  assert.equal(secrets.open(stored), SIM_ACCESS_TOKEN);
});

test('a plaintext row is sealed by the migrate step (idempotent) and the send path opens it', async () => {
  await h.store.db.updateTable('channels').set({ access_token: SIM_ACCESS_TOKEN }).where('id', '=', channel).execute();
  assert.ok((await sealStoredTokens(h.store.db, secrets)) >= 1);
  const sealed = await storedToken(channel);
  assert.match(sealed, /^enc:v1:/);
  assert.equal(await sealStoredTokens(h.store.db, secrets), 0);
  assert.equal(await storedToken(channel), sealed);

  const templateId = await approvedTemplate(h, channel);
  const res = await singleSend(h, { channel_id: channel, phone_number: '905553900017', message_template_id: templateId, message_template: sendParams() });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  // The network took it (a wamid), so the opened token was the right one.
  await untilStatus(h, res.body.data.message_id, ['BACKEND_SENT', 'BACKEND_DELIVERED', 'BACKEND_SEEN']);
});

test('channel answers never carry the access token, sealed or plain', async () => {
  for (const url of ['/api/v1/channels', `/api/v1/message-templates/waba-status?channel_id=${channel}`]) {
    const res = await h.call('GET', url);
    assert.equal(res.status, 200, url);
    const text = JSON.stringify(res.body);
    assert.ok(!text.includes(SIM_ACCESS_TOKEN), url);
    assert.ok(!text.includes('enc:v1:'), url);
    assert.ok(!text.includes('access_token'), url);
  }
});

test('the service log censors access tokens and authorization headers', () => {
  let out = '';
  const sink = new Writable({ write(chunk, _enc, done) { out += String(chunk); done(); } });
  const log = pino({ level: 'info', redact: LOG_REDACT_PATHS }, sink);
  log.info({ channel: { id: channel, access_token: 'EAAG-secret-1' }, creds: { accessToken: 'EAAG-secret-2' } }, 'x');
  log.info({ req: { headers: { authorization: 'Bearer EAAG-secret-3' } } }, 'y');
  log.info({ access_token: 'EAAG-secret-4', headers: { authorization: 'OAuth EAAG-secret-5' } }, 'z');
  assert.ok(!/EAAG-secret/.test(out), out);
  assert.match(out, /\[Redacted\]/);
});
