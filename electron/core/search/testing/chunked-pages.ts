/**
 * Pages written straight into a knowledge-base file for keyword-stage tests: each page is one section whose
 * chunks are the given texts, in order, so page n's chunks get consecutive ids.
 */
import type Database from 'better-sqlite3';
import { writePage } from '../../ingest/page-store';
import { toIndexText } from '../../text/tokenize';

/** One page: its chunks' texts and how it is named (defaults: an untitled note, no title or path tokens). */
export interface ChunkedPage {
  texts: string[];
  title?: string;
  /** The file name, `${n}.md` by default; the page is `wiki/<relPath>`. */
  relPath?: string;
  titleTokens?: string;
  pathTokens?: string;
  /** The parsed document's title (null by default). */
  docTitle?: string | null;
  headingPath?: string[];
}

/** Write `pages` (page n with sha256 `s<n>` and chunk hashes `h<n>.<index>`). */
export function writeChunkedPages(db: Database.Database, pages: ChunkedPage[]): void {
  pages.forEach((page, n) => {
    const { texts, title = `note ${n}`, relPath = `${n}.md`, titleTokens = '', pathTokens = '', docTitle = null, headingPath = [] } = page;
    const text = texts.join('\n');
    let start = 0;
    const chunks = texts.map((t, index) => {
      const chunk = { index, sectionIndex: 0, start, end: start + t.length, hash: `h${n}.${index}`, tokens: toIndexText(t) };
      start += t.length + 1;
      return chunk;
    });
    writePage(db, {
      folder: '/n', relPath, size: text.length, mtimeMs: 1, sha256: `s${n}`, path: `wiki/${relPath}`, title,
      doc: { kind: 'text', text, title: docTitle, metadata: {}, headings: [], pages: null, language: null, encoding: 'utf-8' },
      titleTokens, pathTokens, sections: [{ index: 0, start: 0, end: text.length, headingPath }], chunks,
    });
  });
}
