/**
 * Lock order: stop, claims, outcome flushes and status batches all lock message rows first
 * (in id order), then the bulk send. A stop that locked the bulk send first deadlocked on PostgreSQL with any
 * transaction that held some of its rows and waited for the bulk send's counters.
 *
 * A large send runs on an uncapped channel (no tier quota, no simulator cap, 1,000 mps in the service) while
 * several small bulk sends are started and stopped while they queue, send and receive status webhooks; the
 * large one is stopped last. Knobs, defaults PostgreSQL / PGlite (each runs well under a minute):
 * TMS_LOCK_ROWS, the large send (10000 / 2000; the form is 100000 on PostgreSQL); TMS_LOCK_STOPS,
 * small sends stopped (15 / 5); TMS_LOCK_RATE, the large send's rows per second through its total_time
 * (200 / 40: it outlasts the rounds and is stopped while sending, and the small sends, due at once, go out
 * between its rows); TMS_LOCK_SMALL_ROWS (400 / 200). Before the fix the PostgreSQL defaults gave 3 to 6
 * stops answering 500 ("deadlock detected") per run.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { request } from 'undici';
import { DEMO_COMPANY_ID } from '../../src/admin.js';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { countersFromRows } from '../support/bulk.js';
import { onPostgres } from '../support/db.js';
import { CRASH_TOKEN, startCrashWorld, until, type CrashWorld } from '../support/crash-world.js';
import { tmsJson, type Proc } from '../support/processes.js';

const ROWS = Number(process.env.TMS_LOCK_ROWS ?? (onPostgres ? 10_000 : 2000));
const STOPS = Number(process.env.TMS_LOCK_STOPS ?? (onPostgres ? 15 : 5));
// Slow enough that the large send still runs when its stop comes after the small sends' stops, which take tens of
// seconds on a loaded machine.
const RATE = Number(process.env.TMS_LOCK_RATE ?? (onPostgres ? 100 : 15));
const SMALL = Number(process.env.TMS_LOCK_SMALL_ROWS ?? (onPostgres ? 400 : 200));
const A = '/agent-app/message-template/send-wizard';
const MAIN = SIM_CHANNEL_IDS.main;

let world: CrashWorld;
let service: Proc;
/** Service log lines that name a deadlock (the whole log is scanned as it streams, not only its tail). */
const deadlockLines: string[] = [];
/** Service log lines at level error or above (pino level ≥ 50), for the failure message. */
const errorLines: string[] = [];

function watchLog(proc: Proc): void {
  let pending = '';
  const onData = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (/deadlock detected|40P01/i.test(line)) deadlockLines.push(line.slice(0, 2000));
      const level = /"level":(\d+)/.exec(line);
      if (level && Number(level[1]) >= 50 && errorLines.length < 50) errorLines.push(line.slice(0, 1000));
    }
  };
  proc.child.stdout!.on('data', onData);
  proc.child.stderr!.on('data', onData);
}

/** A v1 start body for `n` unique numbers under `prefix`, streamed (a 100,000-row body is never held). */
function startBody(n: number, prefix: string, totalTime: number): Readable {
  async function* chunks() {
    yield `{"message_template_id":"${world.templateId}","channel_id":"${MAIN}","total_time":${totalTime},"rows":[`;
    const batch: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const phone = `${prefix}${String(i * 10 + 13).padStart(7, '0')}`;
      batch.push(`${i ? ',' : ''}{"id":${i + 1},"phone_number":"${phone}","params":["N${i}","C${i}"],"url_button_param":"p${i}"}`);
      if (batch.length === 2000) yield batch.splice(0).join('');
    }
    yield batch.join('') + ']}';
  }
  return Readable.from(chunks());
}

async function startBulk(n: number, prefix: string, totalTime: number): Promise<string> {
  const res = await request(`http://127.0.0.1:${world.servicePort}${A}/start`, {
    method: 'POST',
    headers: { authorization: `Bearer ${CRASH_TOKEN}`, 'content-type': 'application/json' },
    body: startBody(n, prefix, totalTime),
    headersTimeout: 10 * 60_000,
    bodyTimeout: 10 * 60_000,
  });
  const body = (await res.body.json()) as { data?: { send_wizard_id: string } };
  assert.equal(res.statusCode, 200, JSON.stringify(body));
  return body.data!.send_wizard_id;
}

interface Item {
  send_wizard_id: string;
  status: string;
  summary: number;
  waiting: number;
  queued: number;
  processed_count: number;
  awaiting_backend_count: number;
  failed_count: number;
  cancelled_count: number;
  delivered_count: number;
}

async function items(): Promise<Item[]> {
  const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 100, channel_id: MAIN });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.items as Item[];
}

async function rowsOf(id: string, summary: number): Promise<Array<{ status: string }>> {
  const out: Array<{ status: string }> = [];
  for (let page = 1; (page - 1) * 500 < summary; page += 1) {
    const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 500 }, id });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    out.push(...res.body.data.report_details);
  }
  return out;
}

