/**
 * Where the wizard's state lives between visits: one state per signed-in token, outside the page, so
 * leaving the Send tab and coming back keeps the list, the mapping, the pacing, and the answers of calls
 * that finished meanwhile. Another token (a sign-out, another company) starts afresh. Nothing is written to
 * storage: a reload starts afresh too (the chosen file cannot be kept there).
 */
import { useEffect, useState } from 'preact/hooks';
import { getToken } from '../../session';
import { wizardReducer, type WizardAction, type WizardState } from './state';

let owner: string | null = null;
let current: WizardState | null = null;
const listeners = new Set<() => void>();

/** The kept state of the signed-in token, or null when there is none yet. */
function kept(): WizardState | null {
  return owner === getToken() ? current : null;
}

/** Changes the kept state and tells the page (when it is open). */
export function dispatchWizard(action: WizardAction): void {
  const token = getToken();
  // An answer that arrives after a sign-out belongs to no one.
  if (owner !== token || current === null) return;
  current = wizardReducer(current, action);
  listeners.forEach((l) => l());
}

/** The kept state (made with `fresh` the first time for this token) and the dispatch that changes it. */
export function useWizardStore(fresh: () => WizardState): [WizardState, (a: WizardAction) => void] {
  const [, setVersion] = useState(0);
  if (kept() === null) {
    owner = getToken();
    current = fresh();
  }
  useEffect(() => {
    const rerender = () => setVersion((n) => n + 1);
    listeners.add(rerender);
    return () => {
      listeners.delete(rerender);
    };
  }, []);
  return [current!, dispatchWizard];
}
