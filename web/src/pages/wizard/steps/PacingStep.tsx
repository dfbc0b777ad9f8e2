/** Step 6: how long to spread the messages over (startv2's total_time). */
import { MAX_TOTAL_TIME, PACING_PRESETS, pacingText } from '../pacing';
import type { Wizard } from '../useWizard';

/** A `datetime-local` value for an hour from now, on the minute, in the browser's time zone. */
function inAnHour(): string {
  const d = new Date(Date.now() + 3600_000);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T${p(d.getHours())}:${p(d.getMinutes())}`;
}

/** The browser's time zone name ("Europe/Istanbul"). */
function timeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

export function PacingStep({ w }: { w: Wizard }) {
  const { totalTime, checked, table, startAt } = w.state;
  const choose = (seconds: number) => w.dispatch({ type: 'pacingChosen', totalTime: seconds });
  return (
    <>
      <fieldset class="pacing">
        <legend>Spread the messages over</legend>
        {PACING_PRESETS.map((p) => (
          <label key={p.seconds} class="check">
            <input type="radio" name="pacing" checked={totalTime === p.seconds} onChange={() => choose(p.seconds)} /> {p.label}
          </label>
        ))}
        <label class="field" for="wiz-total">
          <span>Or a number of minutes</span>
          <input id="wiz-total" type="number" min={0} max={MAX_TOTAL_TIME / 60} step={1} value={Math.round(totalTime / 60)}
            onInput={(e) => {
              const m = Number((e.target as HTMLInputElement).value);
              if (Number.isFinite(m) && m >= 0) choose(Math.min(MAX_TOTAL_TIME, Math.round(m * 60)));
            }} />
        </label>
      </fieldset>
      <fieldset class="pacing">
        <legend>When to start</legend>
        <label class="check">
          <input type="radio" name="start-at" checked={startAt === ''} onChange={() => w.dispatch({ type: 'startAtChosen', startAt: '' })} /> Now
        </label>
        <label class="check">
          <input type="radio" name="start-at" checked={startAt !== ''} onChange={() => w.dispatch({ type: 'startAtChosen', startAt: startAt || inAnHour() })} /> At a time
        </label>
        {startAt !== '' && (
          <label class="field" for="wiz-start-at">
            <span>Start at (your time, {timeZone()})</span>
            <input id="wiz-start-at" type="datetime-local" value={startAt} aria-invalid={w.schedule.ok ? undefined : true} aria-describedby="wiz-start-at-note"
              onInput={(e) => w.dispatch({ type: 'startAtChosen', startAt: (e.target as HTMLInputElement).value })} />
            <small id="wiz-start-at-note" class={w.schedule.ok ? 'muted' : 'field-error'}>
              {w.schedule.ok ? 'Up to 90 days ahead. The send waits as “Scheduled” in Reports, where it can be stopped before it starts.' : w.schedule.reason}
            </small>
          </label>
        )}
      </fieldset>
      {w.ttlOffered && (
        <label class="field" for="wiz-ttl">
          <span>Keep trying to deliver for (hours, optional)</span>
          <input id="wiz-ttl" type="number" min={12} max={720} step={1} value={w.state.ttlHours} aria-invalid={w.ttl.ok ? undefined : true} aria-describedby="wiz-ttl-note"
            onInput={(e) => w.dispatch({ type: 'ttlChosen', hours: (e.target as HTMLInputElement).value })} />
          <small id="wiz-ttl-note" class={w.ttl.ok ? 'muted' : 'field-error'} title="message_send_ttl_seconds">
            {w.ttl.ok ? 'This channel sends marketing messages through WhatsApp’s marketing messages service: a message not delivered within this time is dropped. Empty: WhatsApp’s default.' : w.ttl.reason}
          </small>
        </label>
      )}
      <p class="alert info" data-testid="pacing-text" title={`total_time = ${totalTime} s`}>{pacingText(totalTime, checked?.summary ?? table?.rows.length ?? 0)}</p>
    </>
  );
}
