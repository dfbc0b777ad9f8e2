import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { simAdmin, startHarness, type Harness } from '../support/harness.js';
import { approvedTemplate } from '../support/sending.js';
import { reportRows, untilWizard } from '../support/bulk.js';

let h: Harness;
const channel = SIM_CHANNEL_IDS.main;
const A = '/agent-app/message-template/send-wizard';

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
});
after(() => h.close());

const everyKind = [
  { type: 'HEADER', format: 'TEXT', text: 'Hi {{1}}', example: { header_text: ['Ali'] } },
  { type: 'BODY', text: 'Your order {{1}} ships on {{2}}.', example: { body_text: [['A1', 'Monday']] } },
  {
    type: 'BUTTONS',
    buttons: [
      { type: 'URL', text: 'Track', url: 'https://t.example.com/{{1}}', example: ['A1'] },
      { type: 'COPY_CODE', example: 'SAVE10' },
      { type: 'QUICK_REPLY', text: 'Stop' },
    ],
  },
];

function carousel() {
  const card = {
    components: [
      { type: 'HEADER', format: 'IMAGE', example: { header_handle: ['4::aGFuZGxl'] } },
      { type: 'BODY', text: 'Only {{1}} today', example: { body_text: [['9.99']] } },
      { type: 'BUTTONS', buttons: [{ type: 'QUICK_REPLY', text: 'More' }, { type: 'URL', text: 'Buy', url: 'https://b.example.com/{{1}}', example: ['x'] }] },
    ],
  };
  return [
    { type: 'BODY', text: 'Picks for {{1}} this week', example: { body_text: [['Ali']] } },
    { type: 'CAROUSEL', cards: [card, card] },
  ];
}

test('startv2 fills header, body, URL, copy-code and quick-reply columns; the phone gets exactly those', async () => {
  const templateId = await approvedTemplate(h, channel, everyKind as never);
  const headers = ['ROW', 'PHONE', 'HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1', 'BUTTONS.2', 'FULL_NAME'];
  const rows = [
    [7, '905557700013', 'Ayse', 'A-7', 'Monday', 'track-7', 'SAVE7', 'stop-7', 'Ayse Y'],
    [8, '905557700023', 'Mehmet', 'A-8', 'Tuesday', 'track-8', 'SAVE8', '', 'Mehmet K'],
  ];
  const res = await h.call('POST', `${A}/startv2`, { body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel, param_headers: headers } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const id = res.body.data.send_wizard_id;
  await untilWizard(h, channel, id, ['COMPLETED']);
  const got = await simAdmin(h, '/_sim/received?to=%2B905557700013');
  assert.deepEqual(got.messages[0].components, [
    { type: 'header', parameters: [{ type: 'text', text: 'Ayse' }] },
    { type: 'body', parameters: [{ type: 'text', text: 'A-7' }, { type: 'text', text: 'Monday' }] },
    { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'track-7' }] },
    { type: 'button', sub_type: 'copy_code', index: 1, parameters: [{ type: 'coupon_code', coupon_code: 'SAVE7' }] },
    { type: 'button', sub_type: 'quick_reply', index: 2, parameters: [{ type: 'payload', payload: 'stop-7' }] },
  ]);
  const rowsOut = await reportRows(h, id);
  assert.deepEqual(rowsOut.map((r: { row_id: number; full_name: string }) => [r.row_id, r.full_name]), [[7, 'Ayse Y'], [8, 'Mehmet K']]);
});

