/**
 * A large start must not freeze the service: while its stored rows are queued in the background (PGlite: NONE →
 * QUEUED by the dispatcher's maintenance, on the one connection), report reads keep being answered in between. The
 * bound here is loose on purpose (CI machines are slow and shared); bench/settle.ts measures the latency.
 */
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { onPostgres } from '../support/db.js';
import { startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { listItem, phones, startV1, v1Rows } from '../support/bulk.js';

const ROWS = 20_000;
/** Far above what a read takes; a read that waited for the whole list's queueing would be much slower at scale. */
const READ_BOUND_MS = 10_000;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

test(`report reads are answered while a ${ROWS}-row start's rows are queued`, async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  // The FLAGGED channel holds its sends: the background work is the queueing alone.
  const flagged = SIM_CHANNEL_IDS.flagged;
  const template = await approvedTemplate(h, flagged);
  const id = await startV1(h, { message_template_id: template, rows: v1Rows(phones(ROWS, '905574')), total_time: 0, channel_id: flagged });
  const latencies: number[] = [];
  const timed = async <T>(read: () => Promise<T>): Promise<T> => {
    const t = performance.now();
    const result = await read();
    latencies.push(performance.now() - t);
    return result;
  };
  let readsWhileWaiting = 0;
  for (let i = 0; i < 1000; i += 1) {
    const listed = await timed(() => listItem(h!, flagged, id));
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const res: { status: number; body: any } = await timed(() =>
      h!.call('POST', '/agent-app/message-template/send-wizard/reports/detail', { body: { data: { page: 1 + (i % 5), page_size: 50 }, id } }));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.report_details.length, 50);
    if (listed.waiting === 0) break;
    readsWhileWaiting += 1;
  }
  const item = await listItem(h, flagged, id);
  assert.equal(item.waiting, 0, 'every row queued');
  assert.equal(item.queued, ROWS);
  assert.ok(Math.max(...latencies) < READ_BOUND_MS, `slowest read ${Math.max(...latencies).toFixed(0)} ms`);
  // PGlite queues in the background, so reads were answered in between; PostgreSQL stored the rows queued already.
  if (!onPostgres) assert.ok(readsWhileWaiting > 0, 'no read answered while rows waited');
});
