/**
 * Reading and writing pages in a knowledge-base file. Every write of one file — its document
 * row, page, sections, chunks, keyword-index rows and vectors — happens in one transaction (its
 * own, or the caller's batch), so a crash leaves either the old version of the file or the new
 * one, never half of either.
 *
 * FTS5 writes its pending terms out as a new index segment at every savepoint — including the
 * statement savepoint SQLite opens inside a transaction for an insert that both checks foreign
 * keys and has a RETURNING clause, as the chunk inserts do. So nothing is written between keyword
 * rows: a file's rows go in after all its chunks, and a batch holds them all back to its end
 * (`writeKeywordRows`). Written one per chunk, each row became a segment of its own, and merging
 * those segments was half the cost of a write (2,000 notes: 3.5 s → 1.85 s). For the same reason
 * no savepoint is opened per file inside a caller's transaction. The section index (one row per
 * section, its chunks' token strings joined: nothing is tokenized twice) is written the same way,
 * after the chunk rows.
 */
import type Database from 'better-sqlite3';
import type { ParsedDocument } from './types';
import { now } from '../store/context';
import { noteRemovedKeywordRows, settleKeywordTotals } from '../store/keyword-totals';
import { cached } from '../store/statements';
import { hasVectorTables, putVector } from '../store/vectors';
import { NO_PAGE_FEATURES, type PageFeature } from './page-features';

/**
 * Run `body` in a transaction, or inside the caller's when one is open (no savepoint; see above). Keyword
 * rows it deleted come off the index's totals once its own transaction has committed (see
 * store/keyword-totals.ts); the caller's transaction settles them itself.
 */
function atomically(db: Database.Database, body: () => void): void {
  if (db.inTransaction) body();
  else {
    db.transaction(body)();
    settleKeywordTotals(db);
  }
}

/** A file turned into everything the store needs (what the parse worker sends back). */
export interface PreparedPage {
  folder: string;
  relPath: string;
  size: number;
  mtimeMs: number;
  sha256: string;
  /** `wiki/…` address. */
  path: string;
  title: string;
  doc: ParsedDocument;
  titleTokens: string;
  pathTokens: string;
  sections: { index: number; start: number; end: number; headingPath: string[] }[];
  chunks: { index: number; sectionIndex: number; start: number; end: number; hash: string; tokens: string }[];
}

/** What the store remembers of a file, to decide whether it changed. */
export interface StoredDocument {
  id: number;
  relPath: string;
  size: number;
  mtimeMs: number;
  sha256: string | null;
  status: 'indexed' | 'failed' | 'skipped';
  reason: string | null;
}

/** A file that could not become a page. */
export interface DocumentProblem {
  folder: string;
  relPath: string;
  size: number;
  mtimeMs: number;
  sha256: string | null;
  status: 'failed' | 'skipped';
  reason: string;
}

/** The documents of one folder, by relative path. */
export function documentsOf(db: Database.Database, folder: string): Map<string, StoredDocument> {
  const rows = db
    .prepare(`SELECT id, rel_path AS relPath, size, mtime_ms AS mtimeMs, sha256, status, reason FROM documents WHERE folder = ?`)
    .all(folder) as StoredDocument[];
  return new Map(rows.map((r) => [r.relPath, r]));
}

/** One document by folder and relative path, or undefined. */
export function documentAt(db: Database.Database, folder: string, relPath: string): StoredDocument | undefined {
  const sql = `SELECT id, rel_path AS relPath, size, mtime_ms AS mtimeMs, sha256, status, reason FROM documents WHERE folder = ? AND rel_path = ?`;
  return cached(db, sql).get(folder, relPath) as StoredDocument | undefined;
}

/**
 * Remove a document's page with its chunks, keyword rows and vectors (inside the caller's transaction);
 * what page features keep of it goes with the page row (their tables cascade, see page-features.ts).
 * Returns the vectors its chunks had, by chunk hash, for the page that replaces it (see writePage).
 */
