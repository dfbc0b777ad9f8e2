/** Measuring helpers for the bench: streamed start bodies, polling, latency percentiles, machine facts. */
import { cpus, totalmem } from 'node:os';
import { Readable } from 'node:stream';
import { Agent, request } from 'undici';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { sendParams } from '../../test/support/sending.js';
import { BENCH_TOKEN, type World } from './world.js';

const A = '/agent-app/message-template/send-wizard';

/** The v1 start body for `n` unique numbers, generated as a stream (a 1,000,000-row body is never held in memory). */
export function startBody(templateId: string, channelId: string, n: number, prefix: number, totalTime = 0): Readable {
  async function* chunks() {
    yield `{"message_template_id":"${templateId}","channel_id":"${channelId}","total_time":${totalTime},"rows":[`;
    const batch: string[] = [];
    for (let i = 0; i < n; i += 1) {
      const phone = `${prefix}${String(i * 10 + 13).padStart(8, '0')}`;
      batch.push(`${i ? ',' : ''}{"id":${i + 1},"phone_number":"${phone}","params":["N${i}","C${i}"],"url_button_param":"p${i}"}`);
      if (batch.length === 2000) yield batch.splice(0).join('');
    }
    yield batch.join('') + ']}';
  }
  return Readable.from(chunks());
}

/** Starts a bulk send with a streamed body; returns its id and how long the start took (ms). */
export async function startBulk(world: World, channelId: string, n: number, prefix: number, totalTime = 0, port = world.ports[0]) {
  const t0 = performance.now();
  const res = await request(`http://127.0.0.1:${port}${A}/start`, {
    method: 'POST',
    headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
    body: startBody(world.templateId, channelId, n, prefix, totalTime),
    headersTimeout: 30 * 60_000,
    bodyTimeout: 30 * 60_000,
  });
  const body = (await res.body.json()) as { data?: { send_wizard_id: string } };
  if (res.statusCode !== 200 || !body.data) throw new Error(`start failed: ${res.statusCode} ${JSON.stringify(body)}`);
  return { id: body.data.send_wizard_id, acceptMs: performance.now() - t0, startedAt: t0 };
}

/** The list item of a bulk send. */
export async function wizardItem(world: World, id: string, channelId = SIM_CHANNEL_IDS.main) {
  const res = await world.api('POST', `${A}/reports`, { page: 1, page_size: 50, channel_id: channelId });
  return res.body.items.find((i: { send_wizard_id: string }) => i.send_wizard_id === id);
}

/** Polls `check` every `everyMs` until truthy or `timeoutMs`; returns performance.now() at success. */
export async function waitUntil(check: () => Promise<boolean>, timeoutMs: number, everyMs = 100): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check()) return performance.now();
    if (Date.now() > deadline) throw new Error('bench: condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Waits until a bulk send has settled: every one of its `total` rows counted seen (the report's `seen_count`: the
 * bench's numbers all end at `read`), the simulator has nothing scheduled and no webhook body waiting or in flight
 * (`/_sim/stats`), and the first service holds no received body not yet applied (`/health`). Polls every 100 ms;
 * past `timeoutMs` it throws with what was still outstanding.
 */
export async function waitForSettledSend(world: World, id: string, total: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const seen = (await wizardItem(world, id))?.seen_count ?? 0;
    const sim = (await world.sim('/_sim/stats')) as { scheduled_events: number; webhooks_pending: number };
    const health = (await (await fetch(`http://127.0.0.1:${world.ports[0]}/health`)).json()) as { webhook_events: Record<string, number> };
    const received = health.webhook_events.RECEIVED ?? 0;
    if (seen === total && sim.scheduled_events === 0 && sim.webhooks_pending === 0 && received === 0) return;
    if (Date.now() > deadline) {
      throw new Error(
        `bench: send ${id} not settled after ${timeoutMs / 1000} s: seen ${seen} of ${total}, simulator events scheduled ` +
          `${sim.scheduled_events}, webhook bodies pending ${sim.webhooks_pending}, service bodies received not applied ${received}`,
      );
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every report row of a bulk send (pages of 500). */
export async function allRows(world: World, id: string, total: number) {
  const rows: Array<Record<string, any>> = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  for (let page = 1; (page - 1) * 500 < total; page += 1) {
    const res = await world.api('POST', `${A}/reports/detail`, { data: { page, page_size: 500 }, id });
    rows.push(...res.body.data.report_details);
  }
  return rows;
}

/** The value at a percentile of sorted numbers. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `count` calls of `fn` with `concurrency` workers; returns per-call latencies (ms, sorted) and the total time. */
export async function load(count: number, concurrency: number, fn: (i: number) => Promise<void>) {
  const latencies: number[] = [];
  /** Per request index: when it started and ended, ms from the load's start (`startedAt`, epoch ms). */
  const spans: Array<{ start: number; end: number }> = new Array(count);
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const s = performance.now();
        await fn(i);
        const e = performance.now();
        latencies.push(e - s);
        spans[i] = { start: s - t0, end: e - t0 };
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), totalMs: performance.now() - t0, spans, startedAt: performance.timeOrigin + t0 };
}

/** Latencies (sorted) and the span (ms) of requests `from` … `to - 1` of a load: first start to last end. */
export function slice(spans: Array<{ start: number; end: number }>, from: number, to: number) {
  const part = spans.slice(from, to);
  const latencies = part.map((s) => s.end - s.start).sort((a, b) => a - b);
  const totalMs = Math.max(...part.map((s) => s.end)) - Math.min(...part.map((s) => s.start));
  return { latencies, totalMs };
}

/** What machine this is. */
export function machine(): string {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model.trim() ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${process.platform}`;
}

/**
 * `count` single sends (single-messagev2) to the world's first instance, `concurrency` in flight, from this process
 * (a separate process from the service): latencies (ms, sorted), the total time and this process's own CPU seconds.
 * With `warmup`, that many more requests run first in the same stream, and `warm` holds the figures of the
 * `count` requests after them; `latencies` and `totalMs` stay those of the first `count` requests.
 * The client is undici's `request` on a keep-alive pool of `concurrency` connections: the same requests as `fetch`
 * at a third of the client's CPU, which shares the machine's cores with the service.
 */
export async function singleSends(world: World, count: number, concurrency: number, prefix = '9057300', warmup = 0) {
  const agent = new Agent({ connections: concurrency, pipelining: 1 });
  const url = `http://127.0.0.1:${world.ports[0]}/agent-app/message-template/single-messagev2`;
  const headers = { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' };
  const cpu0 = process.cpuUsage();
  try {
    const result = await load(warmup + count, concurrency, async (i) => {
      const body = JSON.stringify({ channel_id: SIM_CHANNEL_IDS.main, phone_number: `${prefix}${String(i * 10 + 13).padStart(6, '0')}`, message_template_id: world.templateId, message_template: sendParams() });
      const res = await request(url, { method: 'POST', headers, body, dispatcher: agent });
      const text = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`single send ${res.statusCode} ${text}`);
    });
    const cpu = process.cpuUsage(cpu0);
    // Without a warm-up both are the whole load; with one, `cold` is its first `count` requests (what the load
    // measures with no warm-up) and `warm` the `count` after the first `warmup`, in the same stream.
    const cold = warmup ? slice(result.spans, 0, count) : result;
    const warm = warmup ? slice(result.spans, warmup, warmup + count) : result;
    return { latencies: cold.latencies, totalMs: cold.totalMs, warm, clientCpu: (cpu.user + cpu.system) / 1e6, spans: result.spans, startedAt: result.startedAt };
  } finally {
    await agent.close();
  }
}
