import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_ACCESS_TOKEN, SIM_CHANNEL_IDS, SIM_WABA_ID } from '../../src/network/simulator/constants.js';
import { freePort, serviceDatabase, startTms, tmsJson, waitForHttp, type Proc } from '../support/processes.js';
import { sendableComponents, sendParams } from '../support/sending.js';

const SECRET = 'crash-test-secret';
const TOKEN = 'crash-test-demo-token-0123456789';
let simulator: Proc;
let simRoot: string;
let servicePort: number;
let baseEnv: Record<string, string>;
let database: Awaited<ReturnType<typeof serviceDatabase>>;
const running: Proc[] = [];

before(async () => {
  database = await serviceDatabase();
  servicePort = await freePort();
  const simPort = await freePort();
  simulator = startTms(['simulator', '--port', String(simPort), '--webhook-url', `http://127.0.0.1:${servicePort}/webhooks/whatsapp`, '--app-secret', SECRET, '--approval-delay-ms', '50'], {});
  simRoot = `http://127.0.0.1:${simPort}`;
  await waitForHttp(`${simRoot}/_sim/stats`, simulator);
  baseEnv = {
    ...database.env,
    NETWORK: 'cloud',
    GRAPH_API_URL: `${simRoot}/v23.0`,
    APP_SECRET: SECRET,
    WEBHOOK_VERIFY_TOKEN: 'crash-verify',
    PORT: String(servicePort),
    TMS_DEMO_TOKEN: TOKEN,
    LOG_LEVEL: 'warn',
  };
});

after(async () => {
  for (const proc of running) await proc.kill();
  await simulator?.kill('SIGTERM');
  await database?.cleanup();
});

async function startService(extra: Record<string, string> = {}): Promise<Proc> {
  const proc = startTms(['serve'], { ...baseEnv, ...extra });
  running.push(proc);
  await waitForHttp(`http://127.0.0.1:${servicePort}/health`, proc);
  return proc;
}

async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${servicePort}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as any }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

async function until<T>(check: () => Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 200));
  }
}

test('kill -9 between the network call and its commit: the customer gets exactly one message, the record is reconciled', async () => {
  // The demo company exists once the service has started; add the simulator's main channel to it.
  let service = await startService();
  await service.kill('SIGTERM');
  const company = '64656d6f0000000000000001';
  await tmsJson(['channel', 'add', '--company', company, '--phone-number-id', SIM_CHANNEL_IDS.main, '--waba-id', SIM_WABA_ID, '--access-token', SIM_ACCESS_TOKEN], baseEnv);

  service = await startService();
  const created = await api('POST', '/agent-app/message-template/template', {
    name: `crash_${Date.now()}`, category: 'MARKETING', language: 'en_US', components: sendableComponents(), channel_id: SIM_CHANNEL_IDS.main,
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  await until(async () => {
    const got = await api('GET', `/agent-app/message-template/template/get-by-id?template_id=${created.body.data.id}&channel_id=${SIM_CHANNEL_IDS.main}`);
    return got.body.data?.message_template.status === 'APPROVED';
  }, 20_000);
  await service.kill('SIGTERM');

  // This run dies by SIGKILL right after the network accepts the message, before anything is stored.
  service = await startService({ TMS_FAULT_CRASH_AFTER_SEND: '1' });
  const sent = await api('POST', '/agent-app/message-template/single-messagev2', {
    channel_id: SIM_CHANNEL_IDS.main, phone_number: '905556600011', message_template_id: created.body.data.id, message_template: sendParams(),
  });
  assert.equal(sent.status, 200, JSON.stringify(sent.body));
  const exit = await service.exited;
  assert.equal(exit.signal, 'SIGKILL', service.output());

  // Restart normally: the simulator's retried status webhooks reconcile the message; nothing is resent.
  service = await startService();
  const id = sent.body.data.message_id;
  const record = await until(async () => {
    const res = await api('POST', '/api/v1/messages', { message_ids: [id] });
    const item = res.body.items?.[0];
    return item && ['BACKEND_DELIVERED', 'BACKEND_SENT', 'BACKEND_SEEN'].includes(item.status) ? item : undefined;
  }, 60_000);
  const received = (await (await fetch(`${simRoot}/_sim/received?to=%2B905556600011`)).json()) as { messages: Array<{ wamid: string }> };
  assert.equal(received.messages.length, 1);
  assert.equal(record.ext_id, received.messages[0].wamid);
  const stats = (await (await fetch(`${simRoot}/_sim/stats`)).json()) as { duplicate_sends: number };
  assert.equal(stats.duplicate_sends, 0);
  await service.kill('SIGTERM');
});
