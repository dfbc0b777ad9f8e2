import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { SIM_CHANNEL_IDS } from '../../src/network/simulator/constants.js';
import { startHarness, type Harness } from '../support/harness.js';
import { fieldParts, startFile, type Part } from '../support/files.js';
import { approvedTemplate } from '../support/sending.js';

// A CSV start refuses bytes that are not UTF-8 and cells no header names, naming row and column, and reports an
// unclosed quote at the line it opens on.

let h: Harness;
let templateId: string;

before(async () => {
  h = await startHarness({ timings: { templateApprovalDelayMs: 50 } });
  templateId = await approvedTemplate(h, SIM_CHANNEL_IDS.main);
});
after(() => h.close());

const HEADER = 'phone_number,full_name,BODY.1,BODY.2,url_button_param\n';

function start(csv: Buffer) {
  const parts: Part[] = [
    ...fieldParts({ message_template_id: templateId, channel_id: SIM_CHANNEL_IDS.flagged, total_time: 0, dry_run: true }),
    { name: 'file', fileName: 'list.csv', type: 'text/csv', data: csv },
  ];
  return startFile(h, parts);
}

test('a cell that is not UTF-8 is refused naming its row and column', async () => {
  const csv = Buffer.concat([Buffer.from(`${HEADER}905551230001,Ana,a,b,c\n905551230002,`), Buffer.from([0x41, 0x79, 0xff, 0xfe, 0x73, 0x65]), Buffer.from(',a,b,c\n')]);
  const res = await start(csv);
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].field, 'rows[3].full_name');
  assert.match(res.body.message, /not valid UTF-8/);
});

test('a row with a value beyond the header is refused naming the row', async () => {
  const res = await start(Buffer.from(`${HEADER}905551230001,Ana,a,b,c\n905551230002,Bo,a,b,c,surplus\n`));
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].field, 'rows[3]');
  assert.match(res.body.message, /column 6/);
});

test('empty trailing cells, as a trailing separator makes, are accepted', async () => {
  const res = await start(Buffer.from(`${HEADER}905551230001,Ana,a,b,c,\n`));
  assert.equal(res.status, 200, JSON.stringify(res.body));
});

test('an unclosed quote is reported at the line it opens on, not where the file ends', async () => {
  const lines = [HEADER.trimEnd()];
  for (let i = 0; i < 500; i++) lines.push(`90555124${String(i).padStart(4, '0')},Name${i},a,b,c`);
  lines.push('905551249999,"Unclosed,a,b,c'); // line 502
  for (let i = 0; i < 300; i++) lines.push(`90555125${String(i).padStart(4, '0')},Name${i},a,b,c`);
  const res = await start(Buffer.from(lines.join('\n') + '\n'));
  assert.equal(res.status, 400, JSON.stringify(res.body));
  assert.equal(res.body.errors[0].code, 'FILE_INVALID');
  assert.match(res.body.message, /line 502\b/);
});
