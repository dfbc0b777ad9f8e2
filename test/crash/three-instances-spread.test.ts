import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { DEMO_COMPANY_ID } from '../../src/admin.js';
import { FINAL_STATUSES } from '../../src/domain/message-states.js';
import { SIM_ACCESS_TOKEN, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { onPostgres } from '../support/db.js';
import { phones, v1Rows } from '../support/bulk.js';
import { startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { freePort, tmsJson, type Proc } from '../support/processes.js';

const CHANNELS = 6;
const ROWS = 500;
/** Each channel's cap (service and simulator): 500 rows take 25 s a channel, so the sends overlap even on a loaded machine. */
const MPS = 20;
const A = '/agent-app/message-template/send-wizard';

// Several instances share one database only on PostgreSQL (PGlite is one process's database).
if (onPostgres) {
  let world: CrashWorld;
  const instances: Proc[] = [];
  const ports: number[] = [];
  const channels = [SIM_CHANNEL_IDS.main, ...Array.from({ length: CHANNELS - 1 }, (_, i) => `1300000000${String(i).padStart(5, '0')}`)];

  before(async () => {
    world = await startCrashWorld(['--mps', String(MPS)]);
    for (const id of channels.slice(1)) {
      const added = await world.sim('/_sim/channels', { id });
      assert.ok(added.channel, JSON.stringify(added));
      await tmsJson(['channel', 'add', '--company', DEMO_COMPANY_ID, '--phone-number-id', id, '--waba-id', SIM_WABA_ID, '--access-token', SIM_ACCESS_TOKEN], world.env);
    }
    const client = new pg.Client({ connectionString: world.env.DATABASE_URL });
    await client.connect();
    await client.query('update channels set throughput_override_mps = $1', [MPS]);
    await client.end();
  });
  after(() => world?.close());

  test('three instances spread six channels two by two; a killed instance\'s channels are finished by the others, nothing sent twice', async () => {
    ports.push(world.servicePort, await freePort(), await freePort());
    for (const port of ports) instances.push(await world.startService({}, port));
    const client = new pg.Client({ connectionString: world.env.DATABASE_URL });
    await client.connect();
    try {
      await scenario(client);
    } finally {
      await client.end().catch(() => undefined);
    }
  });

  async function scenario(client: pg.Client): Promise<void> {
    // Every instance is registered before the work arrives (as in a running deployment).
    await until(async () => (await client.query('select count(*)::int as n from dispatcher_instances where seen_until > now()')).rows[0].n === 3, 20_000, 'three live instances');

    const sends = await Promise.all(channels.map(async (channel, i) => {
      const numbers = phones(ROWS, `90558${i}`);
      const started = await world.api('POST', `${A}/start`, { message_template_id: world.templateId, rows: v1Rows(numbers), total_time: 0, channel_id: channel }, ports[i % 3]);
      assert.equal(started.status, 200, JSON.stringify(started.body));
      return { id: started.body.data.send_wizard_id as string, channel, numbers };
    }));

    // The channels spread over the instances: each holds the send lease of two of the six.
    const spread = await until(async () => {
      const res = await client.query<{ owner: string; n: number }>(
        'select owner, count(*)::int as n from channel_leases where lease_until > now() and channel_id = any($1) group by owner', [channels]);
      const counts = res.rows.map((r) => r.n).sort();
      return res.rows.length === 3 && counts.join(',') === '2,2,2' ? res.rows : undefined;
    }, 20_000, 'six channels spread two by two').catch(async (error: Error) => {
      const leases = await client.query('select * from channel_leases');
      throw new Error(`${error.message}; leases ${JSON.stringify(leases.rows)}`);
    });
    const pids = new Set(spread.map((r) => Number(r.owner.split('-')[1])));
    assert.deepEqual([...pids].sort(), instances.map((p) => p.child.pid).sort(), 'every instance sends for some channels');

    // Kill -9 one of them while its channels are mid-send.
    const victimOwner = spread[1].owner;
    const victimChannels = (await client.query<{ channel_id: string }>('select channel_id from channel_leases where owner = $1', [victimOwner])).rows.map((r) => r.channel_id);
    const victim = instances.find((p) => p.child.pid === Number(victimOwner.split('-')[1]))!;
    await victim.kill('SIGKILL');
    const alive = ports.filter((_, i) => instances[i] !== victim);
    await world.sim('/_sim/webhook-target', { url: `http://127.0.0.1:${alive[0]}/webhooks/whatsapp`, app_secret: world.env.APP_SECRET });

    for (const send of sends) {
      await until(async () => {
        const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 20, channel_id: send.channel }, alive[0]);
        return res.body.items?.find((i: { send_wizard_id: string; status: string }) => i.send_wizard_id === send.id && i.status === 'COMPLETED');
      }, 120_000, `bulk send on ${send.channel} COMPLETED`).catch(async (error: Error) => {
        const rows = await client.query('select channel_id, status, lease_owner, count(*)::int as n from messages group by 1, 2, 3');
        const leases = await client.query('select * from channel_leases');
        throw new Error(`${error.message}; rows ${JSON.stringify(rows.rows)}; leases ${JSON.stringify(leases.rows)}`);
      });
    }
    // The victim's channels were taken over by the survivors (their leases are no longer the victim's).
    const after = await client.query<{ channel_id: string; owner: string }>('select channel_id, owner from channel_leases where channel_id = any($1)', [victimChannels]);
    for (const lease of after.rows) assert.notEqual(lease.owner, victimOwner, `${lease.channel_id} still the victim's`);
    const states = await client.query<{ status: string; n: number }>('select status, count(*)::int as n from messages group by status');
    const inDoubt = await client.query<{ n: number }>("select count(*)::int as n from messages where error_message = 'OUTCOME_UNKNOWN'");

    const unsettled = states.rows.filter((r) => !(FINAL_STATUSES as readonly string[]).includes(r.status));
    assert.deepEqual(unsettled, []);
    const stats = await world.sim('/_sim/stats');
    assert.equal(stats.duplicate_sends, 0, 'a row was sent twice');
    assert.equal(stats.refused_130429, 0, `a channel went over its ${MPS} mps cap`);
    let received = 0;
    for (const send of sends) {
      for (const n of send.numbers) {
        const got = await world.sim(`/_sim/received?to=%2B${n}`);
        assert.ok(got.messages.length <= 1, n);
        received += got.messages.length;
      }
    }
    const handedOver = states.rows.filter((r) => r.status.startsWith('BACKEND_')).reduce((sum, r) => sum + r.n, 0);
    assert.equal(received, handedOver, 'every row the network got is a row in a network state');
    // Only the last batch of each of the victim's channels may be lost to the kill: its attempts were committed and
    // its calls not yet all written (a batch is a quarter second of the channel's pace, MPS / 4 rows). Those rows
    // end OUTCOME_UNKNOWN, never sent; every other row reached the network once.
    const lastBatches = victimChannels.length * Math.ceil(MPS / 4);
    assert.equal(CHANNELS * ROWS - received, inDoubt.rows[0].n, 'every row the network did not get ended OUTCOME_UNKNOWN');
    assert.ok(received >= CHANNELS * ROWS - lastBatches, `received ${received} of ${CHANNELS * ROWS}`);
  }
}
