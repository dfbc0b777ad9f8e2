/** Bulk sends to customers known by BSUID: start's user_id, startv2's USER_ID column, file user_id columns, dedupe by person. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { insertOptOut } from '../../src/store/opt-outs.js';
import { upsertRecipientLinks } from '../../src/store/recipient-links.js';
import { eventually, simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { reportRows, untilWizard } from '../support/bulk.js';
import { csvPart, fieldParts, startFile, xlsxPart, type Table } from '../support/files.js';

let h: Harness;
let templateId: string;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, channel);
});
after(() => h.close());

/** The BSUID the simulated network gives the user of this number. */
async function bsuidOf(phone: string): Promise<string> {
  return (await simAdmin(h, `/_sim/users/${phone}`)).user_id as string;
}

/** A start (v1) row for the sendable template with this recipient. */
function row(recipient: Record<string, unknown>, i = 1) {
  return { id: i, ...recipient, params: [`Name${i}`, `CODE${i}`], url_button_param: `p${i}` };
}

function start(rows: unknown[], extra: Record<string, unknown> = {}) {
  return h.call('POST', `${A}/start`, { body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel, ...extra } });
}

async function storedRecipients(wizardId: string) {
  const result = await sql<{ phone_number: string | null; user_id: string | null }>`
    select phone_number, user_id from messages where send_wizard_id = ${wizardId} order by row_no`.execute(h.store.db);
  return result.rows.map((r) => [r.phone_number, r.user_id]);
}

test('start rows name recipients by phone_number, user_id or both; BSUID-only rows go out as recipient and are delivered', async () => {
  const [u1, u2] = [await bsuidOf('905551250101'), await bsuidOf('905551250102')];
  const res = await start([row({ user_id: u1 }, 1), row({ phone_number: '905551250102', user_id: u2 }, 2), row({ phone_number: '905551250103' }, 3)]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.send_wizard_id;
  await untilWizard(h, channel, id, ['COMPLETED']);
  // The phone-only row learns its BSUID from the network's status webhooks.
  const u3 = await bsuidOf('905551250103');
  assert.deepEqual(await storedRecipients(id), [[null, u1], ['+905551250102', u2], ['+905551250103', u3]]);
  const report = await reportRows(h, id);
  assert.deepEqual(report.map((r) => [r.phone_number, r.user_id, r.market]), [[null, u1, 'TR'], ['+905551250102', u2, 'TR'], ['+905551250103', u3, 'TR']]);
  assert.ok(report.every((r) => ['BACKEND_SENT', 'BACKEND_SEEN', 'BACKEND_DELIVERED'].includes(r.status)), JSON.stringify(report.map((r) => r.status)));
  const toBsuid = await simAdmin(h, '/_sim/received?to=905551250101');
  assert.equal(toBsuid.messages[0].recipient, u1);
  const toBoth = await simAdmin(h, '/_sim/received?to=905551250102');
  assert.equal(toBoth.messages[0].recipient, undefined, 'with a phone number the request uses to');
});

test('a start row with neither recipient is one 400 naming its phone_number; a malformed user_id names user_id; nothing stored', async () => {
  const before = await h.store.db.selectFrom('send_wizards').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const neither = await start([row({ phone_number: '905551250111' }, 1), row({ full_name: 'Nobody' }, 2)]);
  assert.equal(neither.status, 400, JSON.stringify(neither.body));
  assert.equal(neither.body.errors.length, 1);
  assert.equal(neither.body.errors[0].field, 'rows[1].phone_number');
  const bad = await start([row({ user_id: 'TR-1234' }, 1)]);
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field), ['rows[0].user_id']);
  const after = await h.store.db.selectFrom('send_wizards').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  assert.equal(after.n, before.n);
});

test('startv2 takes a USER_ID column: a row with an empty phone cell goes to its BSUID; a bad one names the column', async () => {
  const u = await bsuidOf('905551250121');
  const headers = ['ROW', 'PHONE', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'USER_ID'];
  const res = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, channel_id: channel, total_time: 0, param_headers: headers, rows: [[1, null, 'A', 'B', 'c', u], [2, '905551250122', 'A', 'B', 'c', null]] },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(h, channel, res.body.data.send_wizard_id, ['COMPLETED']);
  assert.deepEqual(await storedRecipients(res.body.data.send_wizard_id), [[null, u], ['+905551250122', await bsuidOf('905551250122')]]);
  const bad = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, channel_id: channel, total_time: 0, param_headers: headers, rows: [[1, '', 'A', 'B', 'c', 'nope']] },
  });
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field), ['rows[0].USER_ID']);
});