async function stop(id: string): Promise<{ status: number; body: unknown }> {
  return world.api('POST', `${A}/stop`, { send_wizard_id: id, channel_id: MAIN });
}

before(async () => {
  world = await startCrashWorld(['--mps', 'off']);
  // Uncapped: TIER_UNLIMITED main channel, no simulator cap, the network's 1,000 mps in the service.
  await tmsJson(['channel', 'update', '--company', DEMO_COMPANY_ID, '--phone-number-id', MAIN, '--throughput', '1000'], world.env);
  service = await world.startService();
  watchLog(service);
});
after(async () => {
  await service?.kill('SIGTERM');
  await world?.close();
});

test(`${STOPS} bulk sends stopped while sending during a ${ROWS}-row uncapped send, then the large one: no 5xx, no deadlock, counters equal rows, no duplicate`, async () => {
  const t0 = Date.now();
  const mark = (what: string) => console.log(`# ${what} at ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  const totalTime = Math.max(1, Math.ceil(ROWS / RATE));
  const large = await startBulk(ROWS, '90561', totalTime);
  mark('large send started');
  await until(async () => (await items()).find((i) => i.send_wizard_id === large && i.processed_count > 0), 60_000, 'the large send sending');

  const stops: Array<{ id: string; status: number; body: unknown }> = [];
  const small: string[] = [];
  for (let k = 0; k < STOPS; k += 1) {
    // The first small send is spread over an hour, so its stop always finds rows to cancel however slow the
    // machine is (the others, uncapped, may be all handed off by the time a slow stop lands).
    const id = await startBulk(SMALL, `9057${String(k).padStart(3, '0')}`, k === 0 ? 3600 : 0);
    small.push(id);
    // Some stops land while the rows are being queued, the others while they are claimed, sent and
    // answered by status webhooks.
    const wait = k % 3 === 0 ? 0 : 150 + Math.floor(Math.random() * 1500);
    await new Promise((r) => setTimeout(r, wait));
    stops.push({ id, ...(await stop(id)) });
    mark(`stop ${k + 1} answered ${stops[k].status}`);
  }
  stops.push({ id: large, ...(await stop(large)) });
  mark(`stop of the large send answered ${stops[STOPS].status}`);

  for (const s of stops) {
    assert.ok(s.status < 500, `stop of ${s.id} answered ${s.status}: ${JSON.stringify(s.body)}`);
    assert.ok(s.status === 200 || s.status === 409, `stop of ${s.id} answered ${s.status}: ${JSON.stringify(s.body)}`);
  }
  assert.equal(stops[stops.length - 1].status, 200, 'the large send was still running when stopped');

  // Every bulk send finished and nothing awaits its status webhook (a wrong counter shows below, not as a hang).
  const ids = [large, ...small];
  await until(async () => {
    const all = (await items()).filter((i) => ids.includes(i.send_wizard_id));
    return all.length === ids.length && all.every((i) => ['STOPPED', 'COMPLETED'].includes(i.status) && i.waiting + i.queued + i.awaiting_backend_count === 0);
  }, 120_000, 'every bulk send settled').catch(() => undefined);
  mark('settled');

  assert.deepEqual(deadlockLines, [], 'the service logged a deadlock');
  const byId = new Map((await items()).map((i) => [i.send_wizard_id, i]));
  for (const id of ids) {
    const item = byId.get(id)!;
    const rows = await rowsOf(id, item.summary);
    assert.equal(rows.length, id === large ? ROWS : SMALL);
    const counted = countersFromRows(rows);
    const { minimumDelivered, ...exact } = counted;
    assert.deepEqual(
      {
        waiting: item.waiting, queued: item.queued, processed_count: item.processed_count, awaiting_backend_count: item.awaiting_backend_count,
        failed_count: item.failed_count, cancelled_count: item.cancelled_count,
      },
      exact,
      `counters of ${id} (${item.status}) differ from its rows; service errors:\n${errorLines.join('\n')}`,
    );
    assert.ok(item.delivered_count >= minimumDelivered, `${id}: delivered_count ${item.delivered_count} < ${minimumDelivered}`);
  }
  const stats = await world.sim('/_sim/stats');
  assert.equal(stats.duplicate_sends, 0, 'a row was sent twice');
  const cancelled = [...byId.values()].filter((i) => ids.includes(i.send_wizard_id)).reduce((sum, i) => sum + i.cancelled_count, 0);
  assert.ok(cancelled > 0, 'the stops cancelled rows (they landed while the sends were running)');
  console.log(`# lock order: ${ROWS} rows, ${STOPS + 1} stops (${stops.map((s) => s.status).join(',')}), ${cancelled} rows cancelled, ${errorLines.length} error lines`);
});
