/**
 * A bulk start checks and stores its rows inside the process's memory policy for starts (runtime.ts's HeapGrowth,
 * which lowers V8's heap growth while one runs): the policy is entered before a row is stored and left once the
 * start has answered, a refused start included.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { DuringStart } from '../../src/engine/bulk-start.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones, startV1, v1Rows } from '../support/bulk.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

// The FLAGGED channel holds its sends: the stored rows stay as the start left them.
const flagged = SIM_CHANNEL_IDS.flagged;

/** A policy that records the rows stored when each start entered and left it. */
function recordingPolicy() {
  const seen: Array<{ entered: number; left?: number; failed?: boolean }> = [];
  let active = 0;
  const stored = async () => Number((await sql<{ n: number }>`select count(*)::int as n from messages`.execute(h!.store.db)).rows[0].n);
  const duringStart: DuringStart = async (work) => {
    const entry: { entered: number; left?: number; failed?: boolean } = { entered: await stored() };
    seen.push(entry);
    active += 1;
    try {
      return await work();
    } catch (error) {
      entry.failed = true;
      throw error;
    } finally {
      active -= 1;
      entry.left = await stored();
    }
  };
  return { seen, duringStart, active: () => active };
}

test('a bulk start stores its rows inside the memory policy for starts and leaves it once answered', async () => {
  const policy = recordingPolicy();
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { duringStart: policy.duringStart });
  const template = await approvedTemplate(h, flagged);
  await startV1(h, { message_template_id: template, rows: v1Rows(phones(12, '9055742')), total_time: 0, channel_id: flagged });
  assert.deepEqual(policy.seen, [{ entered: 0, left: 12 }]);
  assert.equal(policy.active(), 0);
});

test('a refused bulk start leaves the memory policy for starts too, nothing stored', async () => {
  const policy = recordingPolicy();
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { duringStart: policy.duringStart });
  const template = await approvedTemplate(h, flagged);
  const res = await h.call('POST', '/agent-app/message-template/send-wizard/start', {
    body: { message_template_id: template, rows: v1Rows(['not-a-number']), total_time: 0, channel_id: flagged },
  });
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.deepEqual(policy.seen, [{ entered: 0, left: 0, failed: true }]);
  assert.equal(policy.active(), 0);
});
