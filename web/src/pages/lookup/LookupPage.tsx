/**
 * Message lookup: a recipient's messages by phone number or BSUID (the business-scoped user id WhatsApp gives a
 * customer), newest first (GET /api/v1/messages, paged with `next`), or status records by message id
 * (POST /api/v1/messages). Each card shows the plain status, why it failed, who it went to, and when it was handed to
 * WhatsApp, sent, delivered and read. `#/lookup?phone=…` (a phone number or a BSUID) or `?ids=…`.
 */
import { useEffect, useState } from 'preact/hooks';
import type { MessageRecord, MessageSearch } from '../../api-types';
import { messageStatusTone, PlainBadge } from '../../components/Badge';
import { fmtTime } from '../../format';
import { ApiError, apiFetch, errorText } from '../../http';
import { MESSAGE_STATUS_NAMES } from '../../plain-names';
import { replaceQuery, useRoute } from '../../router';
import { isBsuid } from '../../../../src/domain/recipients.js';

/** The search's query: a BSUID (`CC.<id>`) by user_id, anything else as a phone number (the service checks it). */
export function recipientQuery(text: string): { phone_number: string } | { user_id: string } {
  const t = text.trim();
  return isBsuid(t) ? { user_id: t } : { phone_number: t };
}

/** Ids from free text: separated by spaces, commas or new lines; duplicates dropped. */
export function parseIds(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
}

/** The error text with the field the service named. */
function failureText(err: unknown): string {
  const field = err instanceof ApiError ? err.errors.find((e) => e.field)?.field : undefined;
  return field ? `${errorText(err)} (${field})` : errorText(err);
}

/** What the page shows: the records found, what was asked, and the next page of a phone search. */
interface Results {
  records: MessageRecord[];
  missing: string[];
  next: string | null;
  phone: string | null;
}

