/**
 * The manifest of a knowledge base: one row per file Sift knows, with what it read (size, time, sha256
 * of the bytes, parser, encoding) and what it made of it (page, chunks, whether their vectors are
 * current). It is how a person or another agent checks what the index holds and how fresh it is.
 */
import path from 'node:path';
import type { OcrInfo } from '../store/page-model';
import type Database from 'better-sqlite3';
import { DIGEST_FOLDER } from '../store/page-model';
import type { ManifestRow } from '../../../shared/models';
import { NO_PAGE_FEATURES, type PageFeature } from './page-features';
import { hasVectorTables, keywordOnlyReason, recordedModel } from '../store/vectors';

interface Row {
  pageId: number | null;
  folder: string;
  relPath: string;
  size: number;
  mtimeMs: number;
  sha256: string | null;
  status: ManifestRow['status'];
  reason: string | null;
  indexedAt: string;
  path: string | null;
  title: string | null;
  kind: string | null;
  encoding: string | null;
  ocr: string | null;
  pdfPages: string | null;
  chunks: number;
  embedded: number;
}

const ROWS = `
  SELECT p.id AS pageId, d.folder, d.rel_path AS relPath, d.size, d.mtime_ms AS mtimeMs, d.sha256, d.status, d.reason,
         d.indexed_at AS indexedAt, p.path, p.title, p.kind, p.encoding, p.ocr, p.pdf_pages AS pdfPages,
         (SELECT count(*) FROM chunks c WHERE c.page_id = p.id) AS chunks,
         (SELECT count(*) FROM chunks c WHERE c.page_id = p.id AND c.embedded = 1) AS embedded
  FROM documents d LEFT JOIN pages p ON p.document_id = d.id
  WHERE d.folder != '${DIGEST_FOLDER}'
  ORDER BY d.folder, d.rel_path`;

/**
 * Every document of the knowledge base in folder and path order, failed and skipped ones included.
 * `vectors` is `current` when every chunk has a vector of the recorded model, `pending` while some
 * wait for one, and `none` for a keyword-only knowledge base or a document without a page. Page
 * features add what they know of a page (its version); fields no feature fills are null.
 */
export function manifest(db: Database.Database, features: readonly PageFeature[] = NO_PAGE_FEATURES): ManifestRow[] {
  const vectorsExist = hasVectorTables(db) && recordedModel(db) !== null && keywordOnlyReason(db) === null;
  const rows = db.prepare(ROWS).all() as Row[];
  const described = features.flatMap((f) => (f.describe ? [f.describe(db)] : []));
  const extra = (pageId: number | null) => (pageId === null ? {} : Object.assign({}, ...described.map((d) => d.get(pageId))));
  return rows.map((r) => ({
    sourcePath: path.join(r.folder, r.relPath),
    folder: r.folder,
    relPath: r.relPath,
    size: r.size,
    mtime: new Date(r.mtimeMs).toISOString(),
    sha256: r.sha256,
    status: r.status,
    reason: r.reason,
    indexedAt: r.indexedAt,
    page: r.path,
    title: r.title,
    ...parserOf(r),
    encoding: r.encoding,
    chunks: r.chunks,
    embeddedChunks: r.embedded,
    vectors: vectorStatus(r, vectorsExist),
    version: null,
    versionLabel: null,
    ...extra(r.pageId),
  }));
}

/**
 * The parser of a row, and what OCR read: `ocr` for an image or a PDF every page of which OCR read, `pdf+ocr` for a
 * PDF with some text-layer pages; with the model, mean confidence, low flag and pages read.
 */
function parserOf(r: Row): Pick<ManifestRow, 'parser' | 'ocr'> {
  if (!r.ocr) return { parser: r.kind, ocr: null };
  const ocr = JSON.parse(r.ocr) as OcrInfo;
  const pages = r.pdfPages ? (JSON.parse(r.pdfPages) as unknown[]).length : 1;
  const parser = r.kind === 'pdf' && ocr.pages.length < pages ? 'pdf+ocr' : 'ocr';
  return { parser, ocr: { model: ocr.model, confidence: ocr.confidence, lowConfidence: ocr.lowConfidence, pages: ocr.pages.length } };
}

function vectorStatus(r: Row, vectorsExist: boolean): ManifestRow['vectors'] {
  if (!vectorsExist || r.path === null || r.chunks === 0) return 'none';
  return r.embedded === r.chunks ? 'current' : 'pending';
}