function deletePageOf(db: Database.Database, documentId: number): Map<string, Buffer> {
  const kept = new Map<string, Buffer>();
  const page = cached(db, `SELECT id FROM pages WHERE document_id = ?`).get(documentId) as { id: number } | undefined;
  if (!page) return kept;
  noteRemovedKeywordRows(db, page.id);
  cached(db, `DELETE FROM chunks_fts WHERE rowid IN (SELECT id FROM chunks WHERE page_id = ?)`).run(page.id);
  if (hasVectorTables(db)) {
    const sql = `SELECT c.hash, v.vector FROM chunks c JOIN chunk_vectors v ON v.chunk_id = c.id WHERE c.page_id = ? AND c.embedded = 1`;
    for (const [hash, vector] of cached(db, sql).raw().iterate(page.id) as Iterable<[string, Buffer]>) kept.set(hash, vector);
    cached(db, `DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE page_id = ?)`).run(page.id);
    cached(db, `DELETE FROM vec_bits WHERE rowid IN (SELECT id FROM chunks WHERE page_id = ?)`).run(page.id);
  }
  cached(db, `DELETE FROM chunks WHERE page_id = ?`).run(page.id);
  cached(db, `DELETE FROM sections_fts WHERE rowid IN (SELECT id FROM sections WHERE page_id = ?)`).run(page.id);
  cached(db, `DELETE FROM sections WHERE page_id = ?`).run(page.id);
  cached(db, `DELETE FROM pages WHERE id = ?`).run(page.id);
  return kept;
}

function upsertDocument(
  db: Database.Database,
  d: { folder: string; relPath: string; size: number; mtimeMs: number; sha256: string | null; status: string; reason: string | null },
): number {
  const row = cached(
    db,
    `INSERT INTO documents (folder, rel_path, size, mtime_ms, sha256, status, reason, indexed_at)
     VALUES (@folder, @relPath, @size, @mtimeMs, @sha256, @status, @reason, @at)
     ON CONFLICT (folder, rel_path) DO UPDATE SET size = excluded.size, mtime_ms = excluded.mtime_ms,
       sha256 = excluded.sha256, status = excluded.status, reason = excluded.reason, indexed_at = excluded.indexed_at
     RETURNING id`,
  ).get({ ...d, at: now() }) as { id: number };
  return row.id;
}

/** A chunk's row of the keyword index: chunk id, tokens, page title tokens, page path tokens. */
export type KeywordRow = [chunkId: number, tokens: string, title: string, path: string];

/** A section's row of the section keyword index: section id, its chunks' tokens joined, page title tokens. */
export type SectionRow = [sectionId: number, tokens: string, title: string];

/** Keyword-index rows held back to be written together at the end of a transaction (see the top of this file). */
export interface HeldRows {
  chunks: KeywordRow[];
  sections: SectionRow[];
}

/** An empty set of held rows. */
export function heldRows(): HeldRows {
  return { chunks: [], sections: [] };
}

/**
 * Write held keyword rows, one after another: every chunk row, then every section row, so each
 * index gets one segment (see the top of this file for why they are held back).
 */
export function writeKeywordRows(db: Database.Database, rows: HeldRows): void {
  const insert = cached(db, `INSERT INTO chunks_fts (rowid, tokens, title, path) VALUES (?, ?, ?, ?)`);
  for (const row of rows.chunks) insert.run(row);
  const insertSection = cached(db, `INSERT INTO sections_fts (rowid, tokens, title) VALUES (?, ?, ?)`);
  for (const row of rows.sections) insertSection.run(row);
}

/**
 * The section rows of a page: each section's chunk tokens joined (the chunks' token strings do not
 * overlap, see prepare.ts, so a word counts once). Sections without chunks get no row.
 */
function sectionRows(p: PreparedPage, sectionIds: number[]): SectionRow[] {
  const tokens = new Map<number, string[]>();
  for (const c of p.chunks) {
    if (!c.tokens) continue;
    const list = tokens.get(c.sectionIndex);
    if (list) list.push(c.tokens);
    else tokens.set(c.sectionIndex, [c.tokens]);
  }
  return [...tokens].map(([index, list]) => [sectionIds[index]!, list.join(' '), p.titleTokens]);
}

