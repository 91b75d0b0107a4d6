/** Grouping a knowledge base's pages into a tree: one root per folder, in a stable order. */
import type { PageSummary } from '../../../shared/models';

/** A folder of the page tree: a knowledge-base folder (a root) or a folder inside one. */
export interface TreeFolder {
  name: string;
  key: string;
  /** The folder's full path on disk, for a root's tooltip; null for folders inside one. */
  path: string | null;
  folders: TreeFolder[];
  pages: PageSummary[];
  /** The root of the page digests Sift wrote (`wiki/_digest/…`), shown last under its own name. */
  generated?: boolean;
}

// Numeric so "Note 2" comes before "Note 10". One fixed locale, so the order does not change with
// the UI language or the system's. Chinese collation: Chinese names first, by pinyin, then Latin.
const collator = new Intl.Collator('zh-CN', { numeric: true, sensitivity: 'base' });

/** The last part of a folder path (either slash), for a root's label. */
export function baseName(folder: string): string {
  return folder.replace(/[\\/]+$/, '').split(/[\\/]/).pop() || folder;
}

/**
 * One root per folder of the knowledge base (named after it), pages grouped by their path inside
 * it. The folder added first (its pages sit directly under `wiki/`) comes first, then by name;
 * inside, sub-folders before pages, both in numeric name order.
 */
export function buildRoots(pages: PageSummary[]): TreeFolder[] {
  const roots = new Map<string, TreeFolder>();
  const first = new Set<string>();
  for (const page of pages) {
    let root = roots.get(page.folder);
    if (!root) {
      root = { name: baseName(page.folder), key: page.folder, path: page.folder, folders: [], pages: [] };
      if (page.generated) Object.assign(root, { path: null, generated: true });
      roots.set(page.folder, root);
    }
    // Digests sit at `_digest/<the source's path>`: their root stands for `_digest`.
    const relPath = page.generated ? page.relPath.replace(/^_digest\//, '') : page.relPath;
    if (!page.generated && page.path === `wiki/${page.relPath}`) first.add(page.folder);
    let node = root;
    for (const part of relPath.split('/').slice(0, -1)) {
      let next = node.folders.find((f) => f.name === part);
      if (!next) {
        next = { name: part, key: `${node.key}/${part}`, path: null, folders: [], pages: [] };
        node.folders.push(next);
      }
      node = next;
    }
    node.pages.push(page);
  }
  const isFirst = (f: TreeFolder) => Number(first.has(f.key));
  const isGenerated = (f: TreeFolder) => Number(f.generated === true);
  const sorted = [...roots.values()].sort(
    (a, b) => isGenerated(a) - isGenerated(b) || isFirst(b) - isFirst(a) || collator.compare(a.name, b.name),
  );
  sorted.forEach(sortFolder);
  return sorted;
}

function sortFolder(folder: TreeFolder): void {
  folder.folders.sort((a, b) => collator.compare(a.name, b.name));
  folder.pages.sort((a, b) => collator.compare(fileOf(a), fileOf(b)));
  folder.folders.forEach(sortFolder);
}

/** The file name of a page. */
export function fileOf(page: PageSummary): string {
  return page.relPath.split('/').pop() ?? page.relPath;
}
