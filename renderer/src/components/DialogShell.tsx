/**
 * The native `<dialog>` behind every modal: open while rendered, focus kept inside, Esc cancels, and on closing focus
 * goes back to where it was when the dialog opened (the Settings button, the answer's Export… button).
 */
import { useLayoutEffect, useRef, type ReactNode } from 'react';

/** Props of {@link DialogShell}. */
export interface DialogShellProps {
  /** Id of the element holding the dialog's title (for `aria-labelledby`). */
  titleId: string;
  className: string;
  /** Esc or a close button: the caller decides what closing means. */
  onCancel(): void;
  children: ReactNode;
}

/** A modal `<dialog>` shown with `showModal()` on mount and closed on unmount (it may open over another). */
export function DialogShell({ titleId, className, onCancel, children }: DialogShellProps) {
  const ref = useRef<HTMLDialogElement>(null);
  // A layout effect: its cleanup runs while the dialog is still in the document, before React removes it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    const before = document.activeElement;
    if (dialog && !dialog.open) dialog.showModal();
    return () => {
      dialog?.close();
      // What had focus may be gone (a deleted row): then the browser's default stands.
      if (before instanceof HTMLElement && before.isConnected) before.focus({ preventScroll: true });
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={className}
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      {children}
    </dialog>
  );
}
