/** The native `<dialog>` behind every modal: open while rendered, focus kept inside, Esc cancels. */
import { useEffect, useRef, type ReactNode } from 'react';

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
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) dialog.showModal();
    return () => dialog?.close();
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
