/**
 * A value the template does not take is refused with a 400 that names it, as a missing one is, and nothing is
 * stored: single sends (Cloud and service forms), start (per row), startv2, file starts and their dry runs.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate, sendParams, singleSend } from '../support/sending.js';
import { phones, v1Rows } from '../support/bulk.js';
import { csvPart, fieldParts, startFile } from '../support/files.js';

let h: Harness;
let hello: string;
let sendable: string;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  // Meta's sample: a text header, a body and a footer, no variable and no button.
  hello = (await simAdmin(h, '/_sim/waba-templates/hello_world', {})).id;
  const listed = await h.call('GET', `/api/v1/message-templates?channel_id=${channel}`);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  sendable = await approvedTemplate(h, channel);
});
after(() => h.close());

/** Rows of the tables a send or a start writes. */
async function stored() {
  const n = async (table: string) => (await sql<{ n: number }>`select count(*)::int as n from ${sql.table(table)}`.execute(h.store.db)).rows[0].n;
  return { messages: await n('messages'), send_wizards: await n('send_wizards') };
}

/** The fields the error names, in order. */
function fieldsOf(body: { errors: Array<{ field?: string }> }): string[] {
  return body.errors.map((e) => e.field ?? '');
}

/** Asserts a 400 naming `field` (first) with code `code`, and that nothing was written. */
async function refused(res: { status: number; body: Record<string, any> }, before: Awaited<ReturnType<typeof stored>>, code: string, field: string) { // eslint-disable-line @typescript-eslint/no-explicit-any
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, code, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].field, field, JSON.stringify(res.body));
  assert.deepEqual(await stored(), before);
}

test('a single send of body values to a template without variables is refused, naming the parameters', async () => {
  const before = await stored();
  const res = await singleSend(h, {
    channel_id: channel, phone_number: '905551250101', message_template_id: hello,
    message_template: [{ type: 'BODY', parameters: ['Ayse', 'SAVE20'] }],
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'message_template[0].parameters');
});

test('a single send of a button value to a template without buttons is refused, naming the button', async () => {
  const before = await stored();
  const res = await singleSend(h, {
    channel_id: channel, phone_number: '905551250102', message_template_id: hello,
    message_template: [{ type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'summer' }] }],
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'message_template[0].index');
});

test('a single send whose entry carries values under a field the entry does not have is refused, naming it', async () => {
  const before = await stored();
  const res = await singleSend(h, {
    channel_id: channel, phone_number: '905551250103', message_template_id: hello,
    message_template: [{ type: 'BODY', params: ['Ayse'] }],
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'message_template[0].params');
});

test('a single send in the service form with a stray field on a button is refused, naming it', async () => {
  const before = await stored();
  const [body] = sendParams();
  const res = await singleSend(h, {
    channel_id: channel, phone_number: '905551250104', message_template_id: sendable,
    message_template: [body, { type: 'BUTTONS', buttons: [{ parameters: ['summer'], url_suffix: 'x' }] }],
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'message_template[1].buttons[0].url_suffix');
});

test('start: params and a URL value for a template without variables are refused per row, naming each', async () => {
  const before = await stored();
  const res = await h.call('POST', `${A}/start`, {
    body: {
      message_template_id: hello, channel_id: channel, total_time: 0,
      rows: [
        { id: 1, phone_number: '905551250201' },
        { id: 2, phone_number: '905551250202', params: ['Ayse', 'SAVE20'], url_button_param: 'summer' },
      ],
    },
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'rows[1].params[0]');
  assert.deepEqual(fieldsOf(res.body), ['rows[1].params[0]', 'rows[1].params[1]', 'rows[1].url_button_param']);
  assert.match(res.body.message, /row 2: params\[0\] is not taken: the template's body has 0 variable/);
});

test('start: a value past the body variables or for a second URL button is refused; empty cells are no value', async () => {
  const before = await stored();
  const [row] = v1Rows(phones(1, '9055503'));
  const res = await h.call('POST', `${A}/start`, {
    body: {
      message_template_id: sendable, channel_id: channel, total_time: 0,
      rows: [{ ...row, params: [...row.params, 'extra', ''] }, { ...row, id: 2, phone_number: '905550300099', url_button_param2: 'second', copy_code_param: '' }],
    },
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'rows[0].params[2]');
  assert.deepEqual(fieldsOf(res.body), ['rows[0].params[2]', 'rows[1].url_button_param2']);
});

test('start dry run refuses the same rows the start refuses', async () => {
  const before = await stored();
  const res = await h.call('POST', `${A}/start`, {
    body: { message_template_id: hello, channel_id: channel, total_time: 0, dry_run: true, rows: [{ id: 1, phone_number: '905551250301', params: ['Ayse'] }] },
  });
  await refused(res, before, 'PARAMETERS_INVALID', 'rows[0].params[0]');
});

test('start with skip_invalid_rows leaves out a row with a value the template does not take, and counts it', async () => {
  const res = await h.call('POST', `${A}/start`, {
    body: {
      message_template_id: hello, channel_id: channel, total_time: 0, dry_run: true, skip_invalid_rows: true,
      rows: [{ id: 1, phone_number: '905551250401' }, { id: 2, phone_number: '905551250402', params: ['Ayse'] }],
    },
  });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  assert.equal(res.body.data.summary, 1);
});

test('startv2: a column the template does not take is refused, naming it', async () => {
  const before = await stored();
  const res = await h.call('POST', `${A}/startv2`, {
    body: {
      message_template_id: hello, channel_id: channel, total_time: 0,
      param_headers: ['id', 'phone', 'BODY.1'], rows: [[1, '905551250501', 'Ayse']],
    },
  });
  await refused(res, before, 'VALIDATION_FAILED', 'param_headers[2]');
});

for (const dryRun of [false, true]) {
  test(`file start${dryRun ? ' dry run' : ''}: a column naming a value the template does not take is refused, naming it`, async () => {
    const before = await stored();
    const res = await startFile(h, [
      ...fieldParts({ message_template_id: hello, channel_id: channel, total_time: 0, dry_run: dryRun }),
      csvPart([['phone_number', 'full_name', 'BODY.1', 'notes'], ['905551250601', 'Ayse', 'Ayse', 'kept out: not a template value']]),
    ]);
    await refused(res, before, 'MAPPING_INVALID', 'mapping.BODY.1');
  });
}

test('file start: a url_button_param column for a template without a URL button is refused', async () => {
  const before = await stored();
  const res = await startFile(h, [
    ...fieldParts({ message_template_id: hello, channel_id: channel, total_time: 0, dry_run: true }),
    csvPart([['phone_number', 'url_button_param'], ['905551250701', 'summer']]),
  ]);
  await refused(res, before, 'MAPPING_INVALID', 'mapping.url_button_param');
});
