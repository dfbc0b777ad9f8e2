import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BIG_FILE_PREVIEW_ROWS, initialState, startKey, STEP, wizardReducer, type WizardState } from '../../web/src/pages/wizard/state.js';
import type { DryRun } from '../../web/src/pages/wizard/dry-run.js';

const verdict: DryRun = {
  dry_run: true, summary: 2, duplicate_count: 0, tier_needed_24h: 2, tier_left_24h: null,
  estimate: { currency: 'USD', estimated_cost: 0, complete: true, billable_count: 2, unknown_price_count: 0, by_market: [], rate_card_effective_date: '2025-07-01', rate_card_source: 'default', note: 'list price' },
};
const table = { headers: ['phone_number', 'BODY.1'], rows: [['905550000001', 'Ayse'], ['905550000002', 'Can']] };

function checkedList(): WizardState {
  let s = initialState(STEP.check, 'k');
  s = wizardReducer(s, { type: 'listLoaded', table, source: 'pasted list', bigFile: null });
  s = wizardReducer(s, { type: 'autoMapped', mapping: { phone: 0, 'BODY.1': 1 }, mappedFor: 't1' });
  return wizardReducer(s, { type: 'checkPassed', result: verdict, skipped: [] });
}

test('editing a cell drops the service’s verdict, its problems at that cell, and takes a new start key', () => {
  let s = checkedList();
  s = { ...s, serverIssues: [{ row: 1, target: 'BODY.1', message: 'too long' }, { row: 0, target: 'BODY.1', message: 'other' }] };
  const key = startKey(s);
  s = wizardReducer(s, { type: 'cellEdited', row: 1, target: 'BODY.1', value: 'Cem' });
  assert.equal(s.table!.rows[1][1], 'Cem');
  assert.equal(table.rows[1][1], 'Can', 'the loaded table is not changed in place');
  assert.equal(s.checked, null);
  assert.deepEqual(s.serverIssues.map((i) => i.row), [0]);
  assert.notEqual(startKey(s), key);
});

test('choosing another pacing takes a new start key but keeps the verdict', () => {
  const before = checkedList();
  const s = wizardReducer(before, { type: 'pacingChosen', totalTime: 600 });
  assert.equal(s.totalTime, 600);
  assert.deepEqual(s.checked, verdict);
  assert.notEqual(startKey(s), startKey(before));
});

test('a file read whole but too big to edit keeps only its first rows for the preview', () => {
  const rows = Array.from({ length: 200 }, (_, i) => [`9055500${String(i).padStart(5, '0')}`]);
  const file = { name: 'big.csv' } as File;
  const s = wizardReducer(initialState(STEP.recipients, 'k'), { type: 'listLoaded', table: { headers: ['phone'], rows }, source: 'big.csv', bigFile: { file, rows: 200 } });
  assert.equal(s.table!.rows.length, BIG_FILE_PREVIEW_ROWS);
  assert.equal(s.bigFile!.rows, 200);
});

test('a start refused for its rows lists them and drops the verdict; any other failure keeps it', () => {
  const refused = wizardReducer({ ...checkedList(), starting: true }, { type: 'startFailed', error: 'bad row', issues: [{ row: 0, target: 'phone', message: 'bad' }] });
  assert.equal(refused.checked, null);
  assert.equal(refused.serverIssues.length, 1);
  assert.equal(refused.starting, false);
  const down = wizardReducer({ ...checkedList(), starting: true }, { type: 'startFailed', error: 'unreachable', issues: null });
  assert.deepEqual(down.checked, verdict);
  assert.equal(down.error, 'unreachable');
});

test('send another goes back to the channel with no list and a new start key', () => {
  const done = wizardReducer(checkedList(), { type: 'startDone', started: { send_wizard_id: 'w1', summary: 2, duplicate_count: 0 } });
  const s = wizardReducer(done, { type: 'sendAnother' });
  assert.equal(s.step, STEP.channel);
  assert.equal(s.table, null);
  assert.equal(s.started, null);
  assert.notEqual(startKey(s), startKey(done));
});

test('another channel forgets the template and takes a new start key; a link opens a fresh wizard on its choice', () => {
  const before = { ...checkedList(), channelId: 'c1', templateId: 't1' };
  const s = wizardReducer(before, { type: 'channelChosen', channelId: 'c2' });
  assert.equal(s.channelId, 'c2');
  assert.equal(s.templateId, '');
  assert.equal(s.checked, null);
  assert.notEqual(startKey(s), startKey(before));
  const opened = wizardReducer(before, { type: 'opened', channelId: 'c3', templateId: 't3', step: STEP.recipients, keyBase: 'k2' });
  assert.deepEqual({ channel: opened.channelId, template: opened.templateId, step: opened.step, table: opened.table }, { channel: 'c3', template: 't3', step: STEP.recipients, table: null });
});
