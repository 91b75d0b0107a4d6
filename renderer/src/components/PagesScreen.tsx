/** The Pages screen: the tree on the left, the open page on the right. */
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
  const pages = usePages((s) => s.pages[kb.id] ?? NO_PAGES);
  const browsed = usePages((s) => (s.browsed?.kbId === kb.id ? s.browsed : null));
  const browse = usePages((s) => s.browse);
  const status = useIngest((s) => s.status[kb.id]);
  const show = useUi((s) => s.show);

  if (pages.length === 0) {
    if (kb.folderCount === 0) {
      return (
        <EmptyState title="No folders yet" action={<button className="primary" onClick={() => show('folders', 'folder-path')}>Add a folder</button>}>
          <p>Pages appear here once “{kb.name}” has a folder to read.</p>
        </EmptyState>
      );
    }
    return isIndexing(status) ? (
      <EmptyState title="Still indexing">
        <p>
          Reading {status!.filesDone} of {status!.filesTotal || '…'} files. Pages show up here as soon as they are written.
        </p>
      </EmptyState>
    ) : (
      <EmptyState title="No pages" action={<button onClick={() => show('folders')}>See folders and indexing</button>}>
        <p>None of the files in this knowledge base’s folders became a page yet.</p>
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
          <EmptyState title="Pick a page">
            <p>Choose a page on the left to read it as Sift indexed it.</p>
          </EmptyState>
        )}
      </div>
    </div>
  );
}
