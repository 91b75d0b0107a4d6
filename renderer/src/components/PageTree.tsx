/** A browsable tree of a knowledge base's pages (folders collapsible), with a fuzzy filter. */
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageSummary } from '../../../shared/models';
import { matchPages } from '../lib/mention';
import { Icon } from './Icon';

interface TreeFolder {
  name: string;
  key: string;
  folders: TreeFolder[];
  pages: PageSummary[];
}

/** Group pages into folders by their path after `wiki/`. */
function buildTree(pages: PageSummary[]): TreeFolder {
  const root: TreeFolder = { name: '', key: 'wiki', folders: [], pages: [] };
  for (const page of pages) {
    const parts = page.path.replace(/^wiki\//, '').split('/');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      let next = node.folders.find((f) => f.name === part);
      if (!next) node.folders.push((next = { name: part, key: `${node.key}/${part}`, folders: [], pages: [] }));
      node = next;
    }
    node.pages.push(page);
  }
  return root;
}

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
  const tree = useMemo(() => buildTree(pages), [pages]);
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
        <FolderChildren folder={tree} openPath={openPath} onOpen={onOpen} />
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
  const [expanded, setExpanded] = useState(true);
  return (
    <li>
      <button type="button" className="tree-folder" aria-expanded={expanded} onClick={() => setExpanded(!expanded)}>
        <span className={expanded ? 'chevron open' : 'chevron'}>
          <Icon name="chevron" size={12} />
        </span>
        <Icon name="folder" />
        <span className="tree-label">{folder.name}</span>
      </button>
      {expanded && <FolderChildren folder={folder} openPath={openPath} onOpen={onOpen} />}
    </li>
  );
}

function PageItem({ page, open, onOpen, showPath }: { page: PageSummary; open: boolean; onOpen(path: string): void; showPath?: boolean }) {
  const file = page.path.split('/').pop() ?? page.path;
  const stem = file.replace(/\.[^.]+$/, '');
  return (
    <li>
      <button
        type="button"
        className={open ? 'tree-page open' : 'tree-page'}
        aria-current={open ? 'page' : undefined}
        title={page.path}
        onClick={() => onOpen(page.path)}
      >
        <Icon name="file" />
        <span className="tree-label">{page.title || file}</span>
        {(showPath || page.title !== stem) && <span className="tree-sub">{showPath ? page.path.replace(/^wiki\//, '') : file}</span>}
      </button>
    </li>
  );
}
