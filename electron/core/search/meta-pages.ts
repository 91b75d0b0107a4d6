/**
 * Knowledge-base meta pages: the files at a folder's root that describe the folder as a whole
 * (`purpose`, `overview`, `index`, `README`, in that order of preference). For a question about the
 * whole knowledge base ("what is in here?") they come before any search hit, with hit reason `kb_meta`,
 * because the person wrote them to answer exactly that.
 */
import type Database from 'better-sqlite3';
import type { Passage } from '../../../shared/models';
import { buildPassage, loadPages } from './passages';

/** File names (without extension, any case) that make a root file a meta page, most telling first. */
export const META_NAMES = ['purpose', 'overview', 'index', 'readme'];
/** Extensions a meta page may have. */
const META_EXTENSIONS = ['md', 'markdown', 'txt', 'html', 'htm', 'rst'];

/** How much of each meta page to quote, in characters. Default 1,500 (cut at a chunk end). */
export const META_PASSAGE_CHARS = 1500;

interface MetaRow {
  id: number;
  relPath: string;
}

function metaRank(relPath: string): number {
  const m = /^([^/]+)\.([A-Za-z]+)$/.exec(relPath);
  if (!m || !META_EXTENSIONS.includes(m[2]!.toLowerCase())) return -1;
  return META_NAMES.indexOf(m[1]!.toLowerCase());
}

/**
 * The opening of each meta page of the knowledge base (one per page, at most `limit`), best first;
 * each passage ends at a chunk boundary at or after {@link META_PASSAGE_CHARS} characters, so its span
 * is one a citation can open.
 */
export function kbMetaPassages(db: Database.Database, limit = 3, chars = META_PASSAGE_CHARS): Passage[] {
  const rows = db
    .prepare(`SELECT p.id, d.rel_path AS relPath FROM pages p JOIN documents d ON d.id = p.document_id WHERE d.rel_path NOT LIKE '%/%'`)
    .all() as MetaRow[];
  const ranked = rows
    .map((r) => ({ ...r, rank: metaRank(r.relPath) }))
    .filter((r) => r.rank >= 0)
    .sort((a, b) => a.rank - b.rank || a.relPath.localeCompare(b.relPath))
    .slice(0, limit);
  const pages = loadPages(db, ranked.map((r) => r.id));
  const chunkEnds = db.prepare(`SELECT start, end FROM chunks WHERE page_id = ? ORDER BY idx`);
  const passages: Passage[] = [];
  for (const r of ranked) {
    const page = pages.get(r.id);
    const chunks = chunkEnds.all(r.id) as { start: number; end: number }[];
    if (!page || chunks.length === 0) continue;
    const start = chunks[0]!.start;
    const end = (chunks.find((c) => c.end - start >= chars) ?? chunks.at(-1)!).end;
    passages.push(buildPassage(page, start, end, [], 'kb_meta'));
  }
  return passages;
}
