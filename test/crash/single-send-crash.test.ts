import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { sendParams } from '../support/sending.js';

let world: CrashWorld;

before(async () => {
  world = await startCrashWorld();
});
after(() => world?.close());

test('kill -9 between the network call and its commit: the customer gets exactly one message, the record is reconciled', async () => {
  // This run dies by SIGKILL right after the network accepts the message, before anything is stored.
  let service = await world.startService({ TMS_FAULT_CRASH_AFTER_SEND: '1' });
  const sent = await world.api('POST', '/agent-app/message-template/single-messagev2', {
    channel_id: SIM_CHANNEL_IDS.main, phone_number: '905556600011', message_template_id: world.templateId, message_template: sendParams(),
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const exit = await service.exited;
  assert.equal(exit.signal, 'SIGKILL', service.output());

  // Restart normally: the simulator's retried status webhooks reconcile the message; nothing is resent.
  service = await world.startService();
  const id = sent.body.data.message_id;
  const record = await until(async () => {
    const res = await world.api('POST', '/api/v1/messages', { message_ids: [id] });
    const item = res.body.items?.[0];
    return item && ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'].includes(item.status) ? item : undefined;
  }, 60_000, 'reconciled record');
  const received = await world.sim('/_sim/received?to=%2B905556600011');
  assert.equal(received.messages.length, 1);
  assert.equal(record.ext_id, received.messages[0].wamid);
  assert.equal((await world.sim('/_sim/stats')).duplicate_sends, 0);
  await service.kill('SIGTERM');
});