/** How a page is written: the features that keep data of it, and where its keyword rows wait. */
export interface WriteOptions {
  /** Page features to write the page to (glossary, versions). Default none. */
  features?: readonly PageFeature[];
  /** Keyword rows of the caller's batch: the page's are appended for `writeKeywordRows` before its
   *  transaction ends. Default none: they are written at the end of this call. */
  held?: HeldRows;
}

/** Replace whatever the store had for this file with the new page, in one transaction. */
export function writePage(db: Database.Database, p: PreparedPage, options: WriteOptions = {}): void {
  const { features = NO_PAGE_FEATURES, held } = options;
  atomically(db, () => {
    const documentId = upsertDocument(db, { ...p, status: 'indexed', reason: null });
    const vectors = deletePageOf(db, documentId);
    const { doc } = p;
    const page = cached(
      db,
      `INSERT INTO pages (document_id, path, title, kind, text, metadata, headings, pdf_pages, language, encoding, title_tokens, path_tokens, ocr)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    ).get(
        documentId, p.path, p.title, doc.kind, doc.text, JSON.stringify(doc.metadata), JSON.stringify(doc.headings),
        doc.pages ? JSON.stringify(doc.pages) : null, doc.language, doc.encoding, p.titleTokens, p.pathTokens,
        doc.ocr ? JSON.stringify(doc.ocr) : null,
      ) as { id: number };
    const insertSection = cached(db, `INSERT INTO sections (page_id, idx, start, end, heading_path) VALUES (?, ?, ?, ?, ?) RETURNING id`);
    const sectionIds = p.sections.map((s) => (insertSection.get(page.id, s.index, s.start, s.end, JSON.stringify(s.headingPath)) as { id: number }).id);
    const insertChunk = cached(db, `INSERT INTO chunks (page_id, section_id, idx, start, end, hash, embedded) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`);
    const rows = held ?? heldRows();
    for (const c of p.chunks) {
      // A chunk whose text the page had before keeps its vector: a vector is the model's for the chunk's text
      // alone (`hash` is that text's sha256; store/vectors.ts), so editing one paragraph of a long note embeds
      // only the chunks it changed, and a new PAGE_FORMAT re-embeds nothing whose text it left alone.
      const vector = vectors.get(c.hash);
      const { id } = insertChunk.get(page.id, sectionIds[c.sectionIndex], c.index, c.start, c.end, c.hash, vector ? 1 : 0) as { id: number };
      rows.chunks.push([id, c.tokens, p.titleTokens, p.pathTokens]);
      if (vector) putVector(db, id, vector);
    }
    rows.sections.push(...sectionRows(p, sectionIds));
    const source = { relPath: p.relPath, title: p.title, kind: doc.kind, metadata: doc.metadata, text: () => doc.text };
    for (const feature of features) feature.write(db, page.id, source);
    if (!held) writeKeywordRows(db, rows);
  });
}

/** Record that a file could not become a page (dropping any page it had), in one transaction. */
export function writeProblem(db: Database.Database, problem: DocumentProblem): void {
  atomically(db, () => {
    const documentId = upsertDocument(db, problem);
    deletePageOf(db, documentId);
  });
}

/** The file is unchanged in content: remember its new size and mtime so the next scan skips it cheaply. */
export function touchDocument(db: Database.Database, id: number, size: number, mtimeMs: number): void {
  cached(db, `UPDATE documents SET size = ?, mtime_ms = ? WHERE id = ?`).run(size, mtimeMs, id);
}

/** Forget a file gone from disk, with its page, chunks and vectors. */
export function removeDocument(db: Database.Database, id: number): void {
  atomically(db, () => {
    deletePageOf(db, id);
    cached(db, `DELETE FROM documents WHERE id = ?`).run(id);
  });
}

/** Folders recorded in the store (to drop documents of folders no longer in the knowledge base). */
export function storedFolders(db: Database.Database): string[] {
  return db.prepare(`SELECT DISTINCT folder FROM documents`).pluck().all() as string[];
}
