/**
 * The send wizard (`#/send?channel=&template=`): channel → approved template → recipients (CSV / XLSX file
 * or pasted) → column mapping (auto-mapped from the headers) → preview of the first rows as messages with
 * every row and column problem listed and fixable in place (the console's own checks, then the service's
 * dry run) → pacing → confirm (count, duplicates removed, tier quota needed vs left) → start → report.
 * This is the frame (step list, heading, Back / Next); each step is a component of steps/, the state is
 * state.ts's reducer and the calls to the service are in useWizard.ts.
 */
import { useRef } from 'preact/hooks';
import type { ComponentType } from 'preact';
import { STEPS } from './state';
import { ChannelStep } from './steps/ChannelStep';
import { CheckStep } from './steps/CheckStep';
import { ColumnsStep } from './steps/ColumnsStep';
import { ConfirmStep } from './steps/ConfirmStep';
import { PacingStep } from './steps/PacingStep';
import { RecipientsStep } from './steps/RecipientsStep';
import { TemplateStep } from './steps/TemplateStep';
import { useWizard, type Wizard } from './useWizard';
import '../templates/templates.css';
import './wizard.css';

/** The component of each step, in STEPS order. */
const STEP_VIEWS: ComponentType<{ w: Wizard }>[] = [ChannelStep, TemplateStep, RecipientsStep, ColumnsStep, CheckStep, PacingStep, ConfirmStep];

export function WizardPage() {
  const w = useWizard();
  const { step, error, started } = w.state;
  const headingRef = useRef<HTMLHeadingElement>(null);
  const go = (n: number) => {
    w.dispatch({ type: 'go', step: n });
    setTimeout(() => headingRef.current?.focus(), 0);
  };
  const Step = STEP_VIEWS[step];

  return (
    <section class="page wizard" aria-labelledby="wizard-title">
      <div class="page-head">
        <h1 id="wizard-title">Send</h1>
      </div>
      <nav aria-label="Wizard steps">
        <ol class="steps">
          {STEPS.map((s, i) => (
            <li key={s} aria-current={i === step ? 'step' : undefined} class={i < step ? 'done' : ''}>
              <span class="step-no" aria-hidden="true">{i + 1}</span> {s}
            </li>
          ))}
        </ol>
      </nav>
      {w.channelsError && <p class="alert error" role="alert">{w.channelsError}</p>}

      <div class="card step-card">
        <h2 ref={headingRef} tabIndex={-1} id="step-title">{step + 1}. {STEPS[step]}</h2>
        <Step w={w} />
        {error && <p class="alert error" role="alert">{error}</p>}
        {!started && (
          <div class="row step-nav">
            {step > 0 && <button type="button" class="button" onClick={() => go(step - 1)}>Back</button>}
            <span class="spacer" />
            {step < STEPS.length - 1 && <button type="button" class="button primary" disabled={!w.canNext} onClick={() => go(step + 1)}>Next: {STEPS[step + 1]}</button>}
          </div>
        )}
        {started && (
          <div class="row step-nav">
            <button type="button" class="button" onClick={() => { w.dispatch({ type: 'sendAnother' }); setTimeout(() => headingRef.current?.focus(), 0); }}>Send another</button>
          </div>
        )}
      </div>
    </section>
  );
}
