/** Message lookup: status records by message id (POST /api/v1/messages). */
import { useEffect, useState } from 'preact/hooks';
import type { MessageRecord } from '../../api-types';
import { messageStatusTone, PlainBadge } from '../../components/Badge';
import { MESSAGE_STATUS_NAMES } from '../../plain-names';
import { fmtTime } from '../../format';
import { ApiError, apiFetch, errorText } from '../../http';
import { replaceQuery, useRoute } from '../../router';

/** Ids from free text: separated by spaces, commas or new lines; duplicates dropped. */
export function parseIds(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
}

/** The times a record carries, in the order they happen (names as in plain-names.ts). */
function timeline(r: MessageRecord) {
  const steps = [
    { field: 'created_at', label: 'Created', at: r.created_at },
    { field: 'backend_sended_time', label: 'Handed to WhatsApp', at: r.backend_sended_time },
    { field: 'sended_time', label: 'Sent', at: r.sended_time },
    { field: 'delivered_time', label: 'Delivered', at: r.delivered_time },
    { field: 'seen_time', label: 'Read', at: r.seen_time },
  ];
  if (r.failed_time) steps.push({ field: 'failed_time', label: 'Failed', at: r.failed_time });
  return steps;
}

export function LookupPage() {
  const route = useRoute();
  const initial = route.query.get('ids') ?? '';
  const [text, setText] = useState(initial.split(',').join('\n'));
  const [records, setRecords] = useState<MessageRecord[] | null>(null);
  const [missing, setMissing] = useState<string[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const lookup = async (ids: string[]) => {
    setError(null);
    if (ids.length === 0) {
      setError('Enter at least one message id.');
      return;
    }
    setBusy(true);
    try {
      const body = await apiFetch<{ items: MessageRecord[] }>('/api/v1/messages', { method: 'POST', json: { message_ids: ids } });
      setRecords(body.items);
      const found = new Set(body.items.map((r) => r._id));
      setMissing(ids.filter((id) => !found.has(id)));
    } catch (err) {
      setRecords(null);
      const field = err instanceof ApiError ? err.errors.find((e) => e.field)?.field : undefined;
      setError(field ? `${errorText(err)} (${field})` : errorText(err));
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (initial) void lookup(parseIds(initial));
  }, [initial]);

  return (
    <section class="page" aria-labelledby="lookup-title">
      <div class="page-head">
        <div>
          <h1 id="lookup-title">Message lookup</h1>
          <p class="muted">The status record of messages by their id (as returned by a send or shown in a report).</p>
        </div>
      </div>
      <form
        class="card lookup-form"
        onSubmit={(e) => {
          e.preventDefault();
          const ids = parseIds(text);
          replaceQuery('/lookup', { ids: ids.join(',') });
          if (ids.join(',') === initial) void lookup(ids);
        }}
      >
        <label class="field">
          <span>Message ids</span>
          <textarea
            rows={3}
            value={text}
            onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            aria-describedby="lookup-help"
            aria-invalid={error ? true : undefined}
            spellcheck={false}
          />
        </label>
        <p id="lookup-help" class="muted small">One or more ids, separated by spaces, commas or new lines.</p>
        {error && <p class="alert error" role="alert">{error}</p>}
        <div>
          <button type="submit" class="button primary" disabled={busy}>{busy ? 'Looking up…' : 'Look up'}</button>
        </div>
      </form>
      {missing.length > 0 && (
        <p class="alert warn" role="status">Not found (unknown ids, or messages of another company): <span class="mono">{missing.join(', ')}</span></p>
      )}
      {records?.map((r) => (
        <article class="card record" key={r._id} aria-labelledby={`msg-${r._id}`} data-message-id={r._id}>
          <header class="row">
            <h2 id={`msg-${r._id}`} class="mono">{r._id}</h2>
            <PlainBadge tone={messageStatusTone(r.status)} label="Message status" names={MESSAGE_STATUS_NAMES} code={r.status} />
          </header>
          {(r.error_message || r.error_message_detail) && (
            <p class="alert error" data-testid="failure-reason">
              <strong>Why it failed:</strong> {r.error_message ?? ''}
              {r.error_message_detail && r.error_message_detail !== r.error_message ? <span class="muted"> — {r.error_message_detail}</span> : null}
            </p>
          )}
          <dl class="facts">
            <div><dt>To</dt><dd class="mono">{r.phone_number}</dd></div>
            <div><dt>Name</dt><dd>{r.full_name || '—'}</dd></div>
            <div><dt>From</dt><dd>{r.from_number}</dd></div>
            <div><dt>Template</dt><dd class="mono">{r.message_template_id}</dd></div>
            <div><dt>WhatsApp message id</dt><dd class="mono">{r.ext_id || '—'}</dd></div>
            <div><dt>Bulk send</dt><dd>{r.send_wizard_id ? <span class="mono">{r.send_wizard_id}</span> : 'Single send'}</dd></div>
          </dl>
          <ol class="timeline" aria-label="Times">
            {timeline(r).map((t) => (
              <li key={t.field} data-time={t.field} class={t.at ? 'done' : ''}>
                <span class="timeline-label" title={t.field}>{t.label}</span>
                <span>{fmtTime(t.at)}</span>
              </li>
            ))}
          </ol>
          {r.webhook_response !== null && r.webhook_response !== undefined && (
            <details>
              <summary>Network response</summary>
              <pre class="json">{JSON.stringify(r.webhook_response, null, 2)}</pre>
            </details>
          )}
        </article>
      ))}
    </section>
  );
}
