/**
 * Webhooks: the company's client webhook endpoints (docs/webhooks-out.md). Each endpoint with its events, its state
 * and how its deliveries went; add one (its signing secret is shown once), remove one, and read an endpoint's
 * recent deliveries (`#/webhooks?endpoint=ID&page=N`).
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { CreatedWebhookEndpoint, WebhookDeliveries, WebhookEndpoint } from '../../api-types';
import { Badge, type Tone } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Pager } from '../../components/Pager';
import { useLoad } from '../../data';
import { fmtNumber, fmtRelative, fmtTime } from '../../format';
import { ApiError, apiFetch, errorText } from '../../http';
import { deliveryStateName, explainDeliveryError, messageStatusName, plain, sendStatusName, WEBHOOK_EVENT_NAMES } from '../../plain-names';
import { href, navigate, useRoute } from '../../router';
import './webhooks.css';

const BASE = '/api/v1/webhook-endpoints';
const PAGE_SIZE = 20;
const EVENTS = ['message.status_changed', 'bulk_send.status_changed'] as const;

export function WebhooksPage() {
  const route = useRoute();
  const selected = route.query.get('endpoint');
  const page = Math.max(1, Number(route.query.get('page')) || 1);
  const endpoints = useLoad(() => apiFetch<{ items: WebhookEndpoint[] }>(BASE).then((b) => b.items), []);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);
  const [removeBusy, setRemoveBusy] = useState(false);
  const [removeError, setRemoveError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);

  const remove = async () => {
    if (!removing) return;
    setRemoveBusy(true);
    setRemoveError(null);
    try {
      await apiFetch(`${BASE}/${encodeURIComponent(removing.id)}`, { method: 'DELETE' });
      setNotice(`Removed ${removing.url}: it gets no more events.`);
      if (selected === removing.id) navigate('/webhooks');
      setRemoving(null);
      await endpoints.reload();
      titleRef.current?.focus();
    } catch (err) {
      setRemoveError(errorText(err));
    } finally {
      setRemoveBusy(false);
    }
  };

  const current = endpoints.data?.find((e) => e.id === selected) ?? null;
  return (
    <section class="page" aria-labelledby="webhooks-title">
      <div class="page-head">
        <div>
          <h1 id="webhooks-title" ref={titleRef} tabIndex={-1}>Webhooks</h1>
          <p class="muted">Addresses of your systems that the service tells about every status change, signed with a secret.</p>
        </div>
        <button type="button" class="button" onClick={() => endpoints.reload()} disabled={endpoints.loading}>
          {endpoints.loading ? 'Refreshing…' : 'Refresh'}
        </button>
      </div>
      {endpoints.error && <p class="alert error" role="alert">Could not load the webhook endpoints: {endpoints.error}</p>}
      {notice && <p class="alert info" role="status">{notice}</p>}
      {endpoints.data && endpoints.data.length === 0 && <p class="alert info">No endpoints yet. Add one below to receive status changes as they happen.</p>}
      <div class="grid-cards" aria-busy={endpoints.loading}>
        {endpoints.data?.map((e) => (
          <EndpointCard key={e.id} endpoint={e} selected={e.id === selected} onRemove={() => { setRemoveError(null); setNotice(null); setRemoving(e); }} />
        ))}
      </div>
      {selected && endpoints.data && (current ? (
        <Deliveries key={current.id} endpoint={current} page={page} onRefresh={() => void endpoints.reload()} />
      ) : (
        <p class="alert warn">That endpoint is not there any more. <a href={href('/webhooks')}>Back to the list</a></p>
      ))}
      <AddEndpoint onAdded={() => { setNotice(null); void endpoints.reload(); }} />
      <ConfirmDialog
        open={removing !== null}
        title="Remove this endpoint?"
        confirmLabel={removeBusy ? 'Removing…' : 'Remove endpoint'}
        danger
        busy={removeBusy}
        onConfirm={() => void remove()}
        onCancel={() => setRemoving(null)}
      >
        <p class="wrap-anywhere"><strong>{removing?.url}</strong> will get no more events.</p>
        <p>
          Its delivery log is deleted{removing && removing.backlog.pending > 0 ? `, and ${fmtNumber(removing.backlog.pending)} events not yet delivered are dropped` : ''}.
          This cannot be undone.
        </p>
        {removeError && <p class="alert error" role="alert">Could not remove it: {removeError}</p>}
      </ConfirmDialog>
    </section>
  );
}

/** The endpoint's state: on, failing, or switched off (by the company or by the service, with why). */
function endpointState(e: WebhookEndpoint): { tone: Tone; name: string; hint: string } {
  if (!e.enabled) {
    if (!e.disabled_reason || e.disabled_reason === 'disabled by the company') return { tone: 'grey', name: 'Switched off', hint: 'Switched off by your company; it gets no new events' };
    return { tone: 'red', name: 'Switched off by the service', hint: e.disabled_reason };
  }
  if (e.consecutive_failures > 0) return { tone: 'yellow', name: 'Failing', hint: 'Recent attempts failed; they are retried' };
  return { tone: 'green', name: 'On', hint: 'Gets every event it subscribes to' };
}

