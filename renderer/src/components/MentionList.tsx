/** The list of pages offered while an @-mention is typed (a listbox the composer drives by keyboard). */
import { useTranslation } from 'react-i18next';
import type { PageSummary } from '../../../shared/models';

/** Props of {@link MentionList}. */
export interface MentionListProps {
  id: string;
  pages: PageSummary[];
  active: number;
  query: string;
  onChoose(page: PageSummary): void;
  onHover(index: number): void;
}

/** The id of option `index` of list `id` (for aria-activedescendant). */
export function optionId(id: string, index: number): string {
  return `${id}-option-${index}`;
}

/** The mention suggestions, above the composer. */
export function MentionList({ id, pages, active, query, onChoose, onHover }: MentionListProps) {
  const { t } = useTranslation();
  return (
    <div className="mention-popup">
      {pages.length === 0 ? (
        <p className="mention-empty">{t('composer.noPageMatches', { query })}</p>
      ) : (
        <ul id={id} role="listbox" aria-label={t('composer.pagesToReference')} className="mention-list">
          {pages.map((page, i) => (
            <li
              key={page.path}
              id={optionId(id, i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? 'mention-option active' : 'mention-option'}
              // mousedown, not click: the textarea must keep its focus and caret
              onMouseDown={(e) => {
                e.preventDefault();
                onChoose(page);
              }}
              onMouseEnter={() => onHover(i)}
            >
              <span className="mention-title">{page.title}</span>
              <span className="mention-path">{page.path}</span>
            </li>
          ))}
        </ul>
      )}
      <p className="mention-hint" aria-hidden="true">
        {t('composer.mentionHint')}
      </p>
    </div>
  );
}
