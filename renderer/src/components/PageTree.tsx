/** A browsable tree of a knowledge base's pages (folders collapsible), with a fuzzy filter. */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageSummary } from '../../../shared/models';
import { matchPages } from '../lib/mention';
import { baseName, buildRoots, fileOf, type TreeFolder } from '../lib/page-tree';
import { Icon } from './Icon';

/** Props of {@link PageTree}. */
export interface PageTreeProps {
  pages: PageSummary[];
  /** The open page's path, marked as current. */
  openPath: string | null;
  onOpen(path: string): void;
}

/** The page tree with its filter field. */
export function PageTree({ pages, openPath, onOpen }: PageTreeProps) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const roots = useMemo(() => buildRoots(pages), [pages]);
  const matches = useMemo(() => (filter.trim() ? matchPages(pages, filter.trim(), 50) : null), [pages, filter]);
  return (
    <nav className="page-tree" aria-label={t('pages.tree')}>
      <input
        type="search"
        className="tree-filter"
        aria-label={t('pages.filter')}
        placeholder={t('pages.filterPlaceholder', { count: pages.length })}
        value={filter}
        onChange={(e) => setFilter(e.target.value)}
      />
      {matches ? (
        matches.length === 0 ? (
          <p className="muted tree-empty">{t('pages.noMatch', { filter })}</p>
        ) : (
          <ul className="tree-list" role="list">
            {matches.map((p) => (
              <PageItem key={p.path} page={p} open={p.path === openPath} onOpen={onOpen} showPath />
            ))}
          </ul>
        )
      ) : (
        <ul className="tree-list tree-roots" role="list">
          {roots.map((root) => (
            <FolderItem key={root.key} folder={root} openPath={openPath} onOpen={onOpen} />
          ))}
        </ul>
      )}
    </nav>
  );
}

function FolderChildren({ folder, openPath, onOpen }: { folder: TreeFolder; openPath: string | null; onOpen(path: string): void }) {
  return (
    <ul className="tree-list" role="list">
      {folder.folders.map((f) => (
        <FolderItem key={f.key} folder={f} openPath={openPath} onOpen={onOpen} />
      ))}
      {folder.pages.map((p) => (
        <PageItem key={p.path} page={p} open={p.path === openPath} onOpen={onOpen} />
      ))}
    </ul>
  );
}

function FolderItem({ folder, openPath, onOpen }: { folder: TreeFolder; openPath: string | null; onOpen(path: string): void }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(true);
  return (
    <li>
      <button
        type="button"
        className={folder.path ? 'tree-folder tree-root' : 'tree-folder'}
        aria-expanded={expanded}
        title={folder.path ?? undefined}
        onClick={() => setExpanded(!expanded)}
      >
        <span className={expanded ? 'chevron open' : 'chevron'}>
          <Icon name="chevron" size={12} />
        </span>
        <Icon name="folder" />
        <span className="tree-label">{folder.generated ? t('digests.folder') : folder.name}</span>
        {folder.generated && <span className="badge generated-mark">{t('digests.generated')}</span>}
      </button>
      {expanded && <FolderChildren folder={folder} openPath={openPath} onOpen={onOpen} />}
    </li>
  );
}

function PageItem({ page, open, onOpen, showPath }: { page: PageSummary; open: boolean; onOpen(path: string): void; showPath?: boolean }) {
  const { t } = useTranslation();
  const file = fileOf(page);
  const title = page.title || file;
  // Title on the first line, where the page lives on the second: both readable, nothing cut short.
  const sub = showPath ? `${baseName(page.folder)}/${page.relPath}` : file;
  return (
    <li>
      <button
        type="button"
        className={open ? 'tree-page open' : 'tree-page'}
        aria-current={open ? 'page' : undefined}
        title={`${title}\n${page.path}`}
        onClick={() => onOpen(page.path)}
      >
        <Icon name="file" />
        <span className="tree-text">
          <span className="tree-label">{title}</span>
          {sub !== title && <span className="tree-sub">{sub}</span>}
        </span>
        {page.generated && <span className="badge generated-mark">{t('digests.generated')}</span>}
      </button>
    </li>
  );
}
