import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { countersFromRows, listItem, phones, reportRows, startV1, untilWizard, v1Rows } from '../support/bulk.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

test('start (v1) sends every row and completes with counters equal to the rows', async () => {
  const numbers = phones(12);
  const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(numbers), total_time: 0, channel_id: channel });
  assert.match(id, /^[0-9a-f]{24}$/);
  const item = await untilWizard(h, channel, id, ['COMPLETED']);
  assert.equal(item.summary, 12);
  const rows = await reportRows(h, id);
  assert.equal(rows.length, 12);
  assert.deepEqual(rows.map((r: { row: number }) => r.row), Array.from({ length: 12 }, (_, i) => i + 1));
  const c = countersFromRows(rows);
  for (const key of ['waiting', 'queued', 'processed_count', 'awaiting_backend_count', 'failed_count', 'cancelled_count'] as const) {
    assert.equal(item[key], c[key], key);
  }
  assert.ok(item.delivered_count >= c.minimumDelivered);
  assert.equal(item.has_button, true);
  for (const n of numbers) {
    const got = await simAdmin(h, `/_sim/received?to=%2B${n}`);
    assert.equal(got.messages.length, 1, n);
  }
});

test('the list item has every field of the interface', async () => {
  const id = await startV1(h, { message_template_id: templateId, rows: v1Rows(phones(2, '9055588')), total_time: 0, channel_id: channel });
  const item = await listItem(h, channel, id);
  for (const f of ['name', 'send_wizard_id', 'status', 'from_number', 'summary', 'waiting', 'queued', 'processed_count', 'awaiting_backend_count', 'failed_count', 'delivered_count', 'sent_count', 'seen_count', 'created_at', 'has_button']) {
    assert.ok(f in item, f);
  }
  assert.equal(typeof item.created_at, 'number');
});

test('a bad row fails the whole start with its row and column; nothing is stored', async () => {
  const rows = v1Rows(phones(5, '9055599'));
  rows[3].params = ['only one'];
  const res = await h.call('POST', `${A}/start`, { body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].code, 'PARAMETERS_INVALID');
  assert.match(res.body.errors[0].field, /^rows\[3\]\.params\[1\]$/);
  assert.match(res.body.errors[0].message, /row 4/);
  const count = await h.store.db.selectFrom('messages' as never).select(h.store.db.fn.countAll<number>().as('n')).where('phone_number' as never, 'like', '+9055599%' as never).executeTakeFirstOrThrow();
  assert.equal(Number((count as { n: number }).n), 0);
});

test('a stored row keeps its values exactly in its payload, quotes and backslashes included', async () => {
  const [phone] = phones(1, '9055566');
  const rows = v1Rows([phone]);
  rows[0].params = ['Ann "the \\ one" é', 'C\\D'];
  const id = await startV1(h, { message_template_id: templateId, rows, total_time: 0, channel_id: channel });
  const stored = await h.store.db.selectFrom('messages').select(['payload', 'phone_number']).where('send_wizard_id', '=', id).executeTakeFirstOrThrow();
  const payload = (typeof stored.payload === 'string' ? JSON.parse(stored.payload) : stored.payload) as {
    messaging_product: string;
    to: string;
    template: { components: Array<{ parameters?: Array<{ text?: string }> }> };
  };
  assert.equal(payload.messaging_product, 'whatsapp');
  assert.equal(payload.to, stored.phone_number);
  const texts = payload.template.components.flatMap((c) => (c.parameters ?? []).map((p) => p.text));
  assert.ok(texts.includes('Ann "the \\ one" é'), JSON.stringify(texts));
  assert.ok(texts.includes('C\\D'), JSON.stringify(texts));
});

test('a row that is not JSON fails the whole body as INVALID_JSON, however the start runs; nothing is stored', async () => {
  // Rows the spool's scanner cuts out whole but JSON.parse refuses: the start's first pass answers them.
  const cases: Array<[string, Record<string, unknown>, number]> = [
    ['sending now', { total_time: 0 }, 3],
    ['spread over total_time', { total_time: 60 }, 3],
    ['invalid rows skipped', { total_time: 0, skip_invalid_rows: true }, 3],
    ['a dry run', { total_time: 0, dry_run: true }, 3],
    // After more bad rows than an answer reports, the rest of the list is still read for a row that is not JSON.
    ['after 60 bad rows', { total_time: 0 }, 70],
  ];
  for (const [k, [label, extra, at]] of cases.entries()) {
    const prefix = `905554${k}`;
    const rows: unknown[] = v1Rows(phones(80, prefix));
    if (at === 70) for (let i = 0; i < 60; i += 1) (rows[i] as { params: string[] }).params = ['only one'];
    rows[at] = '__NOT_JSON__';
    const text = JSON.stringify({ message_template_id: templateId, channel_id: channel, rows, ...extra }).replace('"__NOT_JSON__"', '{"phone_number" "+905551112233"}');
    const res = await h.call('POST', `${A}/start`, { body: text, headers: { 'content-type': 'application/json' } });
    assert.equal(res.status, 400, `${label}: ${JSON.stringify(res.body)}`);
    assert.equal(res.body.errors[0].code, 'INVALID_JSON', label);
    assert.equal(res.body.errors[0].field, 'body', label);
    const count = await h.store.db.selectFrom('messages').select(h.store.db.fn.countAll<number>().as('n')).where('phone_number', 'like', `+${prefix}%`).executeTakeFirstOrThrow();
    assert.equal(Number(count.n), 0, label);
  }
});

test("a start's scratch folder is removed once it has answered, started or refused", async () => {
  const folders = () => readdirSync(tmpdir()).filter((n) => n.startsWith(`tms-start-${process.pid}-`));
  const rows = v1Rows(phones(3, '9055533'));
  await startV1(h, { message_template_id: templateId, rows, total_time: 0, channel_id: channel });
  rows[1].params = ['only one'];
  const refused = await h.call('POST', `${A}/start`, { body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel } });
  assert.equal(refused.status, 400);
  await eventually(async () => folders().length === 0, 5000).catch(() => assert.deepEqual(folders(), []));
});

test('a stored row keeps the payload text the start wrote: json, keys in the order they are sent', async () => {
  const [phone] = phones(1, '9055567');
  const id = await startV1(h, { message_template_id: templateId, rows: v1Rows([phone]), total_time: 0, channel_id: channel });
  const stored = await sql<{ type: string; text: string }>`
    select pg_typeof(payload)::text as type, payload::text as text from messages where send_wizard_id = ${id}`.execute(h.store.db);
  assert.equal(stored.rows[0]?.type, 'json');
  // jsonb would have sorted the keys (shortest first) and spaced the text.
  assert.ok(stored.rows[0]!.text.startsWith(`{"messaging_product":"whatsapp","recipient_type":"individual","to":"+${phone}","type":"template"`), stored.rows[0]!.text);
});