/** How the last deliveries went, in one sentence. */
function lastResult(e: WebhookEndpoint): string {
  if (e.consecutive_failures > 0) {
    const n = e.consecutive_failures;
    return `${n === 1 ? 'The last attempt' : `The last ${fmtNumber(n)} attempts`} failed${e.failing_since ? ` (failing since ${fmtRelative(e.failing_since)})` : ''}.`;
  }
  if (e.last_success_at) return `Delivered ${fmtRelative(e.last_success_at)}.`;
  return 'Nothing sent yet.';
}

function EndpointCard({ endpoint: e, selected, onRemove }: { endpoint: WebhookEndpoint; selected: boolean; onRemove: () => void }) {
  const titleId = `endpoint-${e.id}`;
  const state = endpointState(e);
  return (
    <article class={`card endpoint-card${selected ? ' selected' : ''}`} aria-labelledby={titleId} data-endpoint-id={e.id}>
      <header>
        <h2 id={titleId} class="endpoint-url mono">{e.url}</h2>
        {e.description && <div class="muted">{e.description}</div>}
      </header>
      <div class="badges">
        <Badge tone={state.tone} label="State" title={state.hint}>{state.name}</Badge>
      </div>
      {!e.enabled && e.disabled_reason && e.disabled_reason !== 'disabled by the company' && (
        <p class="alert error small">Switched off by the service: {e.disabled_reason}. Switch it on again with the API (PATCH enabled: true) once your endpoint works.</p>
      )}
      <dl class="facts">
        <div><dt>Events</dt><dd>{e.events.map((ev) => plain(WEBHOOK_EVENT_NAMES, ev).name).join(', ')}</dd></div>
        <div><dt>Last result</dt><dd data-testid="last-result">{lastResult(e)}</dd></div>
        <div>
          <dt>Waiting</dt>
          <dd>
            {e.backlog.pending === 0 ? 'Nothing waiting' : `${fmtNumber(e.backlog.pending)} to go out`}
            {e.backlog.next_attempt_at ? `; next try ${fmtRelative(e.backlog.next_attempt_at)}` : ''}
          </dd>
        </div>
        <div><dt>Added</dt><dd>{fmtTime(e.created_at)}</dd></div>
      </dl>
      <div class="row">
        <a class="button small" href={href('/webhooks', { endpoint: e.id })} aria-current={selected ? 'true' : undefined}>
          Recent deliveries<span class="visually-hidden"> to {e.url}</span>
        </a>
        <button type="button" class="button small danger" onClick={onRemove}>
          Remove<span class="visually-hidden"> {e.url}</span>
        </button>
      </div>
    </article>
  );
}

/** What a delivery's event was, in words: "Message: Sent → Delivered". */
function eventText(d: WebhookDeliveries['items'][number]): string {
  const data = d.data as { status?: string; previous_status?: string | null };
  if (d.event_type === 'message.status_changed') {
    return `Message: ${data.previous_status ? `${messageStatusName(data.previous_status)} → ` : ''}${messageStatusName(data.status ?? '')}`;
  }
  if (d.event_type === 'bulk_send.status_changed') {
    return `Bulk send: ${data.previous_status ? `${sendStatusName(data.previous_status)} → ` : ''}${sendStatusName(data.status ?? '')}`;
  }
  return d.event_type;
}

