/**
 * The service as a new user runs it against Meta: `tms serve` with NETWORK=cloud and the cloud settings, talking to
 * the standalone simulator in its default (Graph-faithful) mode, each its own process on loopback. Every test is a
 * path a business takes; the last one checks, from the simulator's request log, that nothing called a path the
 * Graph API does not have.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEMO_COMPANY_ID } from '../../src/admin.js';
import { SIM_ACCESS_TOKEN, SIM_APP_ID, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { freePort, serviceApi, serviceDatabase, simulatorApi, startTms, TEST_NODE_ARGS, tmsJson, waitForHttp, type Proc } from '../support/processes.js';
import { sendableComponents, sendParams } from '../support/sending.js';
import { until } from '../support/crash-world.js';
import { listenerThatNeverAccepts } from '../support/blackhole.js';

const SECRET = 'cloud-mode-app-secret';
const TOKEN = 'cloud-mode-demo-token-0123456789';
const SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
const A = '/agent-app/message-template';
const MAIN = SIM_CHANNEL_IDS.main;
const FINAL = ['BACKEND_SEEN', 'BACKEND_SENT', 'BACKEND_DELIVERED', 'BACKEND_FAILED', 'SENT_TO_BACKEND_FAILED', 'OPT_IN_FAILED', 'OPT_IN_FAILED_INVALID_NUMBER', 'CANCELLED'];

let simulator: Proc;
let service: Proc | undefined;
let env: Record<string, string>;
let cleanupDb: () => Promise<void>;
let templateId: string;
let sim: ReturnType<typeof simulatorApi>;
let api: ReturnType<typeof serviceApi>;
let servicePort: number;

async function startService(extra: Record<string, string> = {}): Promise<void> {
  service = startTms(['serve'], { ...env, ...extra }, [...TEST_NODE_ARGS]);
  await waitForHttp(`http://127.0.0.1:${servicePort}/health`, service);
}

async function stopService(): Promise<void> {
  await service?.kill('SIGTERM');
  service = undefined;
}

/** Runs `tms` to completion with text on stdin; returns exit code and output. */
async function tmsWithStdin(args: string[], stdin: string, extraEnv: Record<string, string> = {}) {
  const { spawn } = await import('node:child_process');
  const bin = new URL('../../bin/tms.mjs', import.meta.url).pathname;
  const child = spawn(process.execPath, [...TEST_NODE_ARGS, bin, ...args], { env: { ...process.env, ...env, ...extraEnv }, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  child.stdin.end(stdin);
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  return { code, out };
}

async function record(id: string) {
  const res = await api('POST', '/api/v1/messages', { message_ids: [id] });
  return res.body.items?.[0] as Record<string, any> | undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function wizard(id: string) {
  const res = await api('POST', `${A}/send-wizard/reports`, { page: 1, page_size: 100, channel_id: MAIN });
  return (res.body.items as Array<Record<string, any>>).find((i) => i.send_wizard_id === id); // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function untilWizard(id: string, statuses: string[], timeoutMs = 60_000) {
  let last: unknown;
  try {
    return await until(async () => {
      const item = await wizard(id);
      last = item;
      return item && statuses.includes(item.status) ? item : undefined;
    }, timeoutMs, `bulk send ${id} ${statuses.join('/')}`);
  } catch (error) {
    // Say where it stood and what the service logged, so a failure in CI can be read.
    throw new Error(`${(error as Error).message}; last list item ${JSON.stringify(last)}\nservice log:\n${service?.output().slice(-4000) ?? ''}`);
  }
}

async function received(to: string) {
  return (await sim(`/_sim/received?to=${encodeURIComponent(to)}`)).messages as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

before(async () => {
  const database = await serviceDatabase(undefined, { migrated: true });
  cleanupDb = database.cleanup;
  servicePort = await freePort();
  const simPort = await freePort();
  // The simulator exactly as `tms simulator` starts it: no rehearsal-only knobs.
  simulator = startTms(
    ['simulator', '--port', String(simPort), '--webhook-url', `http://127.0.0.1:${servicePort}/webhooks/whatsapp`, '--app-secret', SECRET, '--approval-delay-ms', '50'],
    {},
  );
  const simRoot = `http://127.0.0.1:${simPort}`;
  await waitForHttp(`${simRoot}/_sim/stats`, simulator);
  sim = simulatorApi(simRoot);
  env = {
    ...database.env,
    NETWORK: 'cloud',
    GRAPH_API_URL: `${simRoot}/v23.0`,
    META_APP_ID: SIM_APP_ID,
    APP_SECRET: SECRET,
    WEBHOOK_VERIFY_TOKEN: 'cloud-mode-verify',
    TMS_SECRET_KEY: SECRET_KEY,
    PORT: String(servicePort),
    TMS_DEMO_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
  };
  api = serviceApi(TOKEN, () => servicePort);
  // As the README says: start once (creates the demo company), stop, add the channel, start.
  await startService();
  await stopService();
  await tmsJson(['channel', 'add', '--company', DEMO_COMPANY_ID, '--phone-number-id', MAIN, '--waba-id', SIM_WABA_ID, '--access-token', SIM_ACCESS_TOKEN], env);
  await startService();
  const created = await api('POST', `${A}/template`, {
    name: `cloud_${Date.now()}`, category: 'MARKETING', language: 'en_US', components: sendableComponents(), channel_id: MAIN,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  templateId = created.body.data.id;
  await until(async () => {
    const got = await api('GET', `${A}/template/get-by-id?template_id=${templateId}&channel_id=${MAIN}`);
    return got.body.data?.message_template.status === 'APPROVED';
  }, 20_000, 'template approval');
});

after(async () => {
  await stopService();
  await simulator?.kill('SIGTERM');
  await cleanupDb?.();
});

test('cloud mode: a single send reaches the phone and its record follows the status webhooks', async () => {
  const sent = await api('POST', `${A}/single-messagev2`, { channel_id: MAIN, phone_number: '905551100013', message_template_id: templateId, message_template: sendParams() });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const done = await until(async () => {
    const r = await record(sent.body.data.message_id);
    return r?.status === 'BACKEND_SEEN' ? r : undefined;
  }, 30_000, 'single send seen');
  const phone = await received('+905551100013');
  assert.equal(phone.length, 1);
  assert.equal(done.ext_id, phone[0].wamid);
});

test('cloud mode: a bulk send (start) completes with every row delivered once', async () => {
  const phones = Array.from({ length: 20 }, (_, i) => `9055522${String(i * 10 + 13).padStart(5, '0')}`);
  const rows = phones.map((p, i) => ({ id: i + 1, phone_number: p, full_name: `C${i}`, params: [`N${i}`, `K${i}`], url_button_param: `u${i}` }));
  const res = await api('POST', `${A}/send-wizard/start`, { message_template_id: templateId, rows, total_time: 0, channel_id: MAIN });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const item = await untilWizard(res.body.data.send_wizard_id, ['COMPLETED']);
  assert.equal(item.failed_count, 0);
  for (const p of phones.slice(0, 3)) assert.equal((await received(`+${p}`)).length, 1);
  assert.equal((await sim('/_sim/stats')).duplicate_sends, 0);
});

test('cloud mode: startv2 with BODY and BUTTONS columns completes', async () => {
  const headers = ['ROW', 'PHONE', 'BODY.1', 'BODY.2', 'BUTTONS.0'];
  const rows = [[1, '905553300013', 'Ayse', 'A-1', 'track-1'], [2, '905553300023', 'Mehmet', 'A-2', 'track-2']];
  const res = await api('POST', `${A}/send-wizard/startv2`, { message_template_id: templateId, rows, total_time: 0, channel_id: MAIN, param_headers: headers });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(res.body.data.send_wizard_id, ['COMPLETED']);
  const [got] = await received('+905553300013');
  assert.deepEqual(got.components.find((c: { type: string }) => c.type === 'body').parameters, [{ type: 'text', text: 'Ayse' }, { type: 'text', text: 'A-1' }]);
});

test('cloud mode: a {{first_name}} template is created NAMED and sent with parameter_name', async () => {
  const created = await api('POST', `${A}/template`, {
    name: `cloud_named_${Date.now()}`, category: 'MARKETING', language: 'en_US', channel_id: MAIN,
    components: [{ type: 'BODY', text: 'Hi {{first_name}}, order {{order_id}} ships today.', example: { body_text: [['Pablo', '86019']] } }],
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  const id = created.body.data.id;
  await until(async () => (await api('GET', `${A}/template/get-by-id?template_id=${id}&channel_id=${MAIN}`)).body.data?.message_template.status === 'APPROVED', 20_000, 'named approval');
  const rows = [{ id: 1, phone_number: '905556600013', params: ['Ayse', 'A-77'] }];
  const res = await api('POST', `${A}/send-wizard/start`, { message_template_id: id, rows, total_time: 0, channel_id: MAIN });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(res.body.data.send_wizard_id, ['COMPLETED']);
  const [got] = await received('+905556600013');
  assert.deepEqual(got.components, [{ type: 'body', parameters: [
    { type: 'text', parameter_name: 'first_name', text: 'Ayse' }, { type: 'text', parameter_name: 'order_id', text: 'A-77' },
  ] }]);
});

test('cloud mode: Meta\'s hello_world, made in the WABA outside the service, is listed and can be sent', async () => {
  await sim('/_sim/waba-templates/hello_world', {});
  const listed = await until(async () => {
    const res = await api('GET', `/api/v1/message-templates?channel_id=${MAIN}`);
    return (res.body.items as Array<{ id: string; name: string; status: string }> | undefined)?.find((t) => t.name === 'hello_world');
  }, 30_000, 'hello_world listed');
  assert.equal(listed.status, 'APPROVED');
  const taken = await api('POST', '/api/v1/message-templates/check-name', { channel_id: MAIN, name: 'hello_world' });
  assert.equal(taken.status, 409, JSON.stringify(taken.body));
  const sent = await api('POST', `${A}/single-messagev2`, { channel_id: MAIN, phone_number: '905557700013', message_template_id: listed.id, message_template: [] });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  await until(async () => (await record(sent.body.data.message_id))?.status === 'BACKEND_SEEN', 30_000, 'hello_world seen');
  const [got] = await received('+905557700013');
  assert.equal(got.template.name, 'hello_world');
});

test('cloud mode: an invalid number fails by the network\'s own 131026 status, not by a contacts call', async () => {
  const sent = await api('POST', `${A}/single-messagev2`, { channel_id: MAIN, phone_number: '905554400000', message_template_id: templateId, message_template: sendParams() });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const failed = await until(async () => {
    const r = await record(sent.body.data.message_id);
    return r && FINAL.includes(r.status) ? r : undefined;
  }, 30_000, 'invalid number final');
  assert.equal(failed.status, 'BACKEND_FAILED');
  assert.match(String(failed.error_message_detail), /131026/);
});

test('cloud mode: the channel shows the tier from whatsapp_business_manager_messaging_limit', async () => {
  const res = await api('GET', `/api/v1/message-templates/waba-status?channel_id=${MAIN}`);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const node = await (await fetch(`${env.GRAPH_API_URL}/${MAIN}?fields=whatsapp_business_manager_messaging_limit,messaging_limit_tier`, {
    headers: { authorization: `Bearer ${SIM_ACCESS_TOKEN}` },
  })).json() as Record<string, unknown>;
  assert.equal(node.messaging_limit_tier, undefined, 'the main number answers only the current field');
  assert.equal(typeof node.whatsapp_business_manager_messaging_limit, 'string');
  assert.notEqual(res.body.data.messaging_limit_tier, null);
  assert.notEqual(res.body.data.messaging_limit_tier, 'UNKNOWN');
  assert.match(res.body.data.messaging_limit_tier, /UNLIMITED/);
});

/** A CSV start-file request (multipart) to the service. */
async function startCsv(csv: string, fields: Record<string, string>) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([csv], { type: 'text/csv' }), 'customers.csv');
  const res = await fetch(`http://127.0.0.1:${servicePort}${A}/send-wizard/start-file`, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` }, body: form });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** Customers known by BSUID only (from the network) and by phone number, as one CSV with a user_id column. */
async function bsuidCsv(): Promise<{ csv: string; userIds: string[]; phones: string[] }> {
  const userIds = [];
  for (const p of ['5491155560013', '5491155560023', '905551160013']) userIds.push((await sim(`/_sim/users/${p}`)).user_id as string);
  const phones = ['5491155560033', '905551160023'];
  const lines = ['phone_number,user_id,full_name,BODY.1,BODY.2,url_button_param'];
  userIds.forEach((u, i) => lines.push(`,${u},B${i},N${i},K${i},u${i}`));
  phones.forEach((p, i) => lines.push(`${p},,P${i},N${i},K${i},v${i}`));
  return { csv: lines.join('\n') + '\n', userIds, phones };
}

test('cloud mode: a CSV with a user_id column is delivered end to end; BSUID rows go to Graph as recipient', async () => {
  const { csv, userIds } = await bsuidCsv();
  const res = await startCsv(csv, { message_template_id: templateId, channel_id: MAIN, total_time: '0' });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 5);
  const item = await untilWizard(res.body.data.send_wizard_id, ['COMPLETED']);
  assert.equal(item.failed_count, 0);
  const detail = await api('POST', `${A}/send-wizard/reports/detail`, { id: res.body.data.send_wizard_id, data: { page: 1, page_size: 10 } });
  const rows = detail.body.data.report_details as Array<Record<string, any>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.deepEqual(rows.slice(0, 3).map((r) => [r.phone_number, r.user_id]), userIds.map((u) => [null, u]));
  assert.ok(rows.every((r) => ['BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_DELIVERED'].includes(r.status)), JSON.stringify(rows.map((r) => r.status)));
  const got = await received('+5491155560013');
  assert.equal(got.length, 1);
  assert.equal(got[0].recipient, userIds[0]);
});

test('cloud mode: the dry-run estimate of a list of phone numbers and BSUIDs equals its cost after delivery', async () => {
  const card = { currency: 'USD', effective_date: '2026-10-01', rates: [{ market: 'AR', category: 'marketing', price: 0.0618 }, { market: 'TR', category: 'marketing', price: 0.0109 }] };
  assert.equal((await api('PUT', '/api/v1/rate-card', card)).status, 200);
  const { csv } = await bsuidCsv();
  const fields = { message_template_id: templateId, channel_id: MAIN, total_time: '0' };
  const dry = await startCsv(csv, { ...fields, dry_run: 'true' });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  const estimate = dry.body.data.estimate;
  assert.deepEqual(estimate.by_market.map((m: { market: string; billable_count: number }) => [m.market, m.billable_count]), [['AR', 3], ['TR', 2]]);
  assert.equal(estimate.estimated_cost, 0.2072);
  const started = await startCsv(csv, fields);
  assert.equal(started.status, 200, JSON.stringify(started.body));
  const item = await until(async () => {
    const it = await wizard(started.body.data.send_wizard_id);
    return it?.cost.billable_count === 5 ? it : undefined;
  }, 60_000, 'every row billed');
  for (const key of ['currency', 'estimated_cost', 'billable_count', 'unknown_price_count', 'by_market']) assert.deepEqual(item.cost[key], estimate[key], key);
});

test('cloud mode: an expired access token pauses the bulk send without failing rows; `tms channel update` rotates it and the send completes', async () => {
  const phones = Array.from({ length: 30 }, (_, i) => `9055588${String(i * 10 + 13).padStart(5, '0')}`);
  const rows = phones.map((p, i) => ({ id: i + 1, phone_number: p, params: [`N${i}`, `K${i}`], url_button_param: `u${i}` }));
  // Spread over 15 s so the token expires while rows are still waiting.
  const res = await api('POST', `${A}/send-wizard/start`, { message_template_id: templateId, rows, total_time: 15, channel_id: MAIN });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.send_wizard_id;
  await until(async () => ((await wizard(id))?.processed_count ?? 0) > 0, 20_000, 'sending started');
  await sim('/_sim/tokens', { expire: SIM_ACCESS_TOKEN });
  const paused = await untilWizard(id, ['PAUSED']);
  assert.match(String(paused.paused_reason), /190/);
  assert.equal(paused.failed_count, 0);

  const rotated = `rotated-${Date.now()}-token`;
  await sim('/_sim/tokens', { add: rotated });
  const onPostgres = 'DATABASE_URL' in env;
  if (!onPostgres) await stopService(); // PGlite is one process's database: admin commands run while the service is stopped
  const update = await tmsWithStdin(['channel', 'update', '--company', DEMO_COMPANY_ID, '--phone-number-id', MAIN, '--access-token-stdin'], rotated + '\n');
  assert.equal(update.code, 0, update.out);
  assert.ok(!update.out.includes(rotated), 'the token is never printed');
  if (!onPostgres) await startService();

  const done = await untilWizard(id, ['COMPLETED'], 90_000);
  assert.equal(done.failed_count, 0);
  for (const p of phones) assert.equal((await received(`+${p}`)).length, 1, p);
  assert.equal((await sim('/_sim/stats')).duplicate_sends, 0);
});

test('cloud mode: a send whose connection to Graph timed out (request never written) is retried and reaches the phone once', async () => {
  const blackhole = await listenerThatNeverAccepts();
  let id = '';
  // The channel has been read once (the last known health answers while the network is unreachable).
  assert.equal((await api('GET', `/api/v1/message-templates/waba-status?channel_id=${MAIN}`)).status, 200);
  try {
    await stopService();
    await startService({ GRAPH_API_URL: `http://127.0.0.1:${blackhole.port}/v23.0` });
    const sent = await api('POST', `${A}/single-messagev2`, { channel_id: MAIN, phone_number: '905559900013', message_template_id: templateId, message_template: sendParams() });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    id = sent.body.data.message_id;
    // Claimed, checked, tried, and put back to wait for its retry: never failed, never in doubt.
    const waiting = await until(async () => {
      const r = await record(id);
      return r && r.status === 'QUEUED' && r.__v >= 3 ? r : undefined;
    }, 60_000, 'connect timeout put the message back');
    assert.equal(waiting.error_message ?? null, null);
  } finally {
    await stopService();
    blackhole.close();
  }
  await startService();
  const phone = await until(async () => {
    const got = await received('+905559900013');
    return got.length ? got : undefined;
  }, 60_000, 'retried send reached the phone');
  assert.equal(phone.length, 1);
  const seen = await until(async () => {
    const r = await record(id);
    return r?.status === 'BACKEND_SEEN' ? r : undefined;
  }, 30_000, 'retried send seen');
  assert.equal(seen.ext_id, phone[0].wamid);
});

test('cloud mode: nothing the service sent hit a path the Graph API does not have', async () => {
  const log = await sim('/_sim/requests');
  assert.ok(log.total > 0, 'the simulator logged the service\'s calls');
  assert.equal(log.unknown_paths, 0, JSON.stringify(log.items.filter((i: { unknown_path: boolean }) => i.unknown_path)));
  assert.equal(log.items.filter((i: { path: string }) => i.path.includes('/contacts')).length, 0);
});
