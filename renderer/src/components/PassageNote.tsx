/** The line above a page's text saying where the cited passage is, with a button that scrolls to it. */
import { useTranslation } from 'react-i18next';

/** `where` is the sentence (section, PDF page, lines, rows, slide, chapter); `onShow` scrolls to the passage. */
export function PassageNoteLine({ where, onShow }: { where: string; onShow(): void }) {
  const { t } = useTranslation();
  return (
    <p className="passage-note">
      {where}{' '}
      <button type="button" className="link-button" onClick={onShow}>
        {t('pages.showIt')}
      </button>
    </p>
  );
}