function deliveryTone(status: string, attempts: number): Tone {
  if (status === 'DELIVERED') return 'green';
  if (status === 'FAILED') return 'red';
  return attempts > 0 ? 'yellow' : 'blue';
}

function Deliveries({ endpoint: e, page, onRefresh }: { endpoint: WebhookEndpoint; page: number; onRefresh: () => void }) {
  const log = useLoad(
    () => apiFetch<WebhookDeliveries>(`${BASE}/${encodeURIComponent(e.id)}/deliveries?page=${page}&page_size=${PAGE_SIZE}`),
    [e.id, page],
  );
  const headRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headRef.current?.focus(), [e.id]);
  const rows = log.data?.items ?? [];
  const total = log.data?.pagination.total ?? 0;
  return (
    <section class="card deliveries" aria-labelledby="deliveries-title">
      <div class="page-head">
        <h2 id="deliveries-title" ref={headRef} tabIndex={-1}>
          Recent deliveries <span class="muted mono endpoint-url">{e.url}</span>
        </h2>
        <div class="row">
          <button type="button" class="button small" onClick={() => { onRefresh(); void log.reload(); }} disabled={log.loading}>{log.loading ? 'Refreshing…' : 'Refresh'}</button>
          <a class="button small ghost" href={href('/webhooks')}>Close</a>
        </div>
      </div>
      <p class="muted small">Newest first. Delivered and given-up deliveries are kept for 7 days.</p>
      {log.error && <p class="alert error" role="alert">Could not load the deliveries: {log.error}</p>}
      <table class="stack-table" data-testid="deliveries" aria-busy={log.loading}>
        <caption class="visually-hidden">Deliveries to {e.url}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Event</th>
            <th scope="col">When</th>
            <th scope="col" class="num">Attempts</th>
            <th scope="col">Problem</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((d) => {
            const state = deliveryStateName(d.status, d.attempts);
            return (
              <tr key={d.id} data-delivery-id={d.id}>
                <td data-label="Status">
                  <Badge tone={deliveryTone(d.status, d.attempts)} title={`${state.hint} (${d.status})`} code={d.status}>{state.name}</Badge>
                </td>
                <td data-label="Event">{eventText(d)}{d.replay_of ? <div class="muted small">sent again</div> : null}</td>
                <td data-label="When">
                  {fmtTime(d.occurred_at)}
                  {d.status === 'DELIVERED' && d.delivered_at && <div class="muted small">delivered {fmtRelative(d.delivered_at)}</div>}
                  {d.status === 'PENDING' && d.next_attempt_at && <div class="muted small">next try {fmtRelative(d.next_attempt_at)}</div>}
                </td>
                <td data-label="Attempts" class="num">{fmtNumber(d.attempts)}</td>
                <td data-label="Problem" class="error-cell" title={d.last_error ?? undefined}>
                  {d.status === 'DELIVERED' ? '—' : explainDeliveryError(d.last_error, d.last_status_code)}
                </td>
              </tr>
            );
          })}
          {!log.loading && rows.length === 0 && (
            <tr><td colSpan={5} class="muted">No deliveries yet: they appear when a message or bulk send it subscribes to changes status.</td></tr>
          )}
        </tbody>
      </table>
      <Pager label="Delivery pages" page={page} pageSize={PAGE_SIZE} total={total} shown={rows.length} onPage={(p) => navigate('/webhooks', { endpoint: e.id, page: p })} disabled={log.loading} />
    </section>
  );
}