test('startv2 sends a carousel with per-card media, body and button columns', async () => {
  const templateId = await approvedTemplate(h, channel, carousel() as never);
  const headers = ['ROW', 'PHONE', 'BODY.1', 'CAROUSEL.0.HEADER', 'CAROUSEL.0.BODY.1', 'CAROUSEL.0.BUTTONS.1', 'CAROUSEL.1.HEADER', 'CAROUSEL.1.BODY.1', 'CAROUSEL.1.BUTTONS.1'];
  const rows = [[1, '905557700033', 'Ali', 'https://img.example.com/a.png', '5.00', 'sku-a', 'media-id-123', '7.50', 'sku-b']];
  const res = await h.call('POST', `${A}/startv2`, { body: { message_template_id: templateId, rows, total_time: 0, channel_id: channel, param_headers: headers } });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  await untilWizard(h, channel, res.body.data.send_wizard_id, ['COMPLETED']);
  const got = await simAdmin(h, '/_sim/received?to=%2B905557700033');
  const sent = got.messages[0].components;
  assert.deepEqual(sent[0], { type: 'body', parameters: [{ type: 'text', text: 'Ali' }] });
  assert.equal(sent[1].type, 'carousel');
  assert.deepEqual(sent[1].cards[0], {
    card_index: 0,
    components: [
      { type: 'header', parameters: [{ type: 'image', image: { link: 'https://img.example.com/a.png' } }] },
      { type: 'body', parameters: [{ type: 'text', text: '5.00' }] },
      { type: 'button', sub_type: 'url', index: 1, parameters: [{ type: 'text', text: 'sku-a' }] },
    ],
  });
  assert.deepEqual(sent[1].cards[1].components[0], { type: 'header', parameters: [{ type: 'image', image: { id: 'media-id-123' } }] });
});

test('a column the template needs but param_headers lacks is 400 naming param_headers', async () => {
  const templateId = await approvedTemplate(h, channel, everyKind as never);
  const res = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, rows: [[1, '905557700043', 'x', 'y']], total_time: 0, channel_id: channel, param_headers: ['ROW', 'PHONE', 'HEADER.1', 'BODY.1'] },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'param_headers');
  assert.match(res.body.message, /BODY\.2/);
});

test('an unknown column is 400 naming its header', async () => {
  const templateId = await approvedTemplate(h, channel, carousel() as never);
  const res = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, rows: [[1, '905557700053', 'x']], total_time: 0, channel_id: channel, param_headers: ['ROW', 'PHONE', 'CAROUSEL.5.BODY.1'] },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'param_headers[2]');
});

test('an empty cell fails the start with the row and column', async () => {
  const templateId = await approvedTemplate(h, channel, carousel() as never);
  const headers = ['ROW', 'PHONE', 'BODY.1', 'CAROUSEL.0.HEADER', 'CAROUSEL.0.BODY.1', 'CAROUSEL.0.BUTTONS.1', 'CAROUSEL.1.HEADER', 'CAROUSEL.1.BODY.1', 'CAROUSEL.1.BUTTONS.1'];
  const ok = [1, '905557700063', 'Ali', 'https://i.example.com/a.png', '1', 'a', 'https://i.example.com/b.png', '2', 'b'];
  const bad = [2, '905557700073', 'Veli', 'https://i.example.com/a.png', '1', 'a', 'https://i.example.com/b.png', '', 'b'];
  const res = await h.call('POST', `${A}/startv2`, { body: { message_template_id: templateId, rows: [ok, bad], total_time: 0, channel_id: channel, param_headers: headers } });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'rows[1].CAROUSEL.1.BODY.1');
  assert.match(res.body.errors[0].message, /row 2/);
});

test('a text too long for the network names the column it came from', async () => {
  const templateId = await approvedTemplate(h, channel, everyKind as never);
  const headers = ['ROW', 'PHONE', 'HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1'];
  const res = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, rows: [[1, '905557700083', 'x'.repeat(61), 'a', 'b', 'c', 'CODE']], total_time: 0, channel_id: channel, param_headers: headers },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'rows[0].HEADER.1');
});

test('a row that is not an array of the right length is 400', async () => {
  const templateId = await approvedTemplate(h, channel, everyKind as never);
  const res = await h.call('POST', `${A}/startv2`, {
    body: { message_template_id: templateId, rows: [{ phone: 'x' }], total_time: 0, channel_id: channel, param_headers: ['ROW', 'PHONE', 'HEADER.1', 'BODY.1', 'BODY.2', 'BUTTONS.0', 'BUTTONS.1'] },
  });
  assert.equal(res.status, 400);
  assert.equal(res.body.errors[0].field, 'rows[0]');
});
