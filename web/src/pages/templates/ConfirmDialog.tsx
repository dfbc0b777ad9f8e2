/** A modal confirm (native <dialog>: focus is trapped, Escape cancels). */
import { useEffect, useRef } from 'preact/hooks';
import type { ComponentChildren } from 'preact';

export function ConfirmDialog({ title, children, confirmLabel, danger, busy, onConfirm, onCancel }: {
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.open && dialog.close();
  }, []);
  return (
    <dialog ref={ref} class="confirm card" aria-labelledby="confirm-title" onCancel={(e) => { e.preventDefault(); onCancel(); }}>
      <h2 id="confirm-title">{title}</h2>
      <div class="confirm-body">{children}</div>
      <div class="row confirm-actions">
        <button type="button" class="button" onClick={onCancel} autoFocus>Cancel</button>
        <button type="button" class={`button ${danger ? 'danger' : 'primary'}`} disabled={busy} onClick={onConfirm}>{confirmLabel}</button>
      </div>
    </dialog>
  );
}
