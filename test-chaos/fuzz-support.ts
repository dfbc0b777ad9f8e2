/**
 * Shared pieces of the reliability suite: run counts, the error-envelope check, a snapshot of what the
 * database holds, resources of company A for the suites to aim at, and hostile strings.
 */
import assert from 'node:assert/strict';
import { sql, type RawBuilder } from 'kysely';
import fc from 'fast-check';
import { ERROR_CATALOGUE } from '../src/errors.js';
import { SIM_CHANNEL_IDS, SIM_WABA_ID } from '../src/network/simulator/constants.js';
import { eventually, simAdmin, type Harness } from '../test/support/harness.js';
import { phones, untilWizard, v1Rows } from '../test/support/bulk.js';
import { approvedTemplate, sendParams, singleSend } from '../test/support/sending.js';

/** Runs per property: 25 in the short form CI runs, 200 in the full form (`TMS_CHAOS_FULL=1`); `TMS_CHAOS_RUNS` sets it. */
export const RUNS = Math.max(1, Number(process.env.TMS_CHAOS_RUNS ?? (process.env.TMS_CHAOS_FULL === '1' ? 200 : 25)));
/** A fixed seed to replay a failure (fast-check prints it), e.g. `TMS_CHAOS_SEED=-123456`. */
export const SEED = process.env.TMS_CHAOS_SEED === undefined ? undefined : Number(process.env.TMS_CHAOS_SEED);

/** fast-check parameters for one property. */
export function fcParams(numRuns = RUNS): fc.Parameters<unknown> {
  return { numRuns, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: false };
}

/** A response as `h.call` returns it. */
export interface Answer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Record<string, unknown>;
}

