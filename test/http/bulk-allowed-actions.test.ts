/** The reports list and the report detail say what the user may do to each bulk send now (`allowed_actions`). */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, startV1, untilWizard, v1Rows } from '../support/bulk.js';

let h: Harness;
let template: string;
const main = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 }, limits: { pairRateBurst: null } });
  template = await approvedTemplate(h, main);
});
after(() => h.close());

test('a scheduled bulk send may only be stopped; once stopped, nothing is left to do', async () => {
  const at = new Date(Date.now() + 3600_000).toISOString();
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(2, '9055920')), total_time: 0, channel_id: main, scheduled_at: at });
  assert.deepEqual((await listItem(h, main, id)).allowed_actions, ['stop']);
  const detail = await h.call('POST', `${A}/reports/detail`, { body: { id } });
  assert.equal(detail.status, 200, JSON.stringify(detail.body));
  assert.equal(detail.body.data.status, 'SCHEDULED');
  assert.deepEqual(detail.body.data.allowed_actions, ['stop']);
  const stopped = await h.call('POST', `${A}/stop`, { body: { send_wizard_id: id, channel_id: main } });
  assert.equal(stopped.status, 200, JSON.stringify(stopped.body));
  assert.deepEqual((await listItem(h, main, id)).allowed_actions, []);
});

test('a completed bulk send with no failed row offers nothing', async () => {
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(2, '9055930')), total_time: 0, channel_id: main });
  const done = await untilWizard(h, main, id, ['COMPLETED']);
  assert.equal(done.failed_count, 0);
  assert.deepEqual(done.allowed_actions, []);
});
