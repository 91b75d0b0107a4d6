/** The Pages screen: the tree on the left, the open page on the right. */
import { useTranslation } from 'react-i18next';
import type { KnowledgeBase } from '../../../shared/models';
import { isIndexing, useIngest } from '../state/ingest';
import { usePages } from '../state/pages';
import { useUi } from '../state/ui';
import { EmptyState } from './EmptyState';
import { PageTree } from './PageTree';
import { PageView } from './PageView';

const NO_PAGES: never[] = [];

/** Browse the pages of a knowledge base. */
export function PagesScreen({ kb }: { kb: KnowledgeBase }) {
  const { t, i18n } = useTranslation();
  const pages = usePages((s) => s.pages[kb.id] ?? NO_PAGES);
  const browsed = usePages((s) => (s.browsed?.kbId === kb.id ? s.browsed : null));
  const browse = usePages((s) => s.browse);
  const status = useIngest((s) => s.status[kb.id]);
  const show = useUi((s) => s.show);

  if (pages.length === 0) {
    if (kb.folderCount === 0) {
      return (
        <EmptyState title={t('chat.noFoldersTitle')} action={<button className="primary" onClick={() => show('folders', 'folder-path')}>{t('chat.addFolder')}</button>}>
          <p>{t('pages.noFoldersText', { name: kb.name })}</p>
        </EmptyState>
      );
    }
    return isIndexing(status) ? (
      <EmptyState title={t('chat.stillIndexingTitle')}>
        <p>{t('pages.stillIndexingText', { done: status!.filesDone, total: status!.filesTotal ? status!.filesTotal.toLocaleString(i18n.language) : '…' })}</p>
      </EmptyState>
    ) : (
      <EmptyState title={t('pages.noPagesTitle')} action={<button onClick={() => show('folders')}>{t('pages.seeFolders')}</button>}>
        <p>{t('pages.noPagesText')}</p>
      </EmptyState>
    );
  }
  return (
    <div className="pages-screen">
      <PageTree pages={pages} openPath={browsed?.path ?? null} onOpen={(path) => browse(kb.id, path)} />
      <div className="pages-reader">
        {browsed ? (
          <PageView target={browsed} />
        ) : (
          <EmptyState title={t('pages.pickTitle')}>
            <p>{t('pages.pickText')}</p>
          </EmptyState>
        )}
      </div>
    </div>
  );
}
