/** Step 4: which column of the list feeds the phone number, each of the template's values and the name. */
import { FULL_NAME, PHONE } from '../mapping';
import type { Wizard } from '../useWizard';

export function ColumnsStep({ w }: { w: Wizard }) {
  const { table, mapping } = w.state;
  const { slots, missing } = w;
  if (!table) return null;
  const targets = [{ column: PHONE, label: 'Phone number (with country code)', optional: false }, ...slots, { column: FULL_NAME, label: 'Recipient name (optional)', optional: true }];
  return (
    <>
      <p class="muted">Each target takes one column of your list. Columns named like the targets were chosen already.</p>
      <div class="mapping-grid">
        {targets.map((t) => (
          <label key={t.column} class="field" for={`map-${t.column}`}>
            <span>{t.label}{t.column !== PHONE && t.column !== FULL_NAME && <code class="muted"> {t.column}</code>}</span>
            <select id={`map-${t.column}`} value={mapping[t.column] ?? ''} aria-invalid={!t.optional && (mapping[t.column] ?? null) === null ? true : undefined}
              onChange={(e) => {
                const v = (e.target as HTMLSelectElement).value;
                w.dispatch({ type: 'targetMapped', target: t.column, column: v === '' ? null : Number(v) });
              }}>
              <option value="">{t.optional ? '— none —' : '— choose a column —'}</option>
              {table.headers.map((h, k) => <option key={k} value={k}>{h} (e.g. {table.rows[0]?.[k] || 'empty'})</option>)}
            </select>
          </label>
        ))}
      </div>
      {missing.length > 0 && <p class="alert warn" role="status">Choose a column for: {missing.map(w.targetLabel).join('; ')}.</p>}
    </>
  );
}
