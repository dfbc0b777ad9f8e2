import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { FINAL_STATUSES } from '../../src/domain/message-states.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { onPostgres } from '../support/db.js';
import { phones, v1Rows } from '../support/bulk.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { freePort, type Proc } from '../support/processes.js';

const ROWS = 600;
const A = '/agent-app/message-template/send-wizard';

// Several instances share one database only on PostgreSQL (PGlite is one process's database).
if (onPostgres) {
  let world: CrashWorld;
  const instances: Proc[] = [];
  const ports: number[] = [];

  before(async () => {
    world = await startCrashWorld(['--mps', '80']);
  });
  after(() => world?.close());

  test('three instances on one PostgreSQL share the work: no double sends, the 80 mps cap holds, a killed owner is taken over', async () => {
    ports.push(world.servicePort, await freePort(), await freePort());
    for (const port of ports) instances.push(await world.startService({}, port));
    const numbers = phones(ROWS, '9055800');
    const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: SIM_CHANNEL_IDS.main }, ports[1]);
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const id = started.body.data.send_wizard_id;

    // Kill -9 whichever instance owns the channel's send lease once sending is under way.
    const client = new pg.Client({ connectionString: world.env.DATABASE_URL });
    await client.connect();
    const owner = await until(async () => {
      const res = await client.query<{ owner: string }>('select owner from channel_leases where channel_id = $1', [SIM_CHANNEL_IDS.main]);
      return res.rows[0]?.owner;
    }, 20_000, 'a channel lease');
    await new Promise((r) => setTimeout(r, 1500));
    const ownerPid = Number(owner.split('-')[1]);
    const victim = instances.find((p) => p.child.pid === ownerPid);
    assert.ok(victim, `owner ${owner} is one of the instances`);
    await victim.kill('SIGKILL');
    const alive = ports.filter((_, i) => instances[i] !== victim);
    // Webhooks reach the instances through one address, as behind a load balancer: a live instance from now on
    // (when the victim was the one the simulator posted to, its status events would otherwise never arrive).
    await world.sim('/_sim/webhook-target', { url: `http://127.0.0.1:${alive[0]}/webhooks/whatsapp`, app_secret: world.env.APP_SECRET });

    await until(async () => {
      const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: SIM_CHANNEL_IDS.main }, alive[0]);
      return res.body.items?.find((i: { send_wizard_id: string; status: string }) => i.send_wizard_id === id && i.status === 'COMPLETED');
    }, 120_000, 'bulk send COMPLETED').catch(async (error: Error) => {
      // Say where the rows stood and what the instances logged, so a failure can be read.
      const rows = await client.query('select status, lease_owner, send_attempted_at is not null as attempted, count(*)::int as n from messages where send_wizard_id = $1 group by 1, 2, 3', [id]);
      const leases = await client.query('select * from channel_leases');
      const logs = instances.filter((p) => p !== victim).map((p) => p.output().slice(-3000)).join('\n---\n');
      throw new Error(`${error.message}; rows ${JSON.stringify(rows.rows)}; leases ${JSON.stringify(leases.rows)}\n${logs}`);
    });
    const newOwner = await client.query<{ owner: string }>('select owner from channel_leases where channel_id = $1', [SIM_CHANNEL_IDS.main]);
    const states = await client.query<{ status: string; n: number }>('select status, count(*)::int as n from messages where send_wizard_id = $1 group by status', [id]);
    const inDoubt = await client.query<{ n: number }>("select count(*)::int as n from messages where send_wizard_id = $1 and error_message = 'OUTCOME_UNKNOWN'", [id]);
    await client.end();

    const unsettled = states.rows.filter((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status));
    assert.deepEqual(unsettled, []);
    const stats = await world.sim('/_sim/stats');
    assert.equal(stats.duplicate_sends, 0, 'a row was sent twice');
    assert.equal(stats.refused_130429, 0, 'the instances together went over the 80 mps cap');
    let received = 0;
    for (const n of numbers) {
      const got = await world.sim(`/_sim/received?to=%2B${n}`);
      assert.ok(got.messages.length <= 1, n);
      received += got.messages.length;
    }
    const handedOver = states.rows.filter((r) => r.status.startsWith('BACKEND_')).reduce((sum, r) => sum + r.n, 0);
    assert.equal(received, handedOver, 'every row the network got is a row in a network state');
    // Only the victim's last batch may be lost to the kill: its attempts were committed and its calls not yet all
    // written (a batch is a quarter second of the channel's pace, 80 / 4 rows). Those rows end OUTCOME_UNKNOWN,
    // never sent; every other row reached the network once.
    const lastBatch = Math.ceil(80 / 4);
    assert.equal(ROWS - received, inDoubt.rows[0].n, 'every row the network did not get ended OUTCOME_UNKNOWN');
    assert.ok(received >= ROWS - lastBatch, `received ${received} of ${ROWS}`);
    if (newOwner.rows[0]) assert.notEqual(newOwner.rows[0].owner, owner);
  });
}
