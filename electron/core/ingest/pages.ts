/** Reading pages back: the list of a knowledge base's pages, and one page in full. */
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';
import type { PageDetail, PageSummary } from '../../../shared/models';
import { DIGEST_FOLDER } from '../store/page-model';

const SUMMARY = `
  SELECT p.path, p.title, p.kind, d.folder, d.rel_path AS relPath, length(p.text) AS chars,
         (SELECT count(*) FROM chunks c WHERE c.page_id = p.id) AS chunks, d.folder = '${DIGEST_FOLDER}' AS generated,
         json_extract(p.ocr, '$.confidence') AS ocrConfidence, json_extract(p.ocr, '$.lowConfidence') AS ocrLow
  FROM pages p JOIN documents d ON d.id = p.document_id`;

type SummaryRow = Omit<PageSummary, 'generated' | 'ocr'> & { generated: number; ocrConfidence: number | null; ocrLow: number | null };

/** Every page of the knowledge base, ordered by path; `generated` marks the page digests Sift wrote, `ocr` those OCR read. */
export function listPages(db: Database.Database): PageSummary[] {
  const rows = db.prepare(`${SUMMARY} ORDER BY p.path`).all() as SummaryRow[];
  return rows.map(({ ocrConfidence, ocrLow, ...r }) => ({
    ...r,
    generated: r.generated === 1,
    ocr: ocrConfidence === null ? null : { confidence: ocrConfidence, lowConfidence: ocrLow === 1 },
  }));
}

interface PageRow extends Omit<PageSummary, 'generated' | 'ocr'> {
  id: number;
  generated: number;
  text: string;
  metadata: string;
  headings: string;
  pdf_pages: string | null;
  language: string | null;
  encoding: string | null;
  ocr: string | null;
}

/** One page with its text, headings, sections and chunk spans; `not_found` when there is none. */
export function getPage(db: Database.Database, path: string): PageDetail {
  const row = db
    .prepare(
      `SELECT p.id, p.path, p.title, p.kind, d.folder, d.rel_path AS relPath, p.text, p.metadata, p.headings, p.pdf_pages,
              p.language, p.encoding, p.ocr, (SELECT count(*) FROM chunks c WHERE c.page_id = p.id) AS chunks,
              d.folder = '${DIGEST_FOLDER}' AS generated
       FROM pages p JOIN documents d ON d.id = p.document_id WHERE p.path = ?`,
    )
    .get(path) as PageRow | undefined;
  if (!row) throw new SiftError('not_found', `no page ${path} in this knowledge base`);
  const sections = db.prepare(`SELECT idx, start, end, heading_path FROM sections WHERE page_id = ? ORDER BY idx`).all(row.id) as {
    idx: number;
    start: number;
    end: number;
    heading_path: string;
  }[];
  const chunks = db.prepare(`SELECT id, idx, start, end, hash, embedded FROM chunks WHERE page_id = ? ORDER BY idx`).all(row.id) as {
    id: number;
    idx: number;
    start: number;
    end: number;
    hash: string;
    embedded: number;
  }[];
  return {
    path: row.path,
    title: row.title,
    kind: row.kind,
    folder: row.folder,
    relPath: row.relPath,
    chars: row.text.length,
    chunks: row.chunks,
    generated: row.generated === 1,
    text: row.text,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    headings: JSON.parse(row.headings) as PageDetail['headings'],
    pdfPages: row.pdf_pages ? (JSON.parse(row.pdf_pages) as PageDetail['pdfPages']) : null,
    language: row.language,
    encoding: row.encoding,
    sections: sections.map((s) => ({ index: s.idx, start: s.start, end: s.end, headingPath: JSON.parse(s.heading_path) as string[] })),
    chunkSpans: chunks.map((c) => ({ id: c.id, index: c.idx, start: c.start, end: c.end, hash: c.hash, embedded: c.embedded === 1 })),
    ocr: row.ocr ? (JSON.parse(row.ocr) as PageDetail['ocr']) : null,
  };
}
