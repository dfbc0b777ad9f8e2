/**
 * An instance that stalls between its claim and its gate past its message lease must not cause a
 * row to be sent twice. Every `tms serve` runs with TMS_FAULT_GATE_DELAY_MS (its first gate stalls longer than the
 * 10 s channel lease and the 2 s message lease), so the rows it claimed go back to the queue and another instance
 * takes the channel and the rows over while the stalled one still holds them in memory; when it wakes it goes on
 * with its stale batch. On PostgreSQL three instances share the work; PGlite is one process's database, so there
 * one instance stalls and its own maintenance takes the rows back.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { FINAL_STATUSES } from '../../src/domain/message-states.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { onPostgres } from '../support/db.js';
import { phones, v1Rows } from '../support/bulk.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { freePort, type Proc } from '../support/processes.js';

const ROWS = 300;
const STALL_MS = 13_000;
const A = '/agent-app/message-template/send-wizard';
const FAULT = { TMS_FAULT_GATE_DELAY_MS: String(STALL_MS), TMS_MESSAGE_LEASE_SECONDS: '2' };
const INSTANCES = onPostgres ? 3 : 1;

let world: CrashWorld;
before(async () => {
  world = await startCrashWorld(['--mps', '80']);
});
after(() => world?.close());

type Row = { message_id: string; status: string; phone_number: string };

/** The stall log lines ('fault: gate stall begins' / 'over') an instance printed for its first gate. */
const stalled = (p: Proc, what: 'begins' | 'over') => p.output().includes(`"gate":1,`) && p.output().includes(`fault: gate stall ${what}`);

test(`${INSTANCES} instance(s) whose gate stalls past the message lease: every row final, none sent twice, each recipient got one message, counters equal the rows`, async () => {
  const ports = [world.servicePort];
  while (ports.length < INSTANCES) ports.push(await freePort());
  const instances: Proc[] = [];
  for (const port of ports) instances.push(await world.startService(FAULT, port));
  const numbers = phones(ROWS, '9055810');
  const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main });
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const id = started.body.data.send_wizard_id as string;
  const readRows = async (): Promise<Row[]> => {
    const out: Row[] = [];
    for (let page = 1; (page - 1) * 500 < ROWS; page += 1) {
      const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 500 }, id });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      out.push(...res.body.data.report_details);
    }
    return out;
  };

  // The premise: the first instance to claim stalls holding its batch, and the batch goes back to the queue meanwhile.
  const first = await until(async () => instances.find((p) => stalled(p, 'begins')), 30_000, 'a stalled gate');
  const held = await until(async () => {
    const agenda = (await readRows()).filter((r) => r.status === 'AGENDA');
    return agenda.length > 0 ? agenda.map((r) => r.message_id) : undefined;
  }, 5_000, 'the stalled batch in AGENDA');
  await until(async () => {
    const rows = await readRows();
    return held.every((h) => rows.find((r) => r.message_id === h)?.status !== 'AGENDA');
  }, 8_000, 'the stalled batch requeued after its message lease');
  assert.ok(!stalled(first, 'over'), 'the stalled instance still holds its batch in memory when it goes back to the queue');

  if (onPostgres) {
    // Another instance takes the channel and claims the stalled rows while the first one still sleeps.
    const client = new pg.Client({ connectionString: world.env.DATABASE_URL });
    await client.connect();
    try {
      const stalledOwner = `tms-${first.child.pid}-`;
      const taker = await until(async () => {
        const res = await client.query<{ lease_owner: string }>(
          'select lease_owner from messages where id = any($1) and lease_owner is not null and lease_owner not like $2 limit 1',
          [held, `${stalledOwner}%`],
        );
        return res.rows[0]?.lease_owner;
      }, 15_000, 'another instance claiming the stalled rows');
      assert.ok(!stalled(first, 'over'), `${taker} took the rows over while their first owner was still stalled`);
    } finally {
      await client.end();
    }
  }

  await until(async () => {
    const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main });
    return res.body.items?.find((i: { send_wizard_id: string; status: string }) => i.send_wizard_id === id && i.status === 'COMPLETED');
  }, 120_000, 'bulk send COMPLETED');
  assert.ok(stalled(first, 'over'), 'the stalled instance woke up and went on with its stale batch');

  const stats = await world.sim('/_sim/stats');
  assert.equal(stats.duplicate_sends, 0, 'a row was sent twice');
  for (const n of numbers) {
    const got = await world.sim(`/_sim/received?to=%2B${n}`);
    assert.equal(got.messages.length, 1, `${n} received ${got.messages.length} messages`);
  }
  const rows = await readRows();
  assert.equal(rows.length, ROWS);
  assert.deepEqual(rows.filter((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status)), []);
  const count = (statuses: string[]) => rows.filter((r) => statuses.includes(r.status)).length;
  assert.equal(count(['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN']), ROWS, 'every row reached the network once');
  const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main });
  const item = res.body.items.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
  assert.equal(item.summary, ROWS);
  assert.equal(item.waiting + item.queued + item.awaiting_backend_count, 0);
  assert.equal(item.failed_count, 0);
  assert.equal(item.processed_count, ROWS);
  assert.equal(item.delivered_count, ROWS);
});
