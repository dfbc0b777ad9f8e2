/**
 * While the service sends, status bodies are stored first and held before they are applied (WEBHOOK_HOLD_MS): a
 * body is answered only once stored, so a kill -9 with bodies held loses none; the next run applies them.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { phones, v1Rows } from '../support/bulk.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';

const ROWS = 400;
const A = '/agent-app/message-template/send-wizard';
let world: CrashWorld;

before(async () => {
  // 80 mps: five seconds of sending; a 10 s hold keeps the bodies stored while it runs.
  world = await startCrashWorld(['--mps', '80'], { WEBHOOK_HOLD_MS: '10000' });
});
after(() => world?.close());

test('kill -9 while status bodies are held: the stored bodies are applied by the next run, every sent row ends in its network state', async () => {
  let service = await world.startService();
  const numbers = phones(ROWS, '9055901');
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id;
  const stored = async () => ((await world.api('GET', '/health')).body.webhook_events?.RECEIVED ?? 0) as number;
  // Status bodies answered 200 (the network does not post them again) and not applied yet.
  const held = await until(async () => (await stored()) > 0 && (await stored()), 20_000, 'status bodies held while sending');
  await service.kill('SIGKILL');
  assert.ok(held > 0);

  service = await world.startService();
  await until(async () => {
    const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main });
    return res.body.items?.find((i: { send_wizard_id: string }) => i.send_wizard_id === id)?.status === 'COMPLETED';
  }, 120_000, 'bulk send COMPLETED');
  let received = 0;
  for (const n of numbers) received += (await world.sim(`/_sim/received?to=%2B${n}`)).messages.length;
  const readRows = async () => {
    const out: Array<{ status: string }> = [];
    for (let page = 1; (page - 1) * 200 < ROWS; page += 1) {
      const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 200 }, id });
      out.push(...res.body.data.report_details);
    }
    return out;
  };
  const inNetworkState = (r: { status: string }) => ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_FAILED'].includes(r.status);
  // A send in doubt across the kill settles by the network's retried status webhook (at most 30 s apart).
  const settled = await until(async () => {
    const rows = await readRows();
    return rows.filter(inNetworkState).length === received && (await stored()) === 0 ? rows : undefined;
  }, 90_000, 'every sent row in its network state, no body left stored').catch(() => undefined);
  const rows = settled ?? (await readRows());
  assert.equal(rows.filter(inNetworkState).length, received, 'every row the network got is in a network state');
  assert.equal(await stored(), 0);
  await service.kill('SIGTERM');
});