export function LookupPage() {
  const route = useRoute();
  const initialIds = route.query.get('ids') ?? '';
  const initialPhone = route.query.get('phone') ?? '';
  const [idText, setIdText] = useState(initialIds.split(',').join('\n'));
  const [phone, setPhone] = useState(initialPhone);
  const [results, setResults] = useState<Results | null>(null);
  const [error, setError] = useState<{ form: 'phone' | 'ids'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  const byIds = async (ids: string[]) => {
    setError(null);
    if (ids.length === 0) return setError({ form: 'ids', text: 'Enter at least one message id.' });
    setBusy(true);
    try {
      const body = await apiFetch<{ items: MessageRecord[] }>('/api/v1/messages', { method: 'POST', json: { message_ids: ids } });
      const found = new Set(body.items.map((r) => r._id));
      setResults({ records: body.items, missing: ids.filter((id) => !found.has(id)), next: null, phone: null });
    } catch (err) {
      setResults(null);
      setError({ form: 'ids', text: failureText(err) });
    } finally {
      setBusy(false);
    }
  };

  /** A phone search; with `after` the next page is added to the shown records. */
  const byPhone = async (number: string, after?: string) => {
    setError(null);
    if (!number.trim()) return setError({ form: 'phone', text: 'Enter a phone number with its country code, or a user ID.' });
    setBusy(true);
    try {
      const q = new URLSearchParams({ ...recipientQuery(number), limit: '20' });
      if (after) q.set('after', after);
      const body = await apiFetch<MessageSearch>(`/api/v1/messages?${q}`);
      setResults((prev) => ({ records: after && prev ? [...prev.records, ...body.items] : body.items, missing: [], next: body.next, phone: number.trim() }));
    } catch (err) {
      setResults(null);
      setError({ form: 'phone', text: failureText(err) });
    } finally {
      setBusy(false);
    }
  };

  useEffect(() => {
    if (initialPhone) void byPhone(initialPhone);
    else if (initialIds) void byIds(parseIds(initialIds));
  }, [initialIds, initialPhone]);

  return (
    <section class="page" aria-labelledby="lookup-title">
      <div class="page-head">
        <div>
          <h1 id="lookup-title">Message lookup</h1>
          <p class="muted">Find the messages sent to a customer, or a message by its id (as returned by a send or shown in a report).</p>
        </div>
      </div>
      <div class="lookup-forms">
        <form
          class="card lookup-form"
          aria-labelledby="by-phone-title"
          onSubmit={(e) => {
            e.preventDefault();
            replaceQuery('/lookup', { phone: phone.trim() });
            if (phone.trim() === initialPhone) void byPhone(phone);
          }}
        >
          <h2 id="by-phone-title">By customer</h2>
          <label class="field">
            <span>Phone number or user ID</span>
            <input
              type="tel"
              value={phone}
              autocomplete="off"
              placeholder="+90 555 123 45 67 or TR.1349…"
              onInput={(e) => setPhone((e.target as HTMLInputElement).value)}
              aria-describedby="phone-help"
              aria-invalid={error?.form === 'phone' ? true : undefined}
            />
          </label>
          <p id="phone-help" class="muted small">
            A phone number with its country code, or the customer’s WhatsApp user ID (BSUID, e.g. US.13491208655302741918). The latest
            messages come first.
          </p>
          {error?.form === 'phone' && <p class="alert error" role="alert">{error.text}</p>}
          <div>
            <button type="submit" class="button primary" disabled={busy}>{busy ? 'Looking up…' : 'Find messages'}</button>
          </div>
        </form>
        <form
          class="card lookup-form"
          aria-labelledby="by-id-title"
          onSubmit={(e) => {
            e.preventDefault();
            const ids = parseIds(idText);
            replaceQuery('/lookup', { ids: ids.join(',') });
            if (ids.join(',') === initialIds) void byIds(ids);
          }}
        >
          <h2 id="by-id-title">By message id</h2>
          <label class="field">
            <span>Message ids</span>
            <textarea
              rows={2}
              value={idText}
              onInput={(e) => setIdText((e.target as HTMLTextAreaElement).value)}
              aria-describedby="lookup-help"
              aria-invalid={error?.form === 'ids' ? true : undefined}
              spellcheck={false}
            />
          </label>
          <p id="lookup-help" class="muted small">One or more ids, separated by spaces, commas or new lines.</p>
          {error?.form === 'ids' && <p class="alert error" role="alert">{error.text}</p>}
          <div>
            <button type="submit" class="button primary" disabled={busy}>{busy ? 'Looking up…' : 'Look up'}</button>
          </div>
        </form>
      </div>
      {results && results.missing.length > 0 && (
        <p class="alert warn" role="status">Not found (unknown ids, or messages of another company): <span class="mono">{results.missing.join(', ')}</span></p>
      )}
      {results?.phone !== null && results?.phone !== undefined && (
        <p class="muted" role="status" data-testid="phone-results">
          {results.records.length === 0 ? `No messages to ${results.phone}.` : `Messages to ${results.phone}, latest first.`}
        </p>
      )}
      {results?.records.map((r) => <MessageCard key={r._id} record={r} />)}
      {results?.next && results.phone && (
        <button type="button" class="button" onClick={() => byPhone(results.phone!, results.next!)} disabled={busy}>
          {busy ? 'Loading…' : 'Show older messages'}
        </button>
      )}
    </section>
  );
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

/** One message: plain status, why it failed, who and what, and its times. */
function MessageCard({ record: r }: { record: MessageRecord }) {
  return (
    <article class="card record" aria-labelledby={`msg-${r._id}`} data-message-id={r._id}>
      <header class="row">
        <h2 id={`msg-${r._id}`} class="mono">{r._id}</h2>
        <PlainBadge tone={messageStatusTone(r.status)} label="Message status" names={MESSAGE_STATUS_NAMES} code={r.status} />
      </header>
      {(r.error_message || r.error_message_detail) && (
        <p class="alert error" data-testid="failure-reason">
          <strong>Why it failed:</strong> {r.error_message ?? ''}
          {r.error_message_detail && r.error_message_detail !== r.error_message ? <span> — {r.error_message_detail}</span> : null}
        </p>
      )}
      <dl class="facts">
        <div><dt>To</dt><dd class="mono">{r.phone_number ?? 'phone number not known'}</dd></div>
        {r.user_id && <div><dt title="user_id">User ID (BSUID)</dt><dd class="mono" data-testid="user-id">{r.user_id}</dd></div>}
        {r.username && <div><dt>Username</dt><dd>{r.username}</dd></div>}
        <div><dt>Name</dt><dd>{r.full_name || '—'}</dd></div>
        <div><dt>From</dt><dd>{r.from_number}</dd></div>
        <div><dt>Template</dt><dd class="mono">{r.message_template_id}</dd></div>
        <div><dt>WhatsApp message id</dt><dd class="mono">{r.ext_id || '—'}</dd></div>
        <div><dt>Bulk send</dt><dd>{r.send_wizard_id ? <span class="mono">{r.send_wizard_id}</span> : 'Single send'}</dd></div>
      </dl>
      <ol class="timeline" aria-label="Times">
        {timeline(r).map((t) => (
          <li key={t.field} data-time={t.field} class={!t.at ? '' : t.field === 'failed_time' ? 'done failed' : 'done'}>
            <span class="timeline-label" title={t.field}>{t.label}</span>
            <span>{fmtTime(t.at)}</span>
          </li>
        ))}
      </ol>
      {r.webhook_response !== null && r.webhook_response !== undefined && (
        <details>
          <summary>WhatsApp's last status message</summary>
          <pre class="json">{JSON.stringify(r.webhook_response, null, 2)}</pre>
        </details>
      )}
    </article>
  );
}
