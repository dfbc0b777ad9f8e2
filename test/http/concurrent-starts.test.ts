/**
 * Many bulk starts at once, more than the PostgreSQL pool has connections: each start that begins now stores its
 * rows in one transaction of its own (COPY on that connection) and marks itself alive on another connection
 * between batches. When the storing loop awaited that mark, ten concurrent starts held all ten connections and
 * each waited for an eleventh: the service's pool froze for good (found by the many-channels bench, 20 starts).
 * Every start must be accepted with all its rows, and the service must keep answering meanwhile.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { phones, v1Rows } from '../support/bulk.js';

const A = '/agent-app/message-template/send-wizard';
let h: Harness;
before(async () => {
  // Batches of 7 rows: every start stores several batches and marks itself alive between them.
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } }, { bulkBatchSize: 7 });
});
after(() => h.close());

test('sixteen bulk starts at once are all accepted with all their rows (the pool never freezes)', async () => {
  const flagged = SIM_CHANNEL_IDS.flagged; // holds its sends: the stored rows stay as the starts left them
  const template = await approvedTemplate(h, flagged);
  const starts = Array.from({ length: 16 }, (_, k) =>
    h.call('POST', `${A}/start`, {
      body: { message_template_id: template, rows: v1Rows(phones(30, `90558${String(k).padStart(2, '0')}`)), total_time: 0, channel_id: flagged },
    }));
  let timer: NodeJS.Timeout | undefined;
  const frozen = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('the starts did not all answer within 60 s: the pool is frozen')), 60_000);
  });
  try {
    const answers = await Promise.race([Promise.all(starts), frozen]);
    assert.deepEqual(answers.map((r) => r.status), Array(16).fill(200), JSON.stringify(answers.map((r) => r.body)));
  } finally {
    clearTimeout(timer);
  }
  const stored = await sql<{ send_wizard_id: string; n: number }>`
    select send_wizard_id, count(*)::int as n from messages where channel_id = ${flagged} group by 1`.execute(h.store.db);
  assert.equal(stored.rows.length, 16);
  assert.ok(stored.rows.every((r) => r.n === 30), JSON.stringify(stored.rows));
  const health = await h.call('GET', '/health');
  assert.equal(health.status, 200);
});
