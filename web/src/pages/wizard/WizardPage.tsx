/**
 * The send wizard (`#/send?channel=&template=`): channel → approved template → recipients (CSV / XLSX file
 * or pasted) → column mapping (auto-mapped from the headers) → preview of the first rows as messages with
 * every row and column problem listed and fixable in place (the console's own checks, then the service's
 * dry run) → pacing → confirm (count, duplicates removed, tier quota needed vs left) → start → report.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ApiError, errorText } from '../../http';
import { href, replaceQuery, useRoute } from '../../router';
import { listTemplates } from '../templates/api';
import { ChannelSelect, useChannels } from '../templates/ChannelSelect';
import { exampleValues, renderMessage } from '../templates/message';
import { MessagePreview } from '../templates/MessagePreview';
import type { ApiTemplate } from '../templates/types';
import { dryRun, dryRunFile, start, startFile, type DryRun } from './api';
import {
  autoMap, cellOf, checkRows, countDuplicates, FULL_NAME, issuesFromErrors, issuesFromFileErrors, missingTargets, PHONE, toFileMapping, toStartRows,
  type Mapping, type RowIssue,
} from './mapping';
import { MAX_TOTAL_TIME, PACING_PRESETS, duration, pacingText } from './pacing';
import { templateSlots, type Slot } from './slots';
import { LARGE_CSV_BYTES, MAX_EDIT_ROWS, parseDelimited, parseFile, parseLargeCsv, TableError, type Table } from './table';
import '../templates/templates.css';
import './wizard.css';

const STEPS = ['Channel', 'Template', 'Recipients', 'Columns', 'Preview & check', 'Pacing', 'Confirm'] as const;
const PREVIEW_MESSAGES = 3;
const GRID_ROWS = 20;

type Started = { send_wizard_id: string; summary: number; duplicate_count: number };

/** A short random key so a retried start (double click, network blip) starts nothing twice. */
function newKey(): string {
  return `console-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
}

export function WizardPage() {
  const route = useRoute();
  const { channels, error: channelsError } = useChannels();
  const channelId = route.query.get('channel') ?? channels?.[0]?.id ?? '';
  const templateId = route.query.get('template') ?? '';
  // Coming from a template's "Send" link, the channel and template are chosen already.
  const [step, setStep] = useState(() => (route.query.get('channel') && templateId ? 2 : 0));
  const [templates, setTemplates] = useState<ApiTemplate[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [table, setTable] = useState<Table | null>(null);
  const [source, setSource] = useState('');
  // A list too big to edit here goes to the service as the file (start-file); `table` then holds its first rows.
  const [bigFile, setBigFile] = useState<{ file: File; rows: number | null } | null>(null);
  const [pasted, setPasted] = useState('');
  const [mapping, setMapping] = useState<Mapping>({});
  const [serverIssues, setServerIssues] = useState<RowIssue[]>([]);
  const [checked, setChecked] = useState<DryRun | null>(null);
  const [checking, setChecking] = useState(false);
  const [totalTime, setTotalTime] = useState(0);
  const [starting, setStarting] = useState(false);
  const [started, setStarted] = useState<Started | null>(null);
  const startKey = useRef(newKey());
  const headingRef = useRef<HTMLHeadingElement>(null);

  const setQuery = (patch: Record<string, string>) => replaceQuery('/send', { channel: channelId, template: templateId, ...patch });
  const channel = channels?.find((c) => c.id === channelId) ?? null;
  const template = templates?.find((t) => t.id === templateId) ?? null;
  const slots = useMemo<Slot[]>(() => (template ? templateSlots(template.components) : []), [template]);

  useEffect(() => {
    if (!channelId) return;
    let live = true;
    setTemplates(null);
    listTemplates(channelId).then((list) => live && setTemplates(list.filter((t) => t.status === 'APPROVED'))).catch((e) => live && setError(errorText(e)));
    return () => {
      live = false;
    };
  }, [channelId]);

  // A template that is not (or no longer) an APPROVED one of the channel sends the user back to choose one.
  useEffect(() => {
    if (templates !== null && step >= 2 && !template) {
      setStep(1);
      setError('Choose an APPROVED template of this channel.');
    }
  }, [templates, template, step]);

  // A new list or template maps the columns afresh; the service's verdict is then out of date.
  useEffect(() => {
    if (table) setMapping(autoMap(table.headers, slots));
  }, [table?.headers.join('\u0000'), slots]);
  const invalidate = () => {
    setChecked(null);
    startKey.current = newKey();
  };

  const localIssues = useMemo(() => (table ? checkRows(table, mapping, slots) : []), [table, mapping, slots]);
  const issues = [...localIssues, ...serverIssues.filter((s) => !localIssues.some((l) => l.row === s.row && l.target === s.target))];
  const missing = missingTargets(mapping, slots);
  const duplicates = useMemo(() => (table ? countDuplicates(table, mapping) : 0), [table, mapping]);

  const go = (n: number) => {
    setStep(n);
    setError(null);
    setTimeout(() => headingRef.current?.focus(), 0);
  };

  const loadTable = (t: Table, name: string, big: { file: File; rows: number | null } | null = null) => {
    setTable(big && big.rows !== null ? { headers: t.headers, rows: t.rows.slice(0, 50) } : t);
    setBigFile(big);
    setSource(name);
    setServerIssues([]);
    invalidate();
  };
  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setError(null);
    try {
      if (!/\.xlsx$/i.test(file.name) && file.size > LARGE_CSV_BYTES) {
        loadTable(await parseLargeCsv(file), file.name, { file, rows: null });
        return;
      }
      const t = await parseFile(file);
      if (t.rows.length > MAX_EDIT_ROWS && t.headers.every((h) => !/^Column \d+$/.test(h))) loadTable(t, file.name, { file, rows: t.rows.length });
      else if (t.rows.length > MAX_EDIT_ROWS) throw new TableError(`A file of more than ${MAX_EDIT_ROWS.toLocaleString('en-US')} rows needs a header row (phone_number, ...).`);
      else loadTable(t, file.name);
    } catch (e) {
      setError(errorText(e));
    }
  };
  const onPaste = () => {
    setError(null);
    try {
      const t = parseDelimited(pasted);
      if (t.rows.length > MAX_EDIT_ROWS) throw new TableError(`Pasted lists hold at most ${MAX_EDIT_ROWS.toLocaleString('en-US')} rows; choose the file instead.`);
      loadTable(t, 'pasted list');
    } catch (e) {
      setError(errorText(e));
    }
  };

  const editCell = (row: number, target: string, v: string) => {
    const k = mapping[target];
    if (!table || k === null || k === undefined) return;
    const rows = table.rows.slice();
    rows[row] = rows[row].slice();
    rows[row][k] = v;
    setTable({ headers: table.headers, rows });
    setServerIssues((list) => list.filter((s) => !(s.row === row && (s.target === target || s.target === null))));
    invalidate();
  };

  const body = () => ({ message_template_id: templateId, channel_id: channelId, total_time: totalTime, ...toStartRows(table!, mapping, slots) });
  const fileStart = () => ({ file: bigFile!.file, message_template_id: templateId, channel_id: channelId, total_time: totalTime, mapping: toFileMapping(table!.headers, mapping) });
  const issuesOf = (e: ApiError) => (bigFile ? issuesFromFileErrors(e.errors, table!.headers, mapping) : issuesFromErrors(e.errors, body().param_headers));

  const check = async () => {
    if (!table || !template) return;
    setChecking(true);
    setError(null);
    try {
      const result = bigFile ? await dryRunFile(fileStart()) : await dryRun(body());
      setChecked(result);
      setServerIssues([]);
    } catch (e) {
      setChecked(null);
      if (e instanceof ApiError && e.errors.length && e.status < 500) setServerIssues(issuesOf(e));
      else setError(errorText(e));
    } finally {
      setChecking(false);
    }
  };

  // Entering the check step with a clean list asks the service at once.
  useEffect(() => {
    if (step === 4 && localIssues.length === 0 && missing.length === 0 && !checked && !checking) void check();
  }, [step]);

  const doStart = async () => {
    setStarting(true);
    setError(null);
    try {
      setStarted(bigFile ? await startFile(fileStart(), startKey.current) : await start(body(), startKey.current));
    } catch (e) {
      if (e instanceof ApiError && e.errors.length && e.status < 500) {
        setServerIssues(issuesOf(e));
        setChecked(null);
      }
      setError(errorText(e));
    } finally {
      setStarting(false);
    }
  };

  const canNext = [
    Boolean(channel),
    Boolean(template),
    Boolean(table),
    missing.length === 0,
    issues.length === 0 && checked !== null,
    totalTime >= 0 && totalTime <= MAX_TOTAL_TIME,
    false,
  ][step];

  const targetLabel = (t: string | null) => (t === null ? 'row' : t === PHONE ? 'phone number' : t === FULL_NAME ? 'name' : slots.find((s) => s.column === t)?.label ?? t);

  return (
    <section class="page wizard" aria-labelledby="wizard-title">
      <div class="page-head">
        <h1 id="wizard-title">Send</h1>
      </div>
      <nav aria-label="Wizard steps">
        <ol class="steps">
          {STEPS.map((s, i) => (
            <li key={s} aria-current={i === step ? 'step' : undefined} class={i < step ? 'done' : ''}>
              <span class="step-no" aria-hidden="true">{i + 1}</span> {s}
            </li>
          ))}
        </ol>
      </nav>
      {channelsError && <p class="alert error" role="alert">{channelsError}</p>}

      <div class="card step-card">
        <h2 ref={headingRef} tabIndex={-1} id="step-title">{step + 1}. {STEPS[step]}</h2>

        {step === 0 && channels && (
          <>
            <ChannelSelect id="wiz-channel" channels={channels} value={channelId} onChange={(c) => { setQuery({ channel: c, template: '' }); invalidate(); }} />
            {channel && (channel.status === 'FLAGGED' || channel.status === 'RESTRICTED' || channel.quality_rating === 'RED' || channel.auth_error) && (
              <p class="alert warn" role="status">
                This channel cannot send now ({channel.auth_error ?? `${channel.status}, quality ${channel.quality_rating}`}): a bulk send waits until it can.
              </p>
            )}
            {channel && <p class="muted">Tier: {channel.messaging_limit_tier} (new recipients per rolling 24 hours).</p>}
          </>
        )}

        {step === 1 && (
          <>
            {templates === null && <p class="muted">Loading templates…</p>}
            {templates !== null && templates.length === 0 && (
              <p class="alert info">No APPROVED template on this channel. <a href={href('/templates/new', { channel: channelId })}>Create one</a>; it can be sent once the network approves it.</p>
            )}
            {templates !== null && templates.length > 0 && (
              <div class="wiz-split">
                <label class="field" for="wiz-template">
                  <span>Approved template</span>
                  <select id="wiz-template" value={templateId} onChange={(e) => { setQuery({ template: (e.target as HTMLSelectElement).value }); invalidate(); }}>
                    <option value="">Choose a template…</option>
                    {templates.map((t) => <option key={t.id} value={t.id}>{t.name} ({t.language})</option>)}
                  </select>
                </label>
                {template && (
                  <div>
                    <MessagePreview message={renderMessage(template.components, (c) => exampleValues(template.components)[c])} label={`Preview of ${template.name}`} />
                    <p class="muted small">Columns this template needs: {slots.length ? slots.map((s) => s.column).join(', ') : 'none besides the phone number'}.</p>
                  </div>
                )}
              </div>
            )}
          </>
        )}

        {step === 2 && (
          <div class="wiz-split">
            <div class="field">
              <label for="wiz-file">A CSV or Excel (.xlsx) file</label>
              <input id="wiz-file" type="file" accept=".csv,.xlsx,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-describedby="wiz-file-hint"
                onChange={(e) => onFile((e.target as HTMLInputElement).files?.[0])} />
              <small id="wiz-file-hint" class="muted">First row: column names such as phone_number, full_name, {slots.slice(0, 2).map((s) => s.column).join(', ') || 'BODY.1'}. The first sheet of a workbook is read.</small>
            </div>
            <div class="field">
              <label for="wiz-paste">Or paste a list (from a spreadsheet, or comma separated)</label>
              <textarea id="wiz-paste" rows={5} value={pasted} placeholder={`phone_number,full_name${slots.map((s) => `,${s.column}`).join('')}`} onInput={(e) => setPasted((e.target as HTMLTextAreaElement).value)} />
              <div class="row"><button type="button" class="button" onClick={onPaste} disabled={!pasted.trim()}>Use pasted list</button></div>
            </div>
            {table && !bigFile && <p class="alert info" role="status" data-testid="list-summary">Read {table.rows.length.toLocaleString('en-US')} rows and {table.headers.length} columns from the {source}.</p>}
            {table && bigFile && (
              <p class="alert info" role="status" data-testid="list-summary">
                {source} is large ({bigFile.rows === null ? `${(bigFile.file.size / 1048576).toFixed(1)} MB` : `${bigFile.rows.toLocaleString('en-US')} rows`}): it goes to the service as a file, which checks every row. The first {table.rows.length} rows are shown here.
              </p>
            )}
          </div>
        )}

        {step === 3 && table && (
          <>
            <p class="muted">Each target takes one column of your list. Columns named like the targets were chosen already.</p>
            <div class="mapping-grid">
              {[{ column: PHONE, label: 'Phone number (with country code)', optional: false }, ...slots, { column: FULL_NAME, label: 'Recipient name (optional)', optional: true }].map((t) => (
                <label key={t.column} class="field" for={`map-${t.column}`}>
                  <span>{t.label}{t.column !== PHONE && t.column !== FULL_NAME && <code class="muted"> {t.column}</code>}</span>
                  <select id={`map-${t.column}`} value={mapping[t.column] ?? ''} aria-invalid={!t.optional && (mapping[t.column] ?? null) === null ? true : undefined}
                    onChange={(e) => {
                      const v = (e.target as HTMLSelectElement).value;
                      setMapping((m) => ({ ...m, [t.column]: v === '' ? null : Number(v) }));
                      setServerIssues([]);
                      invalidate();
                    }}>
                    <option value="">{t.optional ? '— none —' : '— choose a column —'}</option>
                    {table.headers.map((h, k) => <option key={k} value={k}>{h} (e.g. {table.rows[0]?.[k] || 'empty'})</option>)}
                  </select>
                </label>
              ))}
            </div>
            {missing.length > 0 && <p class="alert warn" role="status">Choose a column for: {missing.map(targetLabel).join('; ')}.</p>}
          </>
        )}

        {step === 4 && table && template && (
          <CheckStep table={table} bigFile={bigFile !== null} mapping={mapping} slots={slots} template={template} issues={issues} checked={checked} checking={checking}
            duplicates={duplicates} targetLabel={targetLabel} onEdit={editCell} onCheck={check} />
        )}

        {step === 5 && (
          <>
            <fieldset class="pacing">
              <legend>Spread the messages over</legend>
              {PACING_PRESETS.map((p) => (
                <label key={p.seconds} class="check">
                  <input type="radio" name="pacing" checked={totalTime === p.seconds} onChange={() => { setTotalTime(p.seconds); startKey.current = newKey(); }} /> {p.label}
                </label>
              ))}
              <label class="field" for="wiz-total">
                <span>Or minutes (total_time is sent in seconds)</span>
                <input id="wiz-total" type="number" min={0} max={MAX_TOTAL_TIME / 60} step={1} value={Math.round(totalTime / 60)}
                  onInput={(e) => { const m = Number((e.target as HTMLInputElement).value); if (Number.isFinite(m) && m >= 0) { setTotalTime(Math.min(MAX_TOTAL_TIME, Math.round(m * 60))); startKey.current = newKey(); } }} />
              </label>
            </fieldset>
            <p class="alert info" data-testid="pacing-text">total_time = {totalTime} s{totalTime ? ` (${duration(totalTime)})` : ''}. {pacingText(totalTime, checked?.rows ?? table?.rows.length ?? 0)}</p>
          </>
        )}

        {step === 6 && template && channel && (
          started ? (
            <div class="started" role="status">
              <p class="alert info">Started: {started.summary.toLocaleString('en-US')} messages queued{started.duplicate_count ? `, ${started.duplicate_count} duplicate number${started.duplicate_count === 1 ? '' : 's'} removed` : ''}.</p>
              <p><a class="button primary" href={href('/reports', { channel: channelId, id: started.send_wizard_id })} data-testid="report-link">Open the report</a></p>
              <p class="muted small">Bulk send id <code>{started.send_wizard_id}</code></p>
            </div>
          ) : (
            <ConfirmStep channelLabel={`${channel.display_phone_number} · ${channel.verified_name}`} tier={channel.messaging_limit_tier} template={template}
              checked={checked} totalTime={totalTime} starting={starting} onStart={doStart} />
          )
        )}

        {error && <p class="alert error" role="alert">{error}</p>}
        {!started && (
          <div class="row step-nav">
            {step > 0 && <button type="button" class="button" onClick={() => go(step - 1)}>Back</button>}
            <span class="spacer" />
            {step < STEPS.length - 1 && <button type="button" class="button primary" disabled={!canNext} onClick={() => go(step + 1)}>Next: {STEPS[step + 1]}</button>}
          </div>
        )}
        {started && <div class="row step-nav"><button type="button" class="button" onClick={() => { setStarted(null); setTable(null); setBigFile(null); setPasted(''); invalidate(); go(0); }}>Send another</button></div>}
      </div>
    </section>
  );
}

/** Step 5: the first rows as messages, every problem listed, the cells editable, the service's verdict. */
function CheckStep({ table, bigFile, mapping, slots, template, issues, checked, checking, duplicates, targetLabel, onEdit, onCheck }: {
  table: Table; bigFile: boolean; mapping: Mapping; slots: Slot[]; template: ApiTemplate; issues: RowIssue[]; checked: DryRun | null; checking: boolean;
  duplicates: number; targetLabel: (t: string | null) => string; onEdit: (row: number, target: string, v: string) => void; onCheck: () => void;
}) {
  const targets = [PHONE, ...slots.filter((s) => mapping[s.column] !== null && mapping[s.column] !== undefined).map((s) => s.column),
    ...(mapping[FULL_NAME] !== null && mapping[FULL_NAME] !== undefined ? [FULL_NAME] : [])];
  const badRows = [...new Set(issues.map((i) => i.row).filter((r): r is number => r !== null))];
  const gridRows = [...new Set([...badRows.slice(0, 50), ...Array.from({ length: Math.min(GRID_ROWS, table.rows.length) }, (_, i) => i)])].sort((a, b) => a - b);
  const listIssues = issues.filter((i) => i.row === null && i.sheetRow === undefined);
  const cellId = (r: number, t: string) => `cell-${r}-${t.replace(/[^A-Za-z0-9_]/g, '-')}`;
  const issueAt = (r: number, t: string) => issues.filter((i) => i.row === r && (i.target === t || (i.target === null && t === PHONE)));

  return (
    <div class="check-step">
      <div class="row">
        <span class={`badge ${issues.length ? 'red' : checked ? 'green' : 'grey'}`} data-testid="check-state">
          {issues.length ? `${issues.length} problem${issues.length === 1 ? '' : 's'}` : checked ? 'Checked by the service' : checking ? 'Checking…' : 'Not checked yet'}
        </span>
        <span class="muted">
          {bigFile
            ? (checked ? `${checked.rows.toLocaleString('en-US')} recipients in the file, ${checked.duplicates_removed.toLocaleString('en-US')} duplicates` : 'The service checks every row of the file')
            : `${table.rows.length.toLocaleString('en-US')} rows${duplicates ? `, ${duplicates} duplicate number${duplicates === 1 ? '' : 's'} (sent once)` : ''}`}
        </span>
        <span class="spacer" />
        <button type="button" class="button" onClick={onCheck} disabled={checking}>{checking ? 'Checking…' : 'Check with the service'}</button>
      </div>
      {listIssues.map((i, k) => <p key={k} class="alert error" role="alert">{i.message}</p>)}
      {issues.some((i) => i.row !== null || i.sheetRow !== undefined) && (
        <div class="issues" role="region" aria-label="Problems to fix">
          <h3>Fix these before sending</h3>
          {bigFile && <p class="small">Fix them in the file and choose it again.</p>}
          <ul data-testid="issues">
            {issues.filter((i) => i.sheetRow !== undefined).slice(0, 100).map((i, k) => (
              <li key={`s${k}`}>Sheet row {i.sheetRow}, {targetLabel(i.target)}: {i.message}</li>
            ))}
            {issues.filter((i) => i.row !== null).slice(0, 100).map((i, k) => (
              <li key={k}>
                <a href={`#${cellId(i.row!, i.target ?? PHONE)}`} onClick={(e) => { e.preventDefault(); document.getElementById(cellId(i.row!, i.target ?? PHONE))?.focus(); }}>
                  Row {i.row! + 1}, {targetLabel(i.target)}
                </a>: {i.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      <h3>First messages</h3>
      <div class="preview-row">
        {Array.from({ length: Math.min(PREVIEW_MESSAGES, table.rows.length) }, (_, r) => (
          <div key={r} class="preview-item">
            <p class="muted small">Row {r + 1} → {cellOf(table, mapping, r, PHONE) || '(no number)'}</p>
            <MessagePreview message={renderMessage(template.components, (c) => cellOf(table, mapping, r, c) || undefined)} label={`Message for row ${r + 1}`} />
          </div>
        ))}
      </div>
      <h3>Rows</h3>
      <p class="muted small">
        {bigFile
          ? `The first ${Math.min(GRID_ROWS, table.rows.length)} rows of the file (read only: the file is sent as it is).`
          : `The first ${Math.min(GRID_ROWS, table.rows.length)} rows and every row with a problem. Edit a cell to fix it; the list is checked again before sending.`}
      </p>
      <div class="table-wrap">
        <table class="grid" aria-label="Recipient rows">
          <thead>
            <tr><th scope="col">Row</th>{targets.map((t) => <th key={t} scope="col">{t === PHONE ? 'Phone' : t === FULL_NAME ? 'Name' : t}</th>)}</tr>
          </thead>
          <tbody>
            {gridRows.map((r) => (
              <tr key={r} class={badRows.includes(r) ? 'bad' : ''} data-row={r + 1}>
                <th scope="row">{r + 1}</th>
                {targets.map((t) => {
                  const problems = issueAt(r, t);
                  return (
                    <td key={t}>
                      <input id={cellId(r, t)} value={cellOf(table, mapping, r, t)} readOnly={bigFile} aria-label={`Row ${r + 1} ${targetLabel(t)}`}
                        aria-invalid={problems.length ? true : undefined} title={problems.map((p) => p.message).join(' ') || undefined}
                        onChange={(e) => onEdit(r, t, (e.target as HTMLInputElement).value)} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

/** Step 7: what will happen, from the service's dry run. */
function ConfirmStep({ channelLabel, tier, template, checked, totalTime, starting, onStart }: {
  channelLabel: string; tier: string; template: ApiTemplate; checked: DryRun | null; totalTime: number; starting: boolean; onStart: () => void;
}) {
  if (!checked) return <p class="alert warn">The list changed since it was checked: go back to “Preview & check”.</p>;
  const short = checked.tier_quota_left !== null && checked.tier_quota_needed > checked.tier_quota_left;
  return (
    <>
      <dl class="summary" data-testid="confirm-summary">
        <dt>Channel</dt><dd>{channelLabel}</dd>
        <dt>Template</dt><dd>{template.name} ({template.language})</dd>
        <dt>Messages</dt><dd data-testid="confirm-count">{checked.rows.toLocaleString('en-US')}</dd>
        <dt>Duplicates removed</dt><dd data-testid="confirm-duplicates">{checked.duplicates_removed.toLocaleString('en-US')}</dd>
        <dt>Tier quota needed</dt><dd>{checked.tier_quota_needed.toLocaleString('en-US')} new recipient{checked.tier_quota_needed === 1 ? '' : 's'}</dd>
        <dt>Tier quota left</dt><dd>{checked.tier_quota_left === null ? `no cap (${tier})` : `${checked.tier_quota_left.toLocaleString('en-US')} of ${tier}`}</dd>
        <dt>Pacing</dt><dd>{totalTime === 0 ? 'as fast as the channel allows' : `over ${duration(totalTime)}`}</dd>
      </dl>
      {short && (
        <p class="alert warn" role="status">The tier allows {checked.tier_quota_left} more new recipients in the rolling 24 hours; the rest wait until earlier sends age out of the window.</p>
      )}
      <button type="button" class="button primary" onClick={onStart} disabled={starting}>{starting ? 'Starting…' : `Start sending ${checked.rows.toLocaleString('en-US')} message${checked.rows === 1 ? '' : 's'}`}</button>
    </>
  );
}
