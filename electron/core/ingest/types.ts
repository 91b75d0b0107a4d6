/**
 * What a parser turns a file into: the page model's canonical text, headings and PDF pages (see
 * store/page-model.ts) with the file's title, metadata and encoding.
 */
import type { DocumentKind, Heading, OcrInfo, PageSpan } from '../store/page-model';

/** A parsed file: canonical text plus what is needed to say where any offset came from. */
export interface ParsedDocument {
  kind: DocumentKind;
  /** Canonical text: line endings normalised to `\n`; front matter removed. */
  text: string;
  /** Title from front matter or the document's own title, if it has one; null otherwise. */
  title: string | null;
  /** Front matter / document properties with scalar or string-list values (used for scope filters). */
  metadata: Record<string, string | number | boolean | string[]>;
  /** Headings in document order. Empty for plain text and code. */
  headings: Heading[];
  /** PDF only: one span per page, in order, covering the text. */
  pages: PageSpan[] | null;
  /** Code only: the language, from the file extension (e.g. `typescript`). */
  language: string | null;
  /** Plain text only: the encoding that was detected (e.g. `utf-8`, `gb18030`, `utf-16le`). */
  encoding: string | null;
  /** Images and scanned PDF pages: what OCR read, with the boxes of its lines. Absent (or null) when no OCR ran. */
  ocr?: OcrInfo | null;
}

/** Why a file was not turned into a page. The message is shown to the user next to the file. */
export class ParseError extends Error {
  constructor(
    /** Stable reason code. */
    readonly reason: 'binary' | 'unsupported' | 'corrupt' | 'too_large' | 'too_wide' | 'unreadable' | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}
