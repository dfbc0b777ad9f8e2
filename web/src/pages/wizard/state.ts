/**
 * The send wizard's state and the one reducer that changes it. Pure: the page (useWizard.ts) runs the
 * calls to the service and dispatches what they answered; each step component reads the state and
 * dispatches the user's choices. The state outlives the page (store.ts), so a user who opens another tab
 * of the console and comes back finds the wizard as it was; the route's query mirrors the channel and
 * template so a link still opens the wizard on them.
 */
import type { ApiTemplate } from '../templates/types.js';
import type { DryRun } from './dry-run.js';
import type { Mapping, RowIssue } from './mapping.js';
import type { Table } from './table.js';

/** The steps, in order (the index is the state's `step`). */
export const STEPS = ['Channel', 'Template', 'Recipients', 'Columns', 'Preview & check', 'Pacing', 'Confirm'] as const;
export const STEP = { channel: 0, template: 1, recipients: 2, columns: 3, check: 4, pacing: 5, confirm: 6 } as const;

/** Rows of a large file kept in the browser for its preview. */
export const BIG_FILE_PREVIEW_ROWS = 50;

/** A list too big to edit here: it goes to the service as the file (start-file). */
export interface BigFile {
  file: File;
  /** Its row count when the browser read it whole (XLSX, or a CSV under the size limit); null when only its head was read. */
  rows: number | null;
}

/** The test send of one row's message to one number, before the bulk. */
export interface TestSend {
  phone: string;
  /** 0-based row of the list whose values the message takes. */
  row: number;
  sending: boolean;
  messageId: string | null;
  /** The test message's latest status (a message status code); null until known. */
  status: string | null;
  error: string | null;
}

const NO_TEST: TestSend = { phone: '', row: 0, sending: false, messageId: null, status: null, error: null };

/** What a start answered. */
export interface Started {
  send_wizard_id: string;
  summary: number;
  duplicate_count: number;
  /** When a scheduled send starts (ISO 8601); absent when it started at once. */
  scheduledAt?: string;
}

export interface WizardState {
  step: number;
  /** The chosen channel ('' = none yet: the page takes the first) and template ('' = none). */
  channelId: string;
  templateId: string;
  /** The channel's APPROVED templates; null while they load. */
  templates: ApiTemplate[] | null;
  error: string | null;
  /** The recipient list (for a big file: its first rows). */
  table: Table | null;
  /** Where the list came from ("spring.xlsx", "pasted list"). */
  source: string;
  bigFile: BigFile | null;
  pasted: string;
  mapping: Mapping;
  /** What `mapping` was made for (template and list headers): a new list or template maps the columns afresh. */
  mappedFor: string | null;
  /** Problems the service found (dry run or start), cleared as the user fixes them. */
  serverIssues: RowIssue[];
  /** The service's verdict on the list as it is now; null when the list changed since. */
  checked: DryRun | null;
  checking: boolean;
  /** Seconds to spread the send over (startv2's total_time); 0 = as fast as the channel allows. */
  totalTime: number;
  /** The bulk send's own name (send_name), as typed; blank = none. */
  sendName: string;
  /** Leave out the rows with problems (skip_invalid_rows) instead of fixing them; they are counted and listed. */
  skipInvalid: boolean;
  /** Marketing Messages TTL in hours ('' = the network's default), offered for a MARKETING template on a channel that sends through it. */
  ttlHours: string;
  /** When to start: '' = now, else a `datetime-local` value in the browser's time zone (sent as scheduled_at). */
  startAt: string;
  testSend: TestSend;
  starting: boolean;
  started: Started | null;
  /** The start's Idempotency-Key is `${keyBase}-${keyGeneration}`; any change to what would be sent takes a new one. */
  keyBase: string;
  keyGeneration: number;
}

export type WizardAction =
  | { type: 'go'; step: number }
  | { type: 'error'; error: string | null }
  | { type: 'templatesLoading' }
  | { type: 'templatesLoaded'; templates: ApiTemplate[] }
  | { type: 'templateGone' }
  | { type: 'opened'; channelId: string; templateId: string; step: number; keyBase: string }
  | { type: 'channelChosen'; channelId: string }
  | { type: 'templateChosen'; templateId: string }
  | { type: 'listLoaded'; table: Table; source: string; bigFile: BigFile | null }
  | { type: 'pastedEdited'; text: string }
  | { type: 'autoMapped'; mapping: Mapping; mappedFor: string }
  | { type: 'targetMapped'; target: string; column: Mapping[string] }
  | { type: 'cellEdited'; row: number; target: string; value: string }
  | { type: 'checkBegun' }
  | { type: 'checkPassed'; result: DryRun; skipped: RowIssue[] }
  | { type: 'checkRefused'; issues: RowIssue[] }
  | { type: 'checkFailed'; error: string }
  | { type: 'pacingChosen'; totalTime: number }
  | { type: 'sendNamed'; name: string }
  | { type: 'startAtChosen'; startAt: string }
  | { type: 'skipChosen'; skip: boolean }
  | { type: 'ttlChosen'; hours: string }
  | { type: 'testEdited'; phone?: string; row?: number }
  | { type: 'testBegun' }
  | { type: 'testSent'; messageId: string }
  | { type: 'testStatus'; status: string; error: string | null }
  | { type: 'testFailed'; error: string }
  | { type: 'startBegun' }
  | { type: 'startDone'; started: Started }
  | { type: 'startFailed'; error: string; issues: RowIssue[] | null }
  | { type: 'sendAnother' };

