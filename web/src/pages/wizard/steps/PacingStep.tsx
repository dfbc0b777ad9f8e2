/** Step 6: how long to spread the messages over (startv2's total_time). */
import { MAX_TOTAL_TIME, PACING_PRESETS, pacingText } from '../pacing';
import type { Wizard } from '../useWizard';

export function PacingStep({ w }: { w: Wizard }) {
  const { totalTime, checked, table } = w.state;
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
      <p class="alert info" data-testid="pacing-text" title={`total_time = ${totalTime} s`}>{pacingText(totalTime, checked?.rows ?? table?.rows.length ?? 0)}</p>
    </>
  );
}
