/**
 * What answers a whole-folder question ("总结一下这个库", "what's in here?") when the knowledge base has no
 * overview file of its own (issue #25 item 6): the digest overview when digests were written, else an
 * outline made by code from the pages themselves — titles, top headings and sizes, grouped by folder, each
 * line cited with the page's first chunk, so every citation opens that page.
 *
 * Bounded for a large knowledge base: one statement reads every page's path, title and size (no text), the
 * outline shows at most {@link OUTLINE_PAGES} pages (the largest of each folder in turn) and names at most
 * {@link OUTLINE_FOLDERS} folders; only the pages shown are loaded.
 */
import type Database from 'better-sqlite3';
import type { Citation } from '../../../shared/chat-models';
import { quoteInline } from '../../../shared/markdown-text';
import type { Passage } from '../../../shared/models';
import { buildPassage, loadPages, type PageInfo } from '../search/passages';
import { DIGEST_FOLDER, DIGEST_OVERVIEW_PATH } from '../store/page-model';
import { cached } from '../store/statements';

/** Pages an outline shows at most. */
export const OUTLINE_PAGES = 30;
/** Folders an outline names at most (the rest are counted). */
export const OUTLINE_FOLDERS = 20;
/** Headings shown per page at most. */
const HEADINGS_SHOWN = 4;
/** How much of the digest overview to quote, in characters (cut at a chunk end). */
const OVERVIEW_CHARS = 3000;

/** The digest overview's opening as a meta passage (hit reason `kb_meta`), or none when digests were not written. */
export function digestOverviewPassages(db: Database.Database): Passage[] {
  const id = cached(db, `SELECT id FROM pages WHERE path = ?`).pluck().get(DIGEST_OVERVIEW_PATH) as number | undefined;
  if (id === undefined) return [];
  const page = loadPages(db, [id]).get(id);
  const chunks = cached(db, `SELECT start, end FROM chunks WHERE page_id = ? ORDER BY idx`).all(id) as { start: number; end: number }[];
  if (!page || chunks.length === 0) return [];
  const start = chunks[0]!.start;
  const end = (chunks.find((c) => c.end - start >= OVERVIEW_CHARS) ?? chunks.at(-1)!).end;
  return [buildPassage(page, start, end, [], 'kb_meta')];
}

/** One page of an outline. */
export interface OutlinePage {
  path: string;
  title: string;
  /** The file's size in bytes. */
  bytes: number;
  /** Its top headings (the highest level under the title), at most a few. */
  headings: string[];
  /** Its first chunk: what the line's citation opens. */
  passage: Passage;
}

/** One folder of an outline: its pages shown, and how many it has. */
export interface OutlineFolder {
  /** The folder under `wiki/` (`''` for the root). */
  folder: string;
  pageCount: number;
  pages: OutlinePage[];
}

/** The outline of a knowledge base. */
export interface KbOutline {
  pageCount: number;
  folderCount: number;
  /** Folders with pages shown, most pages first. */
  folders: OutlineFolder[];
  /** Folders named without pages shown (at most OUTLINE_FOLDERS in all), and how many more there are. */
  otherFolders: { folder: string; pageCount: number }[];
  foldersNotNamed: number;
  /** Pages shown in all. */
  shown: number;
}

interface Row {
  id: number;
  path: string;
  title: string;
  bytes: number;
}