/** Shortens a value for an assertion message. */
export function show(value: unknown, max = 600): string {
  let text: string;
  try {
    text = typeof value === 'string' ? value : Buffer.isBuffer(value) ? `<${value.length} bytes>` : JSON.stringify(value);
  } catch {
    text = String(value);
  }
  if (text === undefined) return 'undefined';
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** A request that gets no answer in this time is a failure of its own (a hung request holds a connection). */
export const ANSWER_WITHIN_MS = 15_000;

/** Resolves with the answer, or fails naming the request when none comes in ANSWER_WITHIN_MS. */
export async function answered<T>(pending: Promise<T>, context: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer in ${ANSWER_WITHIN_MS} ms: ${context()}`)), ANSWER_WITHIN_MS);
  });
  try {
    return await Promise.race([pending, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Asserts a 4xx answer in the error envelope with catalogue codes; `statuses` narrows the allowed statuses. */
export function assertRefused(res: Answer, context: string, statuses?: number[]): void {
  const where = `${context}\n  → ${res.status} ${show(res.body)}`;
  assert.ok(res.status >= 400 && res.status < 500, `expected 4xx: ${where}`);
  if (statuses) assert.ok(statuses.includes(res.status), `expected one of ${statuses.join(', ')}: ${where}`);
  const b = res.body;
  assert.equal(typeof b, 'object', `body is not JSON: ${where}`);
  assert.ok(b !== null, `body is null: ${where}`);
  assert.equal(b.success, false, `success: ${where}`);
  assert.equal(typeof b.message, 'string', `message: ${where}`);
  assert.ok(b.message.length > 0, `empty message: ${where}`);
  assert.equal(b.status_code, res.status, `status_code: ${where}`);
  assert.equal(typeof b.trace_id, 'string', `trace_id: ${where}`);
  assert.ok(b.trace_id.length > 0, `empty trace_id: ${where}`);
  assert.ok(Array.isArray(b.errors) && b.errors.length > 0, `errors: ${where}`);
  for (const e of b.errors) {
    assert.ok(Object.hasOwn(ERROR_CATALOGUE, e.code), `code ${e.code} is not in the catalogue: ${where}`);
    assert.equal(typeof e.message, 'string', `errors[].message: ${where}`);
    if (e.field !== undefined) assert.equal(typeof e.field, 'string', `errors[].field: ${where}`);
  }
  const code = b.errors[0].code as keyof typeof ERROR_CATALOGUE;
  assert.equal(ERROR_CATALOGUE[code].status, res.status, `errors[0].code ${code} is a ${ERROR_CATALOGUE[code].status} code: ${where}`);
}

/**
 * What the database holds: the row count of every table of schema public (but the migrations' own and
 * webhook_events, which the webhook property checks itself), and the ids and states a failed request must
 * not touch.
 */
export async function snapshot(h: Harness): Promise<Record<string, unknown>> {
  const db = h.store.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = 'public' and table_type = 'BASE TABLE'
      and table_name not like 'tms_migrations%'
      -- Written by background work, not by a request: the webhook inbox, and the WABA sync's "last listed" marks.
      and table_name not in ('webhook_events', 'template_syncs')
    order by table_name`.execute(db);
  assert.ok(tables.rows.length >= 10, `expected the service's tables, got ${tables.rows.map((t) => t.table_name).join(', ')}`);
  const counts = await sql<Record<string, number>>`select ${sql.join(
    tables.rows.map((t) => sql`(select count(*)::int from ${sql.table(t.table_name)}) as ${sql.ref(t.table_name)}`),
  )}`.execute(db);
  const ids = async (query: RawBuilder<{ k: string }>) => (await query.execute(db)).rows.map((r) => r.k).sort();
  return {
    counts: counts.rows[0],
    messages: await ids(sql<{ k: string }>`select id as k from messages`),
    templates: await ids(sql<{ k: string }>`select id || ':' || status || ':' || (deleted_at is null)::text as k from templates`),
    send_wizards: await ids(sql<{ k: string }>`select id || ':' || status as k from send_wizards`),
    media_uploads: await ids(sql<{ k: string }>`select file_handle as k from media_uploads`),
    name_checks: await ids(sql<{ k: string }>`select company_id || ':' || channel_id || ':' || name as k from template_name_checks`),
  };
}

/** The number of stored webhook events. */
export async function webhookEventCount(h: Harness): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from webhook_events`.execute(h.store.db);
  return row.rows[0].n;
}

/** How many stored webhook events have exactly this body. */
export async function storedWebhookBodies(h: Harness, body: string): Promise<number> {
  if (body.includes('\u0000')) return 0; // text cannot hold NUL: such a body cannot have been stored
  const row = await sql<{ n: number }>`select count(*)::int as n from webhook_events where body = ${body}`.execute(h.store.db);
  return row.rows[0].n;
}

/** A minimal valid PNG-looking file (signature + padding), as the media route sniffs it. */
export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(512, 7)]);

/** One part of a multipart body. */
export interface Part {
  name: string;
  value: string | Buffer;
  filename?: string;
  type?: string;
}

/** Builds a multipart/form-data body. */
export function multipart(parts: Part[], boundary = `----tmschaos${Math.random().toString(16).slice(2)}`) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename === undefined ? '' : `; filename="${p.filename}"`;
    const type = p.type === undefined ? '' : `\r\nContent-Type: ${p.type}`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n`));
    chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads a file to `POST /api/v1/media` with a bearer token. */
export async function upload(h: Harness, parts: Part[], token: string | null, contentType?: string, payload?: Buffer | string): Promise<Answer> {
  const body = multipart(parts);
  const response = await answered(
    h.app.http.inject({
      method: 'POST',
      url: '/api/v1/media',
      headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), 'content-type': contentType ?? body.contentType },
      payload: payload ?? body.payload,
    }),
    () => `POST /api/v1/media ${contentType ?? ''} parts ${parts.map((p) => p.name).join(', ')}`,
  );
  let parsed: unknown = response.body;
  try {
    parsed = response.json();
  } catch {
    /* not JSON */
  }
  return { status: response.statusCode, body: parsed, headers: response.headers };
}

/** Company A's resources the suites aim at. */
export interface Seeded {
  channelId: string;
  templateId: string;
  /** A finished bulk send. */
  wizardId: string;
  /** A single-send message id and the bulk send's message ids. */
  messageIds: string[];
  fileHandle: string;
}

/**
 * Creates company A's resources and waits until background work on them has settled (the template is
 * APPROVED, the bulk send COMPLETED, every message handed to the network), so that the database only
 * changes when a request changes it.
 */
