/**
 * The page model: what a knowledge base's file holds for every page, as the layers above read and
 * write it. A page is a file's canonical text; headings and PDF pages are spans of that text.
 * Offsets are JavaScript string indices (UTF-16 code units) into the text; every span is half-open
 * `[start, end)`. Parsers (ingest) produce it, chunking (text) cuts it, search quotes it.
 */

/** The kinds of file Sift reads (`pages.kind`). */
export type DocumentKind = 'markdown' | 'text' | 'code' | 'html' | 'pdf' | 'docx' | 'sheet' | 'slides' | 'epub' | 'image';

/** A heading inside the canonical text. */
export interface Heading {
  /** Offset of the heading line's first character. */
  start: number;
  /** Offset just after the heading line (before its newline). */
  end: number;
  /** 1 for `#`/`<h1>`, up to 6. */
  level: number;
  /** The heading's plain text, e.g. `Retry policy`. */
  text: string;
}

/**
 * A numbered part of the canonical text (`pages.pdf_pages`): a PDF page, a slide (`slides`), an
 * e-book chapter in spine order (`epub`), or for a spreadsheet (`sheet`) a run of consecutive rows,
 * one row a line, numbered by its first row (the row of a line is `page` + the line breaks before it).
 */
export interface PageSpan {
  start: number;
  end: number;
  /** 1-based page, slide or chapter number; for a sheet's row run, the spreadsheet row number of its first line. */
  page: number;
}

/** One line OCR read: `[start, end)` in the page's canonical text, its box `[left, top, right, bottom]` in pixels of
 *  the page image (see {@link OcrPageInfo}), and its recognition confidence (0–1). */
export interface OcrLineInfo {
  start: number;
  end: number;
  box: [number, number, number, number];
  confidence: number;
}

/** A page (PDF page or image) whose text OCR read: the image size its boxes refer to, its confidence, its lines. */
export interface OcrPageInfo {
  /** 1-based page number (the PDF page; 1 for an image). */
  page: number;
  width: number;
  height: number;
  /** Mean character confidence of the page (0–1). */
  confidence: number;
  lines: OcrLineInfo[];
}

/**
 * What OCR contributed to a page (`pages.ocr`, JSON): the model that read it, the mean confidence over its OCR'd
 * pages, whether that is below {@link LOW_OCR_CONFIDENCE}, and each OCR'd page. Pages of a PDF that had a text
 * layer are not listed.
 */
export interface OcrInfo {
  model: string;
  confidence: number;
  lowConfidence: boolean;
  pages: OcrPageInfo[];
}

/** Mean confidence below which a page is marked "low-confidence OCR". 0.8: clean print reads at 0.95–0.99; a blurred
 *  phone photo or a faint fax falls below it, and then about one character in ten is wrong. */
export const LOW_OCR_CONFIDENCE = 0.8;

/**
 * The `documents.folder` of the pages Sift writes itself (page digests): not an absolute path, so it
 * never names a folder on disk. Indexing leaves these documents alone; listings mark them generated.
 */
export const DIGEST_FOLDER = 'sift:digests';

/** The address of the knowledge-base overview Sift writes from the page digests (chat quotes it for questions
 *  about the whole knowledge base; digests/ writes it). */
export const DIGEST_OVERVIEW_PATH = 'wiki/_digest/overview.md';
