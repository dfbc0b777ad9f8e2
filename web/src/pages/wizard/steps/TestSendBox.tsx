/** On the confirm step: one row's message sent to one number first (a real message), and what became of it. */
import { useEffect } from 'preact/hooks';
import { errorText } from '../../../http';
import { messageStatusName } from '../../../plain-names';
import { messageStatus } from '../api';
import { cellOf, PHONE, USER_ID } from '../mapping';
import { dispatchWizard } from '../store';
import { SETTLED_STATUSES } from '../test-send';
import type { Wizard } from '../useWizard';

/** How often and how long the test message's status is read. */
const POLL_MS = 2000;
const POLL_FOR_MS = 120_000;

export function TestSendBox({ w }: { w: Wizard }) {
  const { table, mapping, testSend: t } = w.state;
  // The status is read while the box is open; the answers go to the kept state, so a later visit shows them.
  useEffect(() => {
    if (!t.messageId || (t.status && SETTLED_STATUSES.includes(t.status))) return;
    const id = t.messageId;
    const until = Date.now() + POLL_FOR_MS;
    let timer: ReturnType<typeof setTimeout>;
    let live = true;
    const read = async () => {
      try {
        const m = await messageStatus(id);
        if (!live) return;
        if (m) dispatchWizard({ type: 'testStatus', status: m.status, error: m.error_message });
        if (m && SETTLED_STATUSES.includes(m.status)) return;
      } catch (e) {
        if (live) dispatchWizard({ type: 'testFailed', error: errorText(e) });
        return;
      }
      if (live && Date.now() < until) timer = setTimeout(read, POLL_MS);
    };
    void read();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [t.messageId]);
  if (!table) return null;
  const rows = Math.min(table.rows.length, 20);
  return (
    <section class="test-send" aria-labelledby="test-send-title">
      <h3 id="test-send-title">Send a test first</h3>
      <p class="muted small">One row’s message goes to the number you give, exactly as the bulk send would send it. It is a real message.</p>
      <div class="test-send-fields">
        <label class="field" for="wiz-test-phone">
          <span>Your phone number (with country code)</span>
          <input id="wiz-test-phone" type="tel" inputMode="tel" autoComplete="tel" value={t.phone}
            onInput={(e) => w.dispatch({ type: 'testEdited', phone: (e.target as HTMLInputElement).value })} />
        </label>
        <label class="field" for="wiz-test-row">
          <span>With the values of</span>
          <select id="wiz-test-row" value={t.row} onChange={(e) => w.dispatch({ type: 'testEdited', row: Number((e.target as HTMLSelectElement).value) })}>
            {Array.from({ length: rows }, (_, r) => <option key={r} value={r}>Row {r + 1} ({cellOf(table, mapping, r, PHONE) || cellOf(table, mapping, r, USER_ID) || 'no recipient'})</option>)}
          </select>
        </label>
        <button type="button" class="button" onClick={w.sendTest} disabled={t.sending || t.phone.trim() === ''}>{t.sending ? 'Sending…' : 'Send test message'}</button>
      </div>
      {t.messageId && (
        <p class="alert info small" role="status" data-testid="test-send-status" data-code={t.status ?? undefined}>
          Test message {t.status ? <strong title={t.status}>{messageStatusName(t.status).toLowerCase()}</strong> : 'accepted'}
          {t.error ? `: ${t.error}` : '.'} <span class="muted">Message id <code>{t.messageId}</code></span>
        </p>
      )}
      {t.error && !t.messageId && <p class="field-error" role="alert" data-testid="test-send-error">{t.error}</p>}
    </section>
  );
}
