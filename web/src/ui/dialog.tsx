import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef } from 'preact/hooks';

interface Props {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
}

/**
 * A modal dialog on the browser's own `<dialog>`: it keeps the focus inside, closes on Escape, and
 * gives the focus back to what opened it.
 */
export function Dialog({ title, open, onClose, children }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby={titleId} onClose={onClose} onCancel={onClose}>
      <div class="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" class="button ghost" onClick={onClose} aria-label="Close">
          ×
        </button>
      </div>
      {open ? children : null}
    </dialog>
  );
}
