/** A modal window with a title and a close button (native `<dialog>`: focus stays inside, Esc closes). */
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DialogShell } from './DialogShell';
import { Icon } from './Icon';

/** Props of {@link Modal}. */
export interface ModalProps {
  title: string;
  children: ReactNode;
  /** Extra class for sizing, e.g. `settings-dialog`. Default none. */
  className?: string;
  onClose(): void;
}

/** A modal dialog, open while rendered. */
export function Modal({ title, children, className, onClose }: ModalProps) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <DialogShell titleId={titleId} className={className ? `dialog modal ${className}` : 'dialog modal'} onCancel={onClose}>
      <header className="modal-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="icon-button" aria-label={t('common.close')} title={t('common.close')} onClick={onClose}>
          <Icon name="close" />
        </button>
      </header>
      {children}
    </DialogShell>
  );
}
