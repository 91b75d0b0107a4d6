/**
 * What a parser turns a file into. Offsets are JavaScript string indices (UTF-16 code units) into
 * `text`, the page's canonical text; every span is half-open `[start, end)`.
 */

/** The kinds of file Sift reads. */
export type DocumentKind = 'markdown' | 'text' | 'code' | 'html' | 'pdf' | 'docx';

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

/** The span of one PDF page inside the canonical text. */
export interface PageSpan {
  start: number;
  end: number;
  /** 1-based page number. */
  page: number;
}

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
}

/** Why a file was not turned into a page. The message is shown to the user next to the file. */
export class ParseError extends Error {
  constructor(
    /** Stable reason code. */
    readonly reason: 'binary' | 'unsupported' | 'corrupt' | 'too_large' | 'unreadable' | 'empty',
    message: string,
  ) {
    super(message);
    this.name = 'ParseError';
  }
}
