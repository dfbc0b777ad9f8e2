/** Previous / next paging with the range shown and a page to jump to. */
import { useState } from 'preact/hooks';
import { fmtNumber } from '../format';

export function Pager(props: { label: string; page: number; pageSize: number; total: number; shown: number; onPage: (page: number) => void; disabled?: boolean }) {
  const { page, pageSize, total, shown } = props;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const from = total === 0 || shown === 0 ? 0 : (page - 1) * pageSize + 1;
  const to = shown === 0 ? 0 : from + shown - 1;
  const [jump, setJump] = useState('');
  return (
    <nav class="pager" aria-label={props.label}>
      <span class="pager-range" aria-live="polite">
        {total === 0 ? 'No rows' : `${fmtNumber(from)}–${fmtNumber(to)} of ${fmtNumber(total)}`}
      </span>
      <div class="row">
        <button type="button" class="button small" onClick={() => props.onPage(1)} disabled={props.disabled || page <= 1} aria-label="First page">«</button>
        <button type="button" class="button small" onClick={() => props.onPage(page - 1)} disabled={props.disabled || page <= 1}>Previous</button>
        <span class="pager-page">Page {fmtNumber(page)} of {fmtNumber(pages)}</span>
        <button type="button" class="button small" onClick={() => props.onPage(page + 1)} disabled={props.disabled || page >= pages}>Next</button>
        {pages > 2 && (
          <form
            class="row"
            onSubmit={(e) => {
              e.preventDefault();
              const n = Number(jump);
              if (Number.isInteger(n) && n >= 1 && n <= pages) props.onPage(n);
            }}
          >
            <label class="inline-field">
              <span>Go to page</span>
              <input type="number" min={1} max={pages} value={jump} onInput={(e) => setJump((e.target as HTMLInputElement).value)} class="page-input" />
            </label>
            <button type="submit" class="button small">Go</button>
          </form>
        )}
      </div>
    </nav>
  );
}