function AddEndpoint({ onAdded }: { onAdded: () => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>([...EVENTS]);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | string | null>(null);
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null);

  const submit = async (ev: Event) => {
    ev.preventDefault();
    if (events.length === 0) {
      setError('Choose at least one kind of event.');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const body = await apiFetch<{ data: CreatedWebhookEndpoint }>(BASE, {
        method: 'POST',
        json: { url: url.trim(), events, ...(description.trim() ? { description: description.trim() } : {}) },
      });
      setCreated(body.data);
      setUrl('');
      setDescription('');
      setEvents([...EVENTS]);
      onAdded();
    } catch (err) {
      setError(err instanceof ApiError ? err : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  const urlErrors = error instanceof ApiError ? error.fieldErrors('url') : [];
  const eventErrors = error instanceof ApiError ? error.fieldErrors('events') : [];
  const general = typeof error === 'string' ? error : error && urlErrors.length + eventErrors.length === 0 ? errorText(error) : null;
  return (
    <section class="card add-endpoint" aria-labelledby="add-endpoint-title">
      <h2 id="add-endpoint-title">Add an endpoint</h2>
      {created && <SecretOnce endpoint={created} onDone={() => setCreated(null)} />}
      <form class="add-endpoint-form" onSubmit={(ev) => void submit(ev)} noValidate>
        <label class="field" for="endpoint-url">
          <span>Address (URL) of your receiver</span>
          <input
            id="endpoint-url"
            type="url"
            inputMode="url"
            required
            placeholder="https://hooks.example.com/tms"
            value={url}
            onInput={(ev) => setUrl((ev.currentTarget as HTMLInputElement).value)}
            aria-invalid={urlErrors.length > 0 ? 'true' : undefined}
            aria-describedby={urlErrors.length > 0 ? 'endpoint-url-error' : 'endpoint-url-hint'}
          />
          <span id="endpoint-url-hint" class="muted small">Use https. Redirects are not followed.</span>
          {urlErrors.length > 0 && <p id="endpoint-url-error" class="field-error">{urlErrors.map((e) => e.message).join(' ')}</p>}
        </label>
        <fieldset class="event-choice" aria-describedby={eventErrors.length > 0 ? 'endpoint-events-error' : undefined}>
          <legend>Events to send</legend>
          {EVENTS.map((code) => {
            const p = plain(WEBHOOK_EVENT_NAMES, code);
            return (
              <label key={code} class="check">
                <input
                  type="checkbox"
                  checked={events.includes(code)}
                  onChange={(ev) => {
                    const on = (ev.currentTarget as HTMLInputElement).checked;
                    setEvents((now) => (on ? [...now, code] : now.filter((c) => c !== code)));
                  }}
                />
                <span>{p.name} <span class="muted small">— {p.hint}</span></span>
              </label>
            );
          })}
          {eventErrors.length > 0 && <p id="endpoint-events-error" class="field-error">{eventErrors.map((e) => e.message).join(' ')}</p>}
        </fieldset>
        <label class="field" for="endpoint-description">
          <span>Note for your team (optional)</span>
          <input id="endpoint-description" type="text" maxLength={256} value={description} onInput={(ev) => setDescription((ev.currentTarget as HTMLInputElement).value)} />
        </label>
        {general && <p class="alert error" role="alert">Could not add the endpoint: {general}</p>}
        {error instanceof ApiError && !general && <p class="visually-hidden" role="alert">Could not add the endpoint: {error.errors.map((e) => e.message).join(' ')}</p>}
        <div class="row">
          <button type="submit" class="button primary" disabled={busy}>{busy ? 'Adding…' : 'Add endpoint'}</button>
        </div>
      </form>
    </section>
  );
}

/** The new endpoint's signing secret: shown this once, with a copy button. */
function SecretOnce({ endpoint, onDone }: { endpoint: CreatedWebhookEndpoint; onDone: () => void }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const headRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headRef.current?.focus(), [endpoint.id]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(endpoint.secret);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div class="alert ok-line secret-once" data-testid="secret-once">
      <h3 ref={headRef} tabIndex={-1}>Added. Your signing secret</h3>
      <p>
        Your receiver checks every request with it (the <code>X-TMS-Signature</code> header).{' '}
        <strong>It will not be shown again:</strong> copy it now and keep it where your receiver can read it.
      </p>
      <code class="secret mono" data-testid="secret">{endpoint.secret}</code>
      <div class="row">
        <button type="button" class="button small" onClick={() => void copy()}>Copy secret</button>
        <button type="button" class="button small ghost" onClick={onDone}>I have stored it</button>
        <span role="status" class="small">{copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Could not copy: select the secret and copy it by hand.' : ''}</span>
      </div>
    </div>
  );
}
