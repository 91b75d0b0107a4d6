/** A modal confirmation (native `<dialog>`: focus stays inside, Esc cancels; it may open over another dialog). */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogShell } from './DialogShell';

/** Props of {@link ConfirmDialog}. */
export interface ConfirmDialogProps {
  title: string;
  children: ReactNode;
  /** The confirming button's label, e.g. "Delete". */
  confirmLabel: string;
  /** Style the confirming button as destructive. Default true. */
  danger?: boolean;
  onConfirm(): void;
  onCancel(): void;
}

/** Ask before doing something that cannot be undone. Rendered only while it is open. */
export function ConfirmDialog({ title, children, confirmLabel, danger = true, onConfirm, onCancel }: ConfirmDialogProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <DialogShell titleId={titleId} className="dialog" onCancel={onCancel}>
      <h2 id={titleId}>{title}</h2>
      <div className="dialog-body">{children}</div>
      <div className="dialog-actions">
        <button type="button" onClick={onCancel} autoFocus>
          {t('common.cancel')}
        </button>
        <button type="button" className={danger ? 'danger' : 'primary'} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </DialogShell>
  );
}
