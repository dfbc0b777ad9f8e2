/** Message lookup: status records by message id (POST /api/v1/messages). */
import { useEffect, useState } from 'preact/hooks';
import type { MessageRecord } from '../../api-types';
import { Badge, messageStatusTone } from '../../components/Badge';
import { fmtTime } from '../../format';
import { ApiError, apiFetch, errorText } from '../../http';
import { replaceQuery, useRoute } from '../../router';

/** Ids from free text: separated by spaces, commas or new lines; duplicates dropped. */
export function parseIds(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
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
            <Badge tone={messageStatusTone(r.status)} label="Message status">{r.status}</Badge>
          </header>
          <dl class="facts">
            <div><dt>To</dt><dd class="mono">{r.phone_number}</dd></div>
            <div><dt>Name</dt><dd>{r.full_name || '—'}</dd></div>
            <div><dt>From</dt><dd>{r.from_number}</dd></div>
            <div><dt>Template</dt><dd class="mono">{r.message_template_id}</dd></div>
            <div><dt>Network id</dt><dd class="mono">{r.ext_id || '—'}</dd></div>
            <div><dt>Created</dt><dd>{fmtTime(r.created_at)}</dd></div>
            <div><dt>Updated</dt><dd>{fmtTime(r.updated_at)}</dd></div>
          </dl>
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