/** The folder of a page under `wiki/`, at most `depth` folders deep (`''` for the root). */
function folderOf(path: string, depth: number): string {
  const parts = path.replace(/^wiki\//, '').split('/').slice(0, -1);
  return parts.slice(0, depth).join('/');
}

/** Folder levels tried for the grouping. */
const MAX_DEPTH = 4;

/** How deep to group: the deepest level at which there are at most OUTLINE_FOLDERS folders (else the top one). */
function groupDepth(paths: string[]): number {
  let best = 1;
  for (let depth = 1; depth <= MAX_DEPTH; depth++) {
    if (new Set(paths.map((p) => folderOf(p, depth))).size <= OUTLINE_FOLDERS) best = depth;
    else break;
  }
  return best;
}

/** The top headings of a page other than its title: the highest level that has more than one (a page under a
 *  single top heading shows the sections under it), in order, at most HEADINGS_SHOWN. */
function topHeadings(page: PageInfo): string[] {
  const title = page.title.trim().toLowerCase();
  const isTitle = (text: string) => title === text || title.startsWith(`${text} `);
  const others = page.headings.filter((h) => h.text.trim() !== '' && !isTitle(h.text.trim().toLowerCase()));
  const levels = [...new Set(others.map((h) => h.level))].sort((a, b) => a - b);
  const level = levels.find((l) => others.filter((h) => h.level === l).length > 1) ?? levels[0];
  if (level === undefined) return [];
  return [...new Set(others.filter((h) => h.level === level).map((h) => h.text.trim()))].slice(0, HEADINGS_SHOWN);
}

/**
 * The outline of the knowledge base in `db` (digests left out), grouped by folder (as deep as keeps the folders
 * to OUTLINE_FOLDERS, else by top folder): every folder's page count (with its subfolders), and at most
 * `limit` pages shown, chosen folder by folder in turn (folders with the most pages first), the largest
 * page of each first, so a big folder cannot hide the small ones. Null when it has no page.
 */
export function kbOutline(db: Database.Database, limit = OUTLINE_PAGES): KbOutline | null {
  const sql = `SELECT p.id, p.path, p.title, d.size AS bytes FROM pages p JOIN documents d ON d.id = p.document_id
    WHERE d.folder != ? AND EXISTS (SELECT 1 FROM chunks c WHERE c.page_id = p.id) ORDER BY d.size DESC, p.path`;
  const rows = cached(db, sql).all(DIGEST_FOLDER) as Row[];
  if (rows.length === 0) return null;
  const depth = groupDepth(rows.map((r) => r.path));
  const byFolder = new Map<string, Row[]>();
  for (const row of rows) {
    const folder = folderOf(row.path, depth);
    const list = byFolder.get(folder);
    if (list) list.push(row);
    else byFolder.set(folder, [row]);
  }
  const folders = [...byFolder.entries()].sort((a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]));
  // Round robin over the folders (most pages first), the largest page of each first.
  const picked: Row[] = [];
  for (let round = 0; picked.length < limit; round++) {
    let any = false;
    for (const [, list] of folders.slice(0, OUTLINE_FOLDERS)) {
      if (round < list.length && picked.length < limit) {
        picked.push(list[round]!);
        any = true;
      }
    }
    if (!any) break;
  }
  const pages = loadPages(db, picked.map((r) => r.id));
  const firstChunk = `SELECT start, end FROM chunks WHERE page_id = ? ORDER BY idx LIMIT 1`;
  const shownOf = new Map<string, OutlinePage[]>();
  for (const row of picked) {
    const page = pages.get(row.id);
    const chunk = cached(db, firstChunk).get(row.id) as { start: number; end: number } | undefined;
    if (!page || !chunk) continue;
    const line: OutlinePage = {
      path: row.path, title: row.title, bytes: row.bytes, headings: topHeadings(page),
      passage: buildPassage(page, chunk.start, chunk.end, [], 'title'),
    };
    const folder = folderOf(row.path, depth);
    shownOf.set(folder, [...(shownOf.get(folder) ?? []), line]);
  }
  const withPages: OutlineFolder[] = [];
  const otherFolders: KbOutline['otherFolders'] = [];
  for (const [folder, list] of folders) {
    const shown = shownOf.get(folder);
    if (shown) withPages.push({ folder, pageCount: list.length, pages: shown });
    else if (withPages.length + otherFolders.length < OUTLINE_FOLDERS) otherFolders.push({ folder, pageCount: list.length });
  }
  const shown = withPages.reduce((n, f) => n + f.pages.length, 0);
  const foldersNotNamed = folders.length - withPages.length - otherFolders.length;
  return { pageCount: rows.length, folderCount: folders.length, folders: withPages, otherFolders, foldersNotNamed, shown };
}

/** A size for people: `840 B`, `12 KB`, `3.4 MB`. */
function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The outline's passages in citation order (`[n]` is `passages[n - 1]`). */
export function outlinePassages(outline: KbOutline): Passage[] {
  return outline.folders.flatMap((f) => f.pages.map((p) => p.passage));
}

/**
 * The answer to a whole-folder question from `outline`, in Chinese when `zh`: how many pages and folders,
 * that this is an outline (no overview page or digest exists) and how much of it is shown, then each folder
 * with its page count and its pages shown, one cited line each: title, path, size and top headings.
 */
export function outlineAnswer(outline: KbOutline, zh: boolean): { text: string; citations: Citation[] } {
  const { pageCount: n, folderCount: f, shown } = outline;
  let text = zh
    ? `这个知识库有 ${n} 个页面，分布在 ${f} 个文件夹。它没有概览页（README 等）也没有摘要，下面是按页面生成的目录${shown < n ? `（显示其中 ${shown} 个页面：每个文件夹最大的几页）` : ''}；开启摘要可得到一份写成文字的概览。\n`
    : `This knowledge base has ${n} ${n === 1 ? 'page' : 'pages'} in ${f} ${f === 1 ? 'folder' : 'folders'}. It has no overview page (README or similar) and no digests, so here is an outline of its pages${shown < n ? ` (showing ${shown}: the largest of each folder)` : ''}; turn on digests for a written overview.\n`;
  const citations: Citation[] = [];
  let number = 0;
  for (const folder of outline.folders) {
    const name = folder.folder === '' ? (zh ? '（根目录）' : '(top folder)') : `${quoteInline(folder.folder)}/`;
    const count = zh
      ? `${folder.pageCount} 个页面${folder.pages.length < folder.pageCount ? `，显示 ${folder.pages.length} 个` : ''}`
      : `${folder.pageCount} ${folder.pageCount === 1 ? 'page' : 'pages'}${folder.pages.length < folder.pageCount ? `, showing ${folder.pages.length}` : ''}`;
    text += `\n**${name}** (${count})\n\n`;
    for (const page of folder.pages) {
      number++;
      const headings = page.headings.length > 0 ? ` — ${page.headings.map((h) => quoteInline(h, 60)).join(' · ')}` : '';
      text += `${number}. **${quoteInline(page.title, 100)}** (\`${page.path}\`, ${sizeOf(page.bytes)})${headings} `;
      const markerStart = text.length;
      text += `[${number}]\n`;
      citations.push({ number, valid: true, markerStart, markerEnd: markerStart + `[${number}]`.length, quote: null, quoteVerified: null });
    }
  }
  if (outline.otherFolders.length > 0 || outline.foldersNotNamed > 0) {
    const named = outline.otherFolders.map((o) => (zh ? `${quoteInline(o.folder)}/（${o.pageCount}）` : `${quoteInline(o.folder)}/ (${o.pageCount})`));
    const more = outline.foldersNotNamed > 0 ? (zh ? `，另有 ${outline.foldersNotNamed} 个文件夹` : `, and ${outline.foldersNotNamed} more`) : '';
    text += zh ? `\n其他文件夹：${named.join('、')}${more}。\n` : `\nOther folders: ${named.join(', ')}${more}.\n`;
  }
  return { text: text.trimEnd(), citations };
}