test('a CSV and an XLSX with a user_id column and no phone column start, and a bad cell names its sheet row and column', async () => {
  const u = await bsuidOf('905551250131');
  const table: Table = [['user_id', 'BODY.1', 'BODY.2', 'url_button_param'], [u, 'A', 'B', 'c']];
  for (const file of [csvPart(table), await xlsxPart(table)]) {
    const res = await startFile(h, [...fieldParts({ message_template_id: templateId, channel_id: channel, total_time: 0 }), file]);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(await storedRecipients(res.body.data.send_wizard_id), [[null, u]]);
  }
  const bad = await startFile(h, [...fieldParts({ message_template_id: templateId, channel_id: channel, total_time: 0 }), csvPart([...table, ['XX', 'A', 'B', 'c']])]);
  assert.equal(bad.status, 400);
  assert.deepEqual(bad.body.errors.map((e: { field: string }) => e.field), ['rows[3].user_id']);
});

test('dedupe counts a person once: a repeated BSUID, and a phone number and the BSUID the network linked to it', async () => {
  const [u1, u2] = [await bsuidOf('905551250141'), await bsuidOf('905551250142')];
  await upsertRecipientLinks(h.store.db, h.a.companyId, [{ phone_number: '+905551250142', user_id: u2, source: 'status_webhook' }]);
  const res = await start([
    row({ user_id: u1 }, 1), row({ user_id: u1 }, 2),
    row({ phone_number: '905551250142' }, 3), row({ user_id: u2 }, 4),
    row({ phone_number: '905551250143', user_id: u1 }, 5),
  ], { dry_run: true });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.deepEqual([res.body.data.summary, res.body.data.duplicate_count], [2, 3]);
});

test('a bulk row to an opted-out BSUID ends OPT_IN_FAILED with RECIPIENT_OPTED_OUT and is not sent', async () => {
  const u = await bsuidOf('905551250151');
  await insertOptOut(h.store.db, h.a.companyId, { user_id: u, source: 'api' });
  const res = await start([row({ user_id: u }, 1)]);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(h, channel, res.body.data.send_wizard_id, ['COMPLETED']);
  const [r] = await reportRows(h, res.body.data.send_wizard_id);
  assert.equal(r.status, 'OPT_IN_FAILED');
  assert.match(r.error_message_detail, /RECIPIENT_OPTED_OUT/);
  const received = await simAdmin(h, '/_sim/received?to=905551250151');
  assert.equal(received.messages.length, 0);
});

test('the report export has the user_id column beside the phone number', async () => {
  const u = await bsuidOf('905551250161');
  const res = await start([row({ user_id: u }, 1)]);
  await untilWizard(h, channel, res.body.data.send_wizard_id, ['COMPLETED']);
  const csv = await h.call('GET', `${A}/reports/detail/export?id=${res.body.data.send_wizard_id}&format=csv`);
  assert.equal(csv.status, 200);
  const [header, line] = String(csv.body).replace(/^\uFEFF/, '').trim().split(/\r?\n/);
  const cells = header.split(',');
  assert.deepEqual(cells.slice(2, 6), ['phone_number', 'user_id', 'parent_user_id', 'username']);
  assert.equal(line.split(',')[cells.indexOf('user_id')], u);
  assert.equal(line.split(',')[cells.indexOf('phone_number')], '');
});

test('a dry run counts a customer in the tier window under the linked BSUID as needing no slot', async () => {
  const u = await bsuidOf('905551250171');
  const sent = await start([row({ user_id: u }, 1)]);
  await untilWizard(h, channel, sent.body.data.send_wizard_id, ['COMPLETED']);
  await eventually(async () => {
    const r = await sql<{ n: number }>`select count(*)::int as n from tier_recipients where channel_id = ${channel} and phone_number = ${u}`.execute(h.store.db);
    return r.rows[0].n === 1;
  }, 15_000);
  await upsertRecipientLinks(h.store.db, h.a.companyId, [{ phone_number: '+905551250171', user_id: u, source: 'status_webhook' }]);
  const dry = await start([row({ phone_number: '905551250171' }, 1), row({ phone_number: '905551250172' }, 2)], { dry_run: true });
  assert.equal(dry.status, 200, JSON.stringify(dry.body));
  assert.equal(dry.body.data.tier_needed_24h, 1);
});
