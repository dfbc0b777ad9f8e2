/** Step 4: which column of the list feeds the phone number (or the BSUID), each of the template's values and the name. */
import { FULL_NAME, isFixed, PHONE, USER_ID, type Mapping } from '../mapping';
import type { Table } from '../table';
import type { Wizard } from '../useWizard';

/** The select's value for "the same value for every row". */
const FIXED_OPTION = 'fixed';

/** How many of a column's first values are shown under its choice. */
const EXAMPLES = 3;

/** The first non-empty values of a column (none when no column is chosen). */
function examplesOf(table: Table, column: Mapping[string] | undefined): string[] {
  if (typeof column !== 'number') return [];
  const values: string[] = [];
  for (const row of table.rows) {
    if (values.length >= EXAMPLES) break;
    if (row[column]?.trim()) values.push(row[column]);
  }
  return values;
}

/** A column's example values, whole (they wrap; nothing is cut off). */
function Examples({ id, values }: { id: string; values: string[] }) {
  if (values.length === 0) return null;
  return (
    <small id={id} class="examples muted" data-testid="column-examples">
      e.g. {values.map((v) => `“${v}”`).join(', ')}
    </small>
  );
}

export function ColumnsStep({ w }: { w: Wizard }) {
  const { table, mapping, bigFile } = w.state;
  const { slots, missing } = w;
  if (!table) return null;
  // A customer known only by the BSUID the network gave is sent to by it: with a user ID column the phone is optional.
  const byUserId = mapping[USER_ID] !== null && mapping[USER_ID] !== undefined;
  const targets = [
    { column: PHONE, label: byUserId ? 'Phone number (with country code; optional with a user ID)' : 'Phone number (with country code)', optional: byUserId },
    { column: USER_ID, label: 'WhatsApp user ID (BSUID, optional)', optional: true },
    ...slots,
    { column: FULL_NAME, label: 'Recipient name (optional)', optional: true },
  ];
  return (
    <>
      <p class="muted">Choose the column of your list that holds each value. Columns whose names match were chosen already.</p>
      <div class="mapping-grid">
        {targets.map((t) => {
          const id = `map-${t.column}`;
          const source = mapping[t.column];
          const fixed = isFixed(source);
          // A fixed value is offered for the template's values and the name, and not for a file sent as it is.
          const canFix = t.column !== PHONE && t.column !== USER_ID && !bigFile;
          const examples = fixed ? [] : examplesOf(table, source);
          const map = (column: Mapping[string]) => w.dispatch({ type: 'targetMapped', target: t.column, column });
          return (
            <div key={t.column} class="field">
              <label for={id} title={t.column === USER_ID ? 'user_id: the business-scoped user id, e.g. US.13491208655302741918' : t.column !== PHONE && t.column !== FULL_NAME ? t.column : undefined}>{t.label}</label>
              <select id={id} value={fixed ? FIXED_OPTION : (source ?? '')} aria-invalid={!t.optional && (source ?? null) === null ? true : undefined}
                aria-describedby={examples.length ? `${id}-examples` : undefined}
                onChange={(e) => {
                  const v = (e.target as HTMLSelectElement).value;
                  map(v === '' ? null : v === FIXED_OPTION ? { fixed: '' } : Number(v));
                }}>
                <option value="">{t.optional ? '— none —' : '— choose a column —'}</option>
                {table.headers.map((h, k) => <option key={k} value={k}>{h}</option>)}
                {canFix && <option value={FIXED_OPTION}>The same value for every row…</option>}
              </select>
              {fixed && (
                <input id={`${id}-fixed`} class="fixed-value" type="text" value={source.fixed} aria-label={`${t.label}: the value for every row`}
                  placeholder="The value for every row" onInput={(e) => map({ fixed: (e.target as HTMLInputElement).value })} />
              )}
              <Examples id={`${id}-examples`} values={examples} />
            </div>
          );
        })}
      </div>
      {missing.length > 0 && <p class="alert warn" role="status">Choose a column for: {missing.map(w.targetLabel).join('; ')}.</p>}
    </>
  );
}
