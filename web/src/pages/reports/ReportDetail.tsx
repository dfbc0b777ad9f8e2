/**
 * The rows of one bulk send: status filter, paging (by row-number keyset once the previous page is known,
 * so walking a 1M-row send stays as fast as its first page), export of the (filtered) detail as CSV or XLSX.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Pagination, ReportRow, SendWizard } from '../../api-types';
import { messageStatusTone, PlainBadge } from '../../components/Badge';
import { Pager } from '../../components/Pager';
import { useLoad, useReloadOnChange } from '../../data';
import { fmtNumber, fmtTime } from '../../format';
import { MESSAGE_STATUS_NAMES, MESSAGE_STATUS_ORDER, messageStatusName } from '../../plain-names';
import { apiDownload, apiFetch, errorText } from '../../http';
import { href } from '../../router';
import { SendTimeline } from './SendTimeline';

const PAGE_SIZE = 50;
const DETAIL_PATH = '/agent-app/message-template/send-wizard/reports/detail';

/** The time of the row's latest step. */
function lastTime(r: ReportRow): string | undefined {
  return r.failed_time ?? r.seen_time ?? r.delivered_time ?? r.sended_time ?? r.backend_sended_time;
}

export function ReportDetail(props: { id: string; send: SendWizard | null; version: string; onClose: () => void }) {
  const [status, setStatus] = useState('');
  const [page, setPage] = useState(1);
  // after_row cursor of each page reached by Next (page 1 needs none): keyset paging from there on.
  const cursors = useRef(new Map<number, number>());
  const [exporting, setExporting] = useState<string | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const detail = useLoad(async () => {
    const after = cursors.current.get(page);
    const data: Record<string, number> = { page, page_size: PAGE_SIZE };
    if (after !== undefined) data.after_row = after;
    return apiFetch<{ data: { report_details: ReportRow[] }; pagination: Pagination }>(DETAIL_PATH, {
      method: 'POST',
      json: { id: props.id, data, ...(status ? { status } : {}) },
    });
  }, [props.id, status, page]);

  // The list's counters changed: read this page again (rows move between statuses while a send runs).
  useReloadOnChange(props.version, detail.reload);

  useEffect(() => {
    headingRef.current?.focus();
  }, [props.id]);

  const rows = detail.data?.data.report_details ?? [];
  // The user ID column shows when a row of the page has one (customers known by BSUID).
  const byUserId = rows.some((r) => r.user_id !== null);
  const total = detail.data?.pagination.total ?? 0;

  const goTo = (next: number) => {
    if (next === page + 1 && rows.length > 0) cursors.current.set(next, rows[rows.length - 1].row);
    setPage(next);
  };

  const changeStatus = (value: string) => {
    cursors.current.clear();
    setStatus(value);
    setPage(1);
  };

  const exportAs = async (format: 'csv' | 'xlsx') => {
    setExporting(format);
    setExportError(null);
    try {
      const q = new URLSearchParams({ id: props.id, format });
      if (status) q.set('status', status);
      await apiDownload(`${DETAIL_PATH}/export?${q}`, `report-${props.id}${status ? `-${status}` : ''}.${format}`);
    } catch (err) {
      setExportError(`The export failed: ${errorText(err)}`);
    } finally {
      setExporting(null);
    }
  };

  return (
    <section class="card detail" aria-labelledby="detail-title" data-testid="report-detail">
      <div class="page-head">
        <div>
          <h2 id="detail-title" ref={headingRef} tabIndex={-1}>
            Detail{props.send ? `: ${props.send.send_name ?? props.send.name}` : ''}
          </h2>
          <p class="muted small">Bulk send <span class="mono">{props.id}</span>, one row per recipient in file order.</p>
        </div>
        <button type="button" class="button small ghost" onClick={props.onClose}>Close detail</button>
      </div>
      <SendTimeline id={props.id} version={props.version} />
      <div class="toolbar">
        <label class="field">
          <span>Status</span>
          <select value={status} onChange={(e) => changeStatus((e.target as HTMLSelectElement).value)}>
            <option value="">All statuses</option>
            {MESSAGE_STATUS_ORDER.map((value) => (
              <option key={value} value={value} title={value}>{messageStatusName(value)}</option>
            ))}
          </select>
        </label>
        <div class="spacer" />
        <div class="row" role="group" aria-label="Export">
          <button type="button" class="button" onClick={() => exportAs('csv')} disabled={exporting !== null}>
            {exporting === 'csv' ? 'Exporting…' : 'Export CSV'}
          </button>
          <button type="button" class="button" onClick={() => exportAs('xlsx')} disabled={exporting !== null}>
            {exporting === 'xlsx' ? 'Exporting…' : 'Export XLSX'}
          </button>
        </div>
      </div>
      {exportError && <p class="alert error" role="alert">{exportError}</p>}
      {detail.error && <p class="alert error" role="alert">Could not load the rows: {detail.error}</p>}
      <div class="table-wrap" aria-busy={detail.loading}>
        <table data-testid="report-rows">
          <caption class="visually-hidden">Rows of the bulk send{status ? `: ${messageStatusName(status)}` : ''}</caption>
          <thead>
            <tr>
              <th scope="col" class="num">Row</th>
              <th scope="col">Phone</th>
              {byUserId && <th scope="col" title="user_id: the business-scoped user id WhatsApp gave the customer">User ID</th>}
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Handed to WhatsApp</th>
              <th scope="col">Last update</th>
              <th scope="col">Error</th>
              <th scope="col">Message</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.message_id} data-row={r.row}>
                <td class="num">{r.row}</td>
                <td class="mono nowrap">{r.phone_number ?? '—'}</td>
                {byUserId && <td class="mono nowrap">{r.user_id ?? '—'}{r.username ? <div class="muted small">{r.username}</div> : null}</td>}
                <td class="nowrap">{r.full_name ?? "—"}</td>
                <td><PlainBadge tone={messageStatusTone(r.status)} names={MESSAGE_STATUS_NAMES} code={r.status} /></td>
                <td class="nowrap">{fmtTime(r.backend_sended_time)}</td>
                <td class="nowrap">{fmtTime(lastTime(r))}</td>
                <td class="error-cell">
                  {r.error_message ? <span title={r.error_message_detail}>{r.error_message}</span> : '—'}
                  {r.error_message_detail && r.error_message_detail !== r.error_message && <div class="muted small">{r.error_message_detail}</div>}
                </td>
                <td><a class="mono small" href={href('/lookup', { ids: r.message_id })}>Look up</a></td>
              </tr>
            ))}
            {!detail.loading && rows.length === 0 && (
              <tr><td colSpan={byUserId ? 9 : 8} class="muted">No rows{status ? ` with the status “${messageStatusName(status)}”` : ''}.</td></tr>
            )}
          </tbody>
        </table>
      </div>
      <Pager label="Detail pages" page={page} pageSize={PAGE_SIZE} total={total} shown={rows.length} onPage={goTo} disabled={detail.loading} />
      <p class="muted small">{fmtNumber(total)} rows{status ? ` with the status “${messageStatusName(status)}”` : ''}.</p>
    </section>
  );
}
