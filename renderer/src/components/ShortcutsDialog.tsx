/** The keyboard shortcuts help: every key the window answers to, from the table in lib/shortcuts.ts. */
import { useTranslation } from 'react-i18next';
import { SHORTCUT_ROWS } from '../lib/shortcuts';
import { Modal } from './Modal';

/** The shortcuts dialog. */
export function ShortcutsDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  return (
    <Modal title={t('shortcuts.title')} className="shortcuts-dialog" onClose={onClose}>
      <table className="shortcuts-table">
        <tbody>
          {SHORTCUT_ROWS.map((row) => (
            <tr key={row.what}>
              <th scope="row">
                {row.keys.map((k, i) => (
                  <span key={k}>
                    {i > 0 && ' '}
                    <kbd>{k}</kbd>
                  </span>
                ))}
              </th>
              <td>{t(row.what as 'shortcuts.send')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}
