/** Step 5: the first rows as messages, every problem listed, the cells editable, the service's verdict. */
import { renderMessage } from '../../templates/message';
import { MessagePreview } from '../../templates/MessagePreview';
import { cellOf, FULL_NAME, isFixed, PHONE, USER_ID } from '../mapping';
import type { Wizard } from '../useWizard';

const PREVIEW_MESSAGES = 3;
const GRID_ROWS = 20;

export function CheckStep({ w }: { w: Wizard }) {
  const { table, mapping, checked, checking } = w.state;
  const { template, slots, issues, duplicates, targetLabel } = w;
  if (!table || !template) return null;
  const bigFile = w.state.bigFile !== null;
  const skipInvalid = w.state.skipInvalid;
  const skippedCount = checked?.skipped_count ?? 0;
  const skipping = skipInvalid && checked !== null && skippedCount > 0;
  const onEdit = (row: number, target: string, value: string) => w.dispatch({ type: 'cellEdited', row, target, value });
  const mapped = (t: string) => mapping[t] !== null && mapping[t] !== undefined;
  // The phone column is shown unless the list names its recipients by BSUID only.
  const targets = [...(mapped(PHONE) || !mapped(USER_ID) ? [PHONE] : []), ...(mapped(USER_ID) ? [USER_ID] : []),
    ...slots.filter((s) => mapped(s.column)).map((s) => s.column), ...(mapped(FULL_NAME) ? [FULL_NAME] : [])];
  const recipientOf = (r: number) => cellOf(table, mapping, r, PHONE) || cellOf(table, mapping, r, USER_ID) || '(no recipient)';
  const badRows = [...new Set(issues.map((i) => i.row).filter((r): r is number => r !== null))];
  const gridRows = [...new Set([...badRows.slice(0, 50), ...Array.from({ length: Math.min(GRID_ROWS, table.rows.length) }, (_, i) => i)])].sort((a, b) => a - b);
  const listIssues = issues.filter((i) => i.row === null && i.sheetRow === undefined);
  const cellId = (r: number, t: string) => `cell-${r}-${t.replace(/[^A-Za-z0-9_]/g, '-')}`;
  const issueAt = (r: number, t: string) => issues.filter((i) => i.row === r && (i.target === t || (i.target === null && t === PHONE)));

  return (
    <div class="check-step">
      <div class="row">
        <span class={`badge ${skipping ? 'yellow' : issues.length ? 'red' : checked ? 'green' : 'grey'}`} data-testid="check-state">
          {skipping
            ? `Checked: ${skippedCount.toLocaleString('en-US')} row${skippedCount === 1 ? '' : 's'} will be left out`
            : issues.length ? `${issues.length} problem${issues.length === 1 ? '' : 's'}` : checked ? 'Checked by the service' : checking ? 'Checking…' : 'Not checked yet'}
        </span>
        <span class="muted">
          {bigFile
            ? (checked ? `${checked.summary.toLocaleString('en-US')} recipients in the file, ${checked.duplicate_count.toLocaleString('en-US')} duplicates` : 'The service checks every row of the file')
            : `${table.rows.length.toLocaleString('en-US')} rows${duplicates ? `, ${duplicates} duplicate number${duplicates === 1 ? '' : 's'} (sent once)` : ''}`}
        </span>
        <span class="spacer" />
        <button type="button" class="button" onClick={w.check} disabled={checking}>{checking ? 'Checking…' : 'Check with the service'}</button>
      </div>
      {(issues.length > 0 || skipInvalid) && (
        <label class="check skip-choice">
          <input type="checkbox" checked={skipInvalid} onChange={(e) => w.dispatch({ type: 'skipChosen', skip: (e.target as HTMLInputElement).checked })} />
          {' '}Leave out the rows with problems and send the rest (they are counted and listed in the report)
        </label>
      )}
      {listIssues.map((i, k) => <p key={k} class="alert error" role="alert">{i.message}</p>)}
      {issues.some((i) => i.row !== null || i.sheetRow !== undefined) && (
        <div class="issues" role="region" aria-label={skipInvalid ? 'Rows left out' : 'Problems to fix'}>
          <h3>{skipInvalid ? 'These rows will be left out (or fix them here)' : 'Fix these before sending'}</h3>
          {bigFile && <p class="small">{skipInvalid ? 'The service checks the whole file; the first 100 are listed.' : 'Fix them in the file and choose it again.'}</p>}
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
            <p class="muted small">Row {r + 1} → {recipientOf(r)}</p>
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
            <tr><th scope="col">Row</th>{targets.map((t) => <th key={t} scope="col" title={t === PHONE || t === FULL_NAME ? undefined : t}>{t === PHONE ? 'Phone' : t === USER_ID ? 'User ID' : t === FULL_NAME ? 'Name' : targetLabel(t)}</th>)}</tr>
          </thead>
          <tbody>
            {gridRows.map((r) => (
              <tr key={r} class={badRows.includes(r) ? 'bad' : ''} data-row={r + 1}>
                <th scope="row">{r + 1}</th>
                {targets.map((t) => {
                  const problems = issueAt(r, t);
                  return (
                    <td key={t}>
                      <input id={cellId(r, t)} value={cellOf(table, mapping, r, t)} readOnly={bigFile || isFixed(mapping[t])} aria-label={`Row ${r + 1} ${targetLabel(t)}`}
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
