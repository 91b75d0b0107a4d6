/**
 * Digest pages in a knowledge-base file. A digest is a page like any other (sections, chunks, keyword rows,
 * vectors once embedded), so search finds it; its document row sits in a folder of its own,
 * {@link DIGEST_FOLDER}, which is no path on disk: indexing never scans it and never removes it as a
 * vanished folder. The row's sha256 is the content hash of the source page the digest was made from, so
 * a digest is made again only when that hash moves; the page's metadata names the source.
 */
import type Database from 'better-sqlite3';
import { toIndexText } from '../text/tokenize';
import { parseFile } from '../ingest/parse';
import { sectionsAndChunks } from '../ingest/prepare';
import { removeDocument, writePage, type PreparedPage } from '../ingest/page-store';
import { cached } from '../store/statements';
import { settleKeywordTotals } from '../store/keyword-totals';
import { versionPages } from '../versions/feature';
import { DIGEST_FOLDER, DIGEST_ROOT, OVERVIEW_PATH } from './paths';

export { DIGEST_FOLDER, DIGEST_ROOT, OVERVIEW_PATH };


/** What the store remembers of one digest. */
export interface StoredDigest {
  documentId: number;
  /** The digest page's address. */
  path: string;
  /** The source page (`wiki/…`), or the overview's own path for the overview. */
  source: string;
  /** Content hash of the source the digest was made from. */
  sourceHash: string;
}

/** A page a digest can be made of: an indexed page read from a file, with its content hash. */
export interface SourcePage {
  pageId: number;
  path: string;
  title: string;
  sha256: string;
}

/**
 * The address of the digest of `sourcePath`: the source path under `wiki/_digest/`. A source page that
 * would take the overview's address (`wiki/overview.md`) gets `wiki/_digest/overview.page.md` instead.
 */
export function digestPathOf(sourcePath: string): string {
  const path = DIGEST_ROOT + sourcePath.slice('wiki/'.length);
  return path === OVERVIEW_PATH ? `${DIGEST_ROOT}overview.page.md` : path;
}

/** True for a page address under `wiki/_digest/`. */
export function isDigestPath(path: string): boolean {
  return path.startsWith(DIGEST_ROOT);
}

/** Pages read from files (not digests, not under `wiki/_digest/`), by path. */
export function sourcePages(db: Database.Database): SourcePage[] {
  const sql = `SELECT p.id AS pageId, p.path, p.title, d.sha256 FROM pages p JOIN documents d ON d.id = p.document_id
               WHERE d.folder != ? AND d.status = 'indexed' AND d.sha256 IS NOT NULL
                 AND p.path NOT LIKE 'wiki/\\_digest/%' ESCAPE '\\'
               ORDER BY p.path`;
  return db.prepare(sql).all(DIGEST_FOLDER) as SourcePage[];
}

/** Every digest stored, by source path (the overview under its own path). */
export function storedDigests(db: Database.Database): Map<string, StoredDigest> {
  const sql = `SELECT d.id AS documentId, p.path, p.metadata, d.sha256 AS sourceHash
               FROM documents d JOIN pages p ON p.document_id = d.id WHERE d.folder = ?`;
  type Row = { documentId: number; path: string; metadata: string; sourceHash: string };
  const rows = db.prepare(sql).all(DIGEST_FOLDER) as Row[];
  const out = new Map<string, StoredDigest>();
  for (const r of rows) {
    const source = String((JSON.parse(r.metadata) as { source?: unknown }).source ?? r.path);
    out.set(source, { documentId: r.documentId, path: r.path, source, sourceHash: r.sourceHash });
  }
  return out;
}

/** How many digest pages the knowledge base holds. */
export function digestCount(db: Database.Database): number {
  return cached(db, `SELECT count(*) FROM documents WHERE folder = ?`).pluck().get(DIGEST_FOLDER) as number;
}

/** A digest to write: its Markdown text, its title, what it was made from. */
export interface DigestPage {
  path: string;
  title: string;
  markdown: string;
  source: string;
  sourceHash: string;
  /** The model that wrote it. */
  model: string;
}

/**
 * Store a digest page (replacing the one at its address) in one transaction: parsed as Markdown, cut into
 * sections and chunks, keyword rows written; vectors follow at the next embedding pass. Throws `conflict`
 * style errors from SQLite only when a page read from a file has the same address (callers check first).
 */
export async function writeDigest(db: Database.Database, digest: DigestPage): Promise<void> {
  const doc = await parseFile('digest.md', Buffer.from(digest.markdown, 'utf8'));
  doc.metadata = { generated: 'digest', source: digest.source, sourceHash: digest.sourceHash, model: digest.model };
  const page: PreparedPage = {
    folder: DIGEST_FOLDER,
    relPath: digest.path.slice('wiki/'.length),
    size: Buffer.byteLength(digest.markdown),
    mtimeMs: Date.now(),
    sha256: digest.sourceHash,
    path: digest.path,
    title: digest.title,
    doc,
    titleTokens: toIndexText(digest.title),
    pathTokens: toIndexText(digest.path.slice('wiki/'.length)),
    ...sectionsAndChunks(doc),
  };
  // A digest has the version of its page's name (a digest of an old version is old too); it is no glossary.
  writePage(db, page, { features: [versionPages] });
}

/** True when a page read from a file already has this address (a folder with its own `_digest` folder). */
export function addressTaken(db: Database.Database, path: string): boolean {
  const sql = `SELECT 1 FROM pages p JOIN documents d ON d.id = p.document_id WHERE p.path = ? AND d.folder != ?`;
  return cached(db, sql).get(path, DIGEST_FOLDER) !== undefined;
}

/** Remove every digest of the knowledge base in one transaction; returns how many there were. */
export function removeAllDigests(db: Database.Database): number {
  const digests = [...storedDigests(db).values()];
  db.transaction(() => digests.forEach((d) => removeDigest(db, d)))();
  settleKeywordTotals(db);
  return digests.length;
}

/** Remove one digest with its chunks, keyword rows and vectors. */
export function removeDigest(db: Database.Database, digest: StoredDigest): void {
  removeDocument(db, digest.documentId);
}
