/** One bulk send: status, progress bar, the funnel in WhatsApp's order (sent → delivered → read) with rates, failures apart. */
import { QUEUEING_STATUSES, STORING_STATUS } from '../../../../src/domain/bulk-send-states.js';
import type { SendWizard } from '../../api-types';
import { PlainBadge, sendStatusTone } from '../../components/Badge';
import { SendCost } from './SendCost';
import { SkippedRows } from './SkippedRows';
import { fmtDuration, fmtNumber, fmtTime } from '../../format';
import { FUNNEL_STAGES, fmtRate, funnelRates, PRE_FUNNEL_STAGES, SEND_STATUS_NAMES } from '../../plain-names';

/** Statuses whose counters may move any second: storing its rows, or rows being queued (the service's own list). */
const MOVING_STATUSES: readonly string[] = [STORING_STATUS, ...QUEUEING_STATUSES];

/** Whether its counters may move any second (the list is then read every 2 s). */
export function isMoving(w: SendWizard): boolean {
  return MOVING_STATUSES.includes(w.status);
}

/** What a user can do to a bulk send from its card (the server's `allowed_actions`). */
export type SendAction = SendWizard['allowed_actions'][number];

/** Each action's button, in the order the card shows them; which ones appear is the server's answer. */
const ACTION_BUTTONS: ReadonlyArray<{ action: SendAction; label: string; danger?: boolean }> = [
  { action: 'pause', label: 'Pause' },
  { action: 'resume', label: 'Resume' },
  { action: 'retry', label: 'Retry failed' },
  { action: 'stop', label: 'Stop', danger: true },
];

/**
 * The stages of the card in WhatsApp's order: rows not yet with WhatsApp, then sent → delivered → read with
 * the rates (plain-names.ts). `counter` is the report counter each stage shows.
 */
export function funnel(w: SendWizard) {
  const rates = funnelRates(w);
  const pre = PRE_FUNNEL_STAGES.map((s) => ({ ...s, value: w[s.counter], rate: null as string | null }));
  const stages = FUNNEL_STAGES.map((s) => ({
    ...s,
    value: w[s.counter],
    rate: s.counter === 'sent_count' ? `${fmtRate(rates.delivered)} of sent` : s.counter === 'seen_count' ? `${fmtRate(rates.read)} of delivered` : null,
  }));
  return [...pre, ...stages];
}

/** Share (0–100) of rows that are done: delivered or beyond, failed, or cancelled. */
export function progress(w: SendWizard) {
  const total = Math.max(1, w.summary);
  const pct = (n: number) => Math.min(100, (n / total) * 100);
  const done = w.delivered_count + w.failed_count + w.cancelled_count;
  return { delivered: pct(w.delivered_count), failed: pct(w.failed_count), cancelled: pct(w.cancelled_count), handed: pct(w.awaiting_backend_count), done: Math.round(pct(done)) };
}

export function SendCard(props: { send: SendWizard; selected: boolean; detailHref: string; busy: boolean; onAction: (action: SendAction, w: SendWizard) => void }) {
  const w = props.send;
  const p = progress(w);
  const titleId = `send-${w.send_wizard_id}`;
  // A send's own name, when it has one, is its title; the template's name (`name`) is said beside it.
  const title = w.send_name ?? w.name;
  return (
    <article class={`card send-card${props.selected ? ' selected' : ''}`} aria-labelledby={titleId} data-send-id={w.send_wizard_id} data-status={w.status}>
      <header class="send-head">
        <div class="send-title">
          <h2 id={titleId} data-testid="send-title">{title}</h2>
          <PlainBadge tone={sendStatusTone(w.status)} label="Bulk send status" names={SEND_STATUS_NAMES} code={w.status} />
        </div>
        <div class="muted small">
          {w.send_name && <><span data-testid="send-template">Template {w.name}</span> · </>}
          <span class="mono">{w.send_wizard_id}</span> · from {w.from_number} · {fmtTime(w.created_at)}
          {w.total_time > 0 ? ` · spread over ${fmtDuration(w.total_time)}` : ''}
        </div>
      </header>
      {w.status === 'PAUSED' && w.paused_reason && <p class="alert warn small">On hold: {w.paused_reason}. It resumes by itself.</p>}
      {w.status === 'PAUSED_BY_USER' && <p class="alert warn small">Paused by a user: nothing new goes to WhatsApp until it is resumed.</p>}
      {w.status === 'SCHEDULED' && w.scheduled_at && <p class="alert info small">Scheduled: starts {fmtTime(w.scheduled_at)}.</p>}
      <SkippedRows id={w.send_wizard_id} count={w.skipped_count} />
      {w.retry_of && <p class="muted small">Retry of the failed rows of <span class="mono">{w.retry_of}</span>.</p>}
      <div class="progress-line">
        <div
          class="progress"
          role="progressbar"
          aria-label={`Progress of ${title}`}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={p.done}
          aria-valuetext={`${p.done}% done: ${w.delivered_count} delivered, ${w.failed_count} failed, ${w.cancelled_count} cancelled of ${w.summary}`}
        >
          <span class="seg delivered" style={{ width: `${p.delivered}%` }} />
          <span class="seg handed" style={{ width: `${p.handed}%` }} />
          <span class="seg failed" style={{ width: `${p.failed}%` }} />
          <span class="seg cancelled" style={{ width: `${p.cancelled}%` }} />
        </div>
        <span class="progress-pct" data-testid="progress-pct">{p.done}%</span>
      </div>
      <ol class="funnel" aria-label="Funnel">
        {funnel(w).map((s) => (
          <li key={s.counter} class={`stage ${s.counter}`} title={s.hint} data-stage={s.counter}>
            <span class="stage-label">{s.name}</span>
            <span class="stage-value">{fmtNumber(s.value)}</span>
            {s.rate && <span class="stage-rate" data-testid="stage-rate">{s.rate}</span>}
          </li>
        ))}
      </ol>
      <SendCost cost={w.cost} />
      <div class="send-foot">
        <dl class="apart">
          <div class="failed" data-stage="failed_count"><dt>Failed</dt><dd>{fmtNumber(w.failed_count)}</dd></div>
          <div data-stage="cancelled_count"><dt>Cancelled</dt><dd>{fmtNumber(w.cancelled_count)}</dd></div>
          <div data-stage="summary"><dt>Rows</dt><dd>{fmtNumber(w.summary)}</dd></div>
          {w.duplicate_count > 0 && <div><dt>Duplicates removed</dt><dd>{fmtNumber(w.duplicate_count)}</dd></div>}
        </dl>
        <div class="row">
          <a class="button small" href={props.detailHref} aria-expanded={props.selected}>{props.selected ? 'Hide details' : 'Details'}</a>
          {ACTION_BUTTONS.filter((b) => w.allowed_actions.includes(b.action)).map((b) => (
            <button key={b.action} type="button" class={`button small${b.danger ? ' danger' : ''}`} onClick={() => props.onAction(b.action, w)} disabled={props.busy}>
              {b.label}
            </button>
          ))}
        </div>
      </div>
    </article>
  );
}
