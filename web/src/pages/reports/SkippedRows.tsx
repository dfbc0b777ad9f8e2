/** A bulk send's rows that its start left out as invalid (skip_invalid_rows): counted, and listed on demand. */
import { useState } from 'preact/hooks';
import { apiFetch, errorText } from '../../http';
import { fmtNumber } from '../../format';
import type { paths } from '../../generated/api';

type Skipped = paths['/agent-app/message-template/send-wizard/reports/skipped']['post']['responses'][200]['content']['application/json'];

/** Rows listed at most (the count covers all of them). */
const SHOWN = 100;

export function SkippedRows({ id, count }: { id: string; count: number }) {
  const [rows, setRows] = useState<Skipped['data']['skipped_rows'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (count === 0) return null;
  const load = () => {
    if (rows) return;
    apiFetch<Skipped>('/agent-app/message-template/send-wizard/reports/skipped', { method: 'POST', json: { id, data: { page: 1, page_size: SHOWN } } })
      .then((b) => setRows(b.data.skipped_rows))
      .catch((e) => setError(errorText(e)));
  };
  return (
    <details class="skipped-rows" onToggle={(e) => (e.currentTarget as HTMLDetailsElement).open && load()}>
      <summary data-testid="skipped-count">{fmtNumber(count)} row{count === 1 ? '' : 's'} left out as invalid</summary>
      {error && <p class="alert error small">{error}</p>}
      {rows && (
        <ul class="small" data-testid="skipped-rows">
          {rows.map((r) => <li key={`${r.row}-${r.message}`}>Row {r.row}{r.phone_number ? ` (${r.phone_number})` : ''}: {r.message}</li>)}
          {count > rows.length && <li class="muted">…and {fmtNumber(count - rows.length)} more.</li>}
        </ul>
      )}
    </details>
  );
}