export async function seedCompanyA(h: Harness): Promise<Seeded> {
  const channelId = SIM_CHANNEL_IDS.main;
  const templateId = await approvedTemplate(h, channelId);
  const single = await singleSend(h, {
    channel_id: channelId,
    phone_number: '905550001113',
    message_template_id: templateId,
    full_name: 'Ayse',
    message_template: sendParams(),
  });
  assert.equal(single.status, 200, show(single.body));
  const start = await h.call('POST', '/agent-app/message-template/send-wizard/start', {
    body: { message_template_id: templateId, rows: v1Rows(phones(2, '9055500')), total_time: 0, channel_id: channelId },
  });
  assert.equal(start.status, 200, show(start.body));
  const wizardId = start.body.data.send_wizard_id as string;
  await untilWizard(h, channelId, wizardId, ['COMPLETED']);
  const up = await upload(h, [{ name: 'channel_id', value: channelId }, { name: 'file', value: PNG, filename: 'seed.png', type: 'image/png' }], h.a.token);
  assert.equal(up.status, 200, show(up.body));
  const messageIds = [single.body.data.message_id as string, ...(await h.store.db.selectFrom('messages').select('id').where('send_wizard_id', '=', wizardId).execute()).map((r) => r.id)];
  await settle(h);
  return { channelId, templateId, wizardId, messageIds, fileHandle: up.body.data.file_handle };
}

/**
 * Waits until the network has nothing more to say (no scheduled status event, no webhook in flight), every
 * received webhook is applied, no message that is due waits for the network and no status event waits for its
 * message.
 */
export async function settle(h: Harness): Promise<void> {
  await eventually(async () => {
    const stats = await simAdmin(h, '/_sim/stats');
    if (stats.scheduled_events !== 0 || stats.webhooks_pending !== 0) return false;
    // Company A's WABA has been listed in full once: the background sync's first pass (which brings templates made
    // through the service up to the network's form) is behind us, so later snapshots see only what requests did.
    const busy = await sql<{ n: number }>`
      select (select count(*)::int from messages where status in ('NONE', 'QUEUED', 'AGENDA', 'OPT_IN_SUCCESS') and due_at <= now())
           + (select count(*)::int from pending_status_events)
           + (select count(*)::int from webhook_events where state = 'RECEIVED')
           + (select case when exists (select 1 from template_syncs where company_id = ${h.a.companyId}
                                        and waba_id = ${SIM_WABA_ID} and synced_at is not null) then 0 else 1 end) as n`.execute(h.store.db);
    return busy.rows[0].n === 0;
  }, 20_000);
}

/** Strings that have broken services before: injections, path tricks, odd numbers, odd unicode. */
export const INJECTIONS = [
  "'; drop table messages; --",
  "' or '1'='1",
  '{"$gt":""}',
  '{"$where":"sleep(1000)"}',
  '../../etc/passwd',
  '..%2F..%2Fetc%2Fpasswd',
  '<script>alert(1)</script>',
  '${jndi:ldap://127.0.0.1/x}',
  '{{7*7}}',
  '%s%s%s%n',
  '\\',
  '"',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  '-1',
  '1e309',
  '[]',
  '{}',
  'true',
  ' ',
  '\r\nX-Injected: 1',
  '\u202egnp.exe',
  'שלום עולם',
  'مرحبا {{1}}',
  '١٢٣٤٥٦٧٨٩٠١٢',
  '９０５５５１２３４５６７',
  '🙂🙃🧨👩🏽‍🚀',
  'ǅ̸̡̢̛̛ͅ',
  '\u200b\u200d\ufeff',
  '\ud83d\ude00'.repeat(40),
] as const;

/** Control characters other than NUL (NUL has its own property). */
const control = fc.string({ unit: fc.integer({ min: 1, max: 31 }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 12 });

/** A hostile string of 1 to 100,000 characters. */
export function nastyString(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...INJECTIONS) },
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 }) },
    { weight: 2, arbitrary: control },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...INJECTIONS), fc.string({ unit: 'grapheme', maxLength: 8 }), control).map((p) => p.join('')) },
    { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,20}$/) },
    { weight: 1, arbitrary: fc.stringMatching(/^[0-9a-f]{24}$/) },
    { weight: 1, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom('x', 'ü', '🙂', '\u202e', 'ﷺ'), fc.constantFrom(65, 2049, 10_000, 100_000)).map(([c, n]) => c.repeat(n)) },
  );
}
