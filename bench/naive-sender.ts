/**
 * The baseline the service is measured against: a bulk sender as a competent engineer would write it on a job queue
 * (graphile-worker), with none of the service's design — one job per message, every status stored on its message's
 * row as it arrives. One process: an HTTP server (a list in, signed status webhooks in, progress out) and the
 * graphile-worker runner in the same process, on its own PostgreSQL database, talking to the same simulator as the
 * service (Graph API over loopback).
 *
 * - `POST /bulk {channel_id, template: {name, language}, rows: [{phone, params, button}]}`: the messages and their
 *   jobs are inserted in one transaction, 1,000 rows a statement (`graphile_worker.add_jobs`).
 * - task `send {id}`: reads the message, POSTs it to `/<channel>/messages` (biz_opaque_callback_data = our id), stores
 *   the wamid; a 4xx refusal ends the message `failed`, anything else throws (graphile-worker retries).
 * - `POST /webhooks`: the signature is checked on the raw body, then each status updates its row by our id (echoed
 *   as biz_opaque_callback_data), one statement per status in one transaction per body; a status never moves the
 *   row back (sent < delivered < read).
 * - `GET /progress`: counts by status.
 *
 * Throughput settings are graphile-worker's documented ones for many small jobs: `concurrentJobs` (default 64),
 * a local queue of `concurrentJobs + 1` and batched completion. No pacing (the benches run it caps off).
 *
 * `npx tsx bench/naive-sender.ts --port P --database-url URL --graph-url http://…/v23.0 --app-secret S --token T`
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { run, type Runner } from 'graphile-worker';
import pg from 'pg';
import { Agent, request } from 'undici';
import { isValidWebhookSignature } from '../src/domain/webhook-signature.js';

const arg = (name: string, fallback?: string) => {
  const i = process.argv.indexOf(name);
  if (i >= 0) return process.argv[i + 1];
  if (fallback === undefined) throw new Error(`${name} is required`);
  return fallback;
};
const PORT = Number(arg('--port'));
const DATABASE_URL = arg('--database-url');
const GRAPH_URL = arg('--graph-url');
const APP_SECRET = arg('--app-secret');
const TOKEN = arg('--token');
const CONCURRENCY = Number(arg('--concurrency', '64'));

const pool = new pg.Pool({ connectionString: DATABASE_URL, max: 16 });
const graph = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 10_000 });
const RANK: Record<string, number> = { queued: 0, sent_to_backend: 1, sent: 2, delivered: 3, read: 4, failed: 5 };

async function schema(): Promise<void> {
  await pool.query(`
    create table if not exists naive_messages (
      id bigserial primary key,
      channel_id text not null,
      phone text not null,
      payload jsonb not null,
      status text not null default 'queued',
      status_rank smallint not null default 0,
      wamid text unique,
      backend_sent_at timestamptz, sent_at timestamptz, delivered_at timestamptz, read_at timestamptz, failed_at timestamptz,
      error jsonb,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
}

interface BulkBody {
  channel_id: string;
  template: { name: string; language: string };
  rows: Array<{ phone: string; params: string[]; button: string }>;
}

/** Stores a list and one job per message, all in one transaction. */
async function storeList(body: BulkBody): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (let i = 0; i < body.rows.length; i += 1000) {
      const chunk = body.rows.slice(i, i + 1000);
      const payloads = chunk.map((r) => JSON.stringify({
        messaging_product: 'whatsapp', recipient_type: 'individual', to: r.phone, type: 'template',
        template: {
          name: body.template.name, language: { code: body.template.language },
          components: [
            { type: 'body', parameters: r.params.map((text) => ({ type: 'text', text })) },
            { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: r.button }] },
          ],
        },
      }));
      await client.query(`
        with inserted as (
          insert into naive_messages (channel_id, phone, payload)
          select $1, phone, payload::jsonb from unnest($2::text[], $3::text[]) as r(phone, payload)
          returning id)
        select graphile_worker.add_jobs(array(
          select json_populate_record(null::graphile_worker.job_spec, json_build_object('identifier', 'send', 'payload', json_build_object('id', id)))
          from inserted))`, [body.channel_id, chunk.map((r) => r.phone), payloads]);
    }
    await client.query('commit');
    return body.rows.length;
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