/** The state of a fresh wizard; `step` is where it opens, `keyBase` a random prefix of its start keys. */
export function initialState(step: number, keyBase: string, channelId = '', templateId = ''): WizardState {
  return {
    step, channelId, templateId, templates: null, error: null, table: null, source: '', bigFile: null, pasted: '', mapping: {}, mappedFor: null, serverIssues: [],
    checked: null, checking: false, totalTime: 0, sendName: '', skipInvalid: false, ttlHours: '', startAt: '', testSend: NO_TEST, starting: false, started: null, keyBase, keyGeneration: 0,
  };
}

/** The Idempotency-Key of a start of the state as it is. */
export function startKey(s: WizardState): string {
  return `${s.keyBase}-${s.keyGeneration}`;
}

/** What would be sent changed: the service's verdict is out of date and a start needs a new key. */
function invalidated(s: WizardState): WizardState {
  return { ...s, checked: null, keyGeneration: s.keyGeneration + 1 };
}

export function wizardReducer(s: WizardState, a: WizardAction): WizardState {
  switch (a.type) {
    case 'go':
      return { ...s, step: a.step, error: null };
    case 'error':
      return { ...s, error: a.error };
    case 'templatesLoading':
      return { ...s, templates: null };
    case 'templatesLoaded':
      return { ...s, templates: a.templates };
    case 'templateGone':
      return { ...s, step: STEP.template, error: 'Choose an APPROVED template of this channel.' };
    case 'opened':
      return initialState(a.step, a.keyBase, a.channelId, a.templateId);
    case 'channelChosen':
      return invalidated({ ...s, channelId: a.channelId, templateId: '' });
    case 'templateChosen':
      return invalidated({ ...s, templateId: a.templateId });
    case 'listLoaded': {
      const table = a.bigFile && a.bigFile.rows !== null ? { headers: a.table.headers, rows: a.table.rows.slice(0, BIG_FILE_PREVIEW_ROWS) } : a.table;
      return invalidated({ ...s, table, bigFile: a.bigFile, source: a.source, serverIssues: [], testSend: { ...s.testSend, row: 0 } });
    }
    case 'pastedEdited':
      return { ...s, pasted: a.text };
    case 'autoMapped':
      return { ...s, mapping: a.mapping, mappedFor: a.mappedFor };
    case 'targetMapped':
      return invalidated({ ...s, mapping: { ...s.mapping, [a.target]: a.column }, serverIssues: [] });
    case 'cellEdited': {
      const k = s.mapping[a.target];
      if (!s.table || typeof k !== 'number') return s;
      const rows = s.table.rows.slice();
      rows[a.row] = rows[a.row].slice();
      rows[a.row][k] = a.value;
      const serverIssues = s.serverIssues.filter((i) => !(i.row === a.row && (i.target === a.target || i.target === null)));
      return invalidated({ ...s, table: { headers: s.table.headers, rows }, serverIssues });
    }
    case 'checkBegun':
      return { ...s, checking: true, error: null };
    case 'checkPassed':
      // Rows the service would skip (skip_invalid_rows) stay listed as problems.
      return { ...s, checking: false, checked: a.result, serverIssues: a.skipped };
    case 'checkRefused':
      return { ...s, checking: false, checked: null, serverIssues: a.issues };
    case 'checkFailed':
      return { ...s, checking: false, checked: null, error: a.error };
    case 'pacingChosen':
      return { ...s, totalTime: a.totalTime, keyGeneration: s.keyGeneration + 1 };
    case 'sendNamed':
      return { ...s, sendName: a.name, keyGeneration: s.keyGeneration + 1 };
    case 'skipChosen':
      return invalidated({ ...s, skipInvalid: a.skip, serverIssues: [] });
    case 'ttlChosen':
      return { ...s, ttlHours: a.hours, keyGeneration: s.keyGeneration + 1 };
    case 'startAtChosen':
      return { ...s, startAt: a.startAt, keyGeneration: s.keyGeneration + 1 };
    case 'testEdited':
      return { ...s, testSend: { ...s.testSend, phone: a.phone ?? s.testSend.phone, row: a.row ?? s.testSend.row } };
    case 'testBegun':
      return { ...s, testSend: { ...s.testSend, sending: true, messageId: null, status: null, error: null } };
    case 'testSent':
      return { ...s, testSend: { ...s.testSend, sending: false, messageId: a.messageId } };
    case 'testStatus':
      return { ...s, testSend: { ...s.testSend, status: a.status, error: a.error } };
    case 'testFailed':
      return { ...s, testSend: { ...s.testSend, sending: false, error: a.error } };
    case 'startBegun':
      return { ...s, starting: true, error: null };
    case 'startDone':
      return { ...s, starting: false, started: a.started };
    case 'startFailed':
      return a.issues
        ? { ...s, starting: false, error: a.error, serverIssues: a.issues, checked: null }
        : { ...s, starting: false, error: a.error };
    case 'sendAnother':
      return invalidated({ ...s, started: null, table: null, bigFile: null, pasted: '', sendName: '', skipInvalid: false, ttlHours: '', startAt: '', testSend: NO_TEST, step: STEP.channel, error: null });
  }
}
