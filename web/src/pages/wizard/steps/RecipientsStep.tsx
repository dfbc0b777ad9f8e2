/** Step 3: the recipient list, from a CSV / XLSX file or pasted from a spreadsheet. */
import { sampleHeaders } from '../mapping';
import { saveBlob } from '../../../http';
import { sampleCsv, sampleRows, sampleXlsx } from '../sample-file';
import type { Wizard } from '../useWizard';

export function RecipientsStep({ w }: { w: Wizard }) {
  const { table, bigFile, source, pasted } = w.state;
  const { slots, template } = w;
  const sample = (format: 'csv' | 'xlsx') => {
    if (!template) return;
    const rows = sampleRows(template.components, slots);
    if (format === 'csv') saveBlob(new Blob([sampleCsv(rows)], { type: 'text/csv;charset=utf-8' }), `${template.name}-recipients.csv`);
    else saveBlob(new Blob([sampleXlsx(rows) as BlobPart], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }), `${template.name}-recipients.xlsx`);
  };
  return (
    <div class="wiz-split">
      {template && (
        <p class="sample-line">
          <span>A sample list for {template.name}, with its columns and an example row:</span>
          <button type="button" class="button small" onClick={() => sample('csv')}>Download CSV</button>
          <button type="button" class="button small" onClick={() => sample('xlsx')}>Download Excel (.xlsx)</button>
        </p>
      )}
      <div class="field">
        <label for="wiz-file">A CSV or Excel (.xlsx) file</label>
        <input id="wiz-file" type="file" accept=".csv,.xlsx,.txt,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" aria-describedby="wiz-file-hint"
          onChange={(e) => w.onFile((e.target as HTMLInputElement).files?.[0])} />
        <small id="wiz-file-hint" class="muted">The first row names the columns: the phone number, a name if you like, and {slots.length ? `one column for each of the ${slots.length} value${slots.length === 1 ? '' : 's'} the template needs` : 'nothing else for this template'}. The first sheet of a workbook is read.</small>
      </div>
      <div class="field">
        <label for="wiz-paste">Or paste a list (from a spreadsheet, or comma separated)</label>
        <textarea id="wiz-paste" rows={5} value={pasted} placeholder={sampleHeaders(slots).join(', ')}
          onInput={(e) => w.dispatch({ type: 'pastedEdited', text: (e.target as HTMLTextAreaElement).value })} />
        <div class="row"><button type="button" class="button" onClick={w.onPaste} disabled={!pasted.trim()}>Use pasted list</button></div>
      </div>
      {table && !bigFile && <p class="alert info" role="status" data-testid="list-summary">Read {table.rows.length.toLocaleString('en-US')} rows and {table.headers.length} columns from the {source}.</p>}
      {table && bigFile && (
        <p class="alert info" role="status" data-testid="list-summary">
          {source} is large ({bigFile.rows === null ? `${(bigFile.file.size / 1048576).toFixed(1)} MB` : `${bigFile.rows.toLocaleString('en-US')} rows`}): it goes to the service as a file, which checks every row. The first {table.rows.length} rows are shown here.
        </p>
      )}
    </div>
  );
}