/** The `send` task: one message to the network. */
async function send(payload: unknown): Promise<void> {
  const { id } = payload as { id: number };
  const { rows } = await pool.query<{ channel_id: string; payload: Record<string, unknown> }>(
    'select channel_id, payload from naive_messages where id = $1', [id]);
  if (!rows[0]) return;
  const res = await request(`${GRAPH_URL}/${rows[0].channel_id}/messages`, {
    method: 'POST', dispatcher: graph,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...rows[0].payload, biz_opaque_callback_data: String(id) }),
  });
  const answer = (await res.body.json()) as { messages?: Array<{ id: string }>; error?: unknown };
  if (res.statusCode === 200 && answer.messages?.[0]) {
    await pool.query(`
      update naive_messages set wamid = $2, backend_sent_at = now(), updated_at = now(),
        status = case when status_rank < 1 then 'sent_to_backend' else status end, status_rank = greatest(status_rank, 1)
      where id = $1`, [id, answer.messages[0].id]);
    return;
  }
  if (res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 429) {
    await pool.query(`update naive_messages set status = 'failed', status_rank = 5, failed_at = now(), error = $2, updated_at = now() where id = $1`, [id, JSON.stringify(answer)]);
    return;
  }
  throw new Error(`graph ${res.statusCode}`);
}

const TIME_COLUMN: Record<string, string> = { sent: 'sent_at', delivered: 'delivered_at', read: 'read_at', failed: 'failed_at' };

/** A signed status webhook: each status updates its message's row, one statement each, one transaction per body. */
async function applyWebhook(raw: Buffer): Promise<void> {
  const body = JSON.parse(raw.toString('utf8')) as { entry?: Array<{ changes?: Array<{ value?: { statuses?: Array<Record<string, any>> } }> }> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const statuses = (body.entry ?? []).flatMap((e) => (e.changes ?? []).flatMap((c) => c.value?.statuses ?? []));
  if (statuses.length === 0) return;
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const s of statuses) {
      const column = TIME_COLUMN[s.status];
      if (!column || !s.biz_opaque_callback_data) continue;
      const rank = RANK[s.status];
      await client.query(`
        update naive_messages set ${column} = coalesce(${column}, to_timestamp($2::bigint)),
          status = case when status_rank < $3 then $4 else status end, status_rank = greatest(status_rank, $3),
          wamid = coalesce(wamid, $5), error = coalesce($6::jsonb, error), updated_at = now()
        where id = $1`, [Number(s.biz_opaque_callback_data), s.timestamp, rank, s.status, s.id, s.errors ? JSON.stringify(s.errors) : null]);
    }
    await client.query('commit');
  } catch (error) {
    await client.query('rollback');
    throw error;
  } finally {
    client.release();
  }
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

function answer(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function main(): Promise<void> {
  await schema();
  const runner: Runner = await run({
    connectionString: DATABASE_URL,
    concurrency: CONCURRENCY,
    maxPoolSize: 16,
    noHandleSignals: true,
    pollInterval: 1000,
    preset: { worker: { localQueue: { size: CONCURRENCY + 1 }, completeJobBatchDelay: 0, failJobBatchDelay: 0 } },
    taskList: { send: async (payload) => send(payload) },
  });
  const server = createServer((req, res) => {
    void (async () => {
      try {
        if (req.method === 'POST' && req.url === '/bulk') {
          answer(res, 200, { stored: await storeList(JSON.parse((await readBody(req)).toString('utf8')) as BulkBody) });
        } else if (req.method === 'POST' && req.url === '/webhooks') {
          const raw = await readBody(req);
          if (!isValidWebhookSignature(raw, req.headers['x-hub-signature-256'] as string | undefined, APP_SECRET)) return answer(res, 401, {});
          await applyWebhook(raw);
          answer(res, 200, {});
        } else if (req.method === 'GET' && req.url === '/progress') {
          const { rows } = await pool.query<{ status: string; n: number }>('select status, count(*)::int as n from naive_messages group by status');
          answer(res, 200, Object.fromEntries(rows.map((r) => [r.status, r.n])));
        } else if (req.url === '/health') {
          answer(res, 200, { ok: true });
        } else {
          answer(res, 404, {});
        }
      } catch (error) {
        answer(res, 500, { error: String(error) });
      }
    })();
  });
  server.listen(PORT, '127.0.0.1');
  const stop = () => {
    server.close();
    void runner.stop().finally(() => pool.end());
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
