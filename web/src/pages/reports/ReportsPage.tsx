/**
 * Reports: a channel's bulk sends with live counters (polled every 2 s while one is active), stop with a
 * confirmation, and the detail of the selected send (#/reports?channel=<id>&id=<send_wizard_id>).
 */
import { Fragment } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { Pagination, SendWizard } from '../../api-types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pager } from '../../components/Pager';
import { useChannels, useLoad } from '../../data';
import { fmtNumber } from '../../format';
import { sendStatusName } from '../../plain-names';
import { apiFetch, errorText } from '../../http';
import { href, replaceQuery, useRoute } from '../../router';
import { ReportDetail } from './ReportDetail';
import { isMoving, SendCard, type SendAction } from './SendCard';

/** How often the list is read while a send is active, and otherwise (a send started elsewhere shows up). */
const POLL_MS = 2000;
const IDLE_POLL_MS = 10_000;
const LIST_PAGE_SIZE = 10;

export function ReportsPage() {
  const route = useRoute();
  const channels = useChannels();
  const channelId = route.query.get('channel') ?? channels.data?.[0]?.id ?? null;
  const selectedId = route.query.get('id');
  const page = Math.max(1, Number(route.query.get('page') ?? '1') || 1);
  const query = (changes: Record<string, string | number | null>) => ({ channel: channelId, page: page > 1 ? page : null, id: selectedId, ...changes });

  const list = useLoad(async () => {
    if (!channelId) return null;
    return apiFetch<{ items: SendWizard[]; pagination: Pagination }>('/agent-app/message-template/send-wizard/reports', {
      method: 'POST',
      json: { channel_id: channelId, page, page_size: LIST_PAGE_SIZE },
    });
  }, [channelId, page]);

  // Live counters: read the list again every 2 s while any send on it is moving (10 s otherwise).
  const active = list.data?.items.some(isMoving) ?? false;
  useEffect(() => {
    if (list.loading || !channelId) return;
    const timer = setTimeout(() => void list.reload(), active ? POLL_MS : IDLE_POLL_MS);
    return () => clearTimeout(timer);
  }, [active, list.loading, list.data, channelId]);

  const [confirming, setConfirming] = useState<{ action: 'stop' | 'retry'; send: SendWizard } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ kind: 'info' | 'error'; text: string } | null>(null);

  /** Calls a bulk-send action route and says what happened. */
  const run = async (action: SendAction, w: SendWizard) => {
    const title = w.send_name ?? w.name;
    setBusy(true);
    try {
      const res = await apiFetch<{ data: Record<string, unknown> }>(`/agent-app/message-template/send-wizard/${action}`, {
        method: 'POST',
        json: { send_wizard_id: w.send_wizard_id, channel_id: w.channel_id },
      });
      const d = res.data;
      const text =
        action === 'stop'
          ? `Stopped “${title}”: ${fmtNumber(Number(d.cancelled_count) + Number(d.cancelling_count ?? 0))} messages not yet handed to WhatsApp ${Number(d.cancelling_count ?? 0) > 0 ? 'are being cancelled' : 'were cancelled'}.`
          : action === 'pause'
            ? `Paused “${title}”: ${fmtNumber(Number(d.parked_count))} messages wait until you resume.`
            : action === 'resume'
              ? `Resumed “${title}” (${sendStatusName(String(d.status))}).`
              : `Retrying ${fmtNumber(Number(d.summary))} failed rows of “${title}” as a new bulk send.`;
      setNotice({ kind: 'info', text });
    } catch (err) {
      setNotice({ kind: 'error', text: `Could not ${action} “${title}”: ${errorText(err)}` });
    } finally {
      setBusy(false);
      setConfirming(null);
      void list.reload();
    }
  };

  const onAction = (action: SendAction, w: SendWizard) => {
    if (action === 'stop' || action === 'retry') setConfirming({ action, send: w });
    else void run(action, w);
  };

  const items = list.data?.items ?? [];
  const selected = items.find((w) => w.send_wizard_id === selectedId) ?? null;
  // Changes of the selected send's counters make the detail table read its page again.
  const version = selected ? [selected.status, selected.queued, selected.awaiting_backend_count, selected.delivered_count, selected.sent_count, selected.seen_count, selected.failed_count, selected.cancelled_count].join('/') : '';

  return (
    <section class="page" aria-labelledby="reports-title">
      <div class="page-head">
        <div>
          <h1 id="reports-title">Reports</h1>
          <p class="muted">Bulk sends of a channel, newest first. Counters update by themselves while a send runs.</p>
        </div>
        <div class="toolbar">
          <label class="field">
            <span>Channel</span>
            <select
              value={channelId ?? ''}
              onChange={(e) => replaceQuery('/reports', { channel: (e.target as HTMLSelectElement).value })}
              disabled={!channels.data}
            >
              {channels.data?.map((c) => (
                <option key={c.id} value={c.id}>{`${c.verified_name || c.display_phone_number} (${c.display_phone_number})`}</option>
              ))}
            </select>
          </label>
          <button type="button" class="button" onClick={() => list.reload()} disabled={list.loading}>Refresh</button>
        </div>
      </div>
      {channels.error && <p class="alert error" role="alert">Could not load the channels: {channels.error}</p>}
      {list.error && <p class="alert error" role="alert">Could not load the bulk sends: {list.error}</p>}
      {notice && (
        <p class={`alert ${notice.kind}`} role={notice.kind === 'error' ? 'alert' : 'status'}>
          {notice.text}{' '}
          <button type="button" class="button small ghost" onClick={() => setNotice(null)}>Dismiss</button>
        </p>
      )}
      <p class="visually-hidden" aria-live="polite">{active ? 'A bulk send is running; counters refresh every 2 seconds.' : ''}</p>
      {list.data && items.length === 0 && (
        <p class="alert info">No bulk sends on this channel yet. <a href="#/send">Start one</a>.</p>
      )}
      <div class="send-list">
        {items.map((w) => (
          <Fragment key={w.send_wizard_id}>
            <SendCard
              send={w}
              selected={w.send_wizard_id === selectedId}
              detailHref={href('/reports', query({ id: w.send_wizard_id === selectedId ? null : w.send_wizard_id }))}
              busy={busy}
              onAction={onAction}
            />
            {w.send_wizard_id === selectedId && (
              <ReportDetail key={selectedId} id={selectedId} send={w} version={version} onClose={() => replaceQuery('/reports', query({ id: null }))} />
            )}
          </Fragment>
        ))}
      </div>
      {list.data && list.data.pagination.total > LIST_PAGE_SIZE && (
        <Pager
          label="Bulk send pages"
          page={page}
          pageSize={LIST_PAGE_SIZE}
          total={list.data.pagination.total}
          shown={items.length}
          onPage={(p) => replaceQuery('/reports', query({ page: p }))}
        />
      )}
      {selectedId && !selected && list.data && (
        <ReportDetail key={selectedId} id={selectedId} send={null} version={version} onClose={() => replaceQuery('/reports', query({ id: null }))} />
      )}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.action === 'retry' ? 'Retry the failed rows?' : 'Stop this bulk send?'}
        confirmLabel={confirming?.action === 'retry' ? 'Start the retry' : 'Stop bulk send'}
        danger={confirming?.action !== 'retry'}
        busy={busy}
        onConfirm={() => confirming && void run(confirming.action, confirming.send)}
        onCancel={() => setConfirming(null)}
      >
        {confirming?.action === 'stop' && (
          <p>
            “{confirming.send.send_name ?? confirming.send.name}” ({fmtNumber(confirming.send.summary)} rows): every message not yet handed to WhatsApp is cancelled at once.
            Messages WhatsApp already has still get their delivered and read updates. This cannot be undone.
          </p>
        )}
        {confirming?.action === 'retry' && (
          <p>
            A new bulk send of “{confirming.send.send_name ?? confirming.send.name}” takes the {fmtNumber(confirming.send.failed_count)} failed rows and sends them now. Rows the
            network may already have (accepted before a timeout, outcome unknown) are left out.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
