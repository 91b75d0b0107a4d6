/**
 * The writer behind HTML → text: collapses inline whitespace the way a browser does, turns block
 * boundaries into line breaks or blank lines, and records heading spans as it writes them, so the
 * offsets always match the text it returns.
 */
import type { Heading } from '../../store/page-model';

const CJK = '\\u2e80-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef';
/** A line break inside running Chinese/Japanese text is layout, not a space (CSS Text 3 segment breaks). */
const CJK_LINE_BREAK = new RegExp(`([${CJK}])[ \\t\\f]*\\n[ \\t\\n\\f]*(?=[${CJK}])`, 'g');
/** Runs of HTML whitespace, plus no-break spaces (mostly `&nbsp;` used for layout). */
const WHITESPACE = /[ \t\n\f\r\u00a0]+/g;

/** Where the writer stood at a block's start (see TextWriter.mark). */
export interface WriterMark {
  readonly pieces: number;
  readonly length: number;
  readonly pending: number;
  readonly headings: number;
}

/**
 * Accumulates the text of a page; every method keeps the text free of doubled spaces and stray blank
 * lines. The text is kept as pieces with its last character and trailing spaces known, so no write
 * looks at (or copies) all that came before it: writing is linear in the page's size (an 8 MB manual
 * took 15 minutes when every write ran `endsWith` and a trailing-space regex on the whole text).
 */
export class TextWriter {
  private readonly pieces: string[] = [];
  /** Length of the text so far (the sum of the pieces'). */
  private length = 0;
  /** Line breaks owed before the next text (0, 1 or 2: a blank line). */
  private pending = 0;
  readonly headings: Heading[] = [];

  /** Inline text: whitespace collapsed to one space, none at the start of a line. */
  inline(raw: string): void {
    let s = raw.replace(CJK_LINE_BREAK, '$1').replace(WHITESPACE, ' ');
    if (this.atLineStart() || this.lastChar() === ' ') s = s.replace(/^ /, '');
    if (!s) return;
    this.flush();
    this.write(s);
  }

  /** A boundary that needs `lines` line breaks (1: new line, 2: new paragraph) before the next text. */
  boundary(lines: 1 | 2): void {
    if (this.length > 0) this.pending = Math.max(this.pending, lines);
  }

  /** `<br>`: one more line break, up to a blank line. */
  lineBreak(): void {
    if (this.length > 0) this.pending = Math.min(this.pending + 1, 2);
  }

  /** A separator between table cells, written only between two cells of one row. */
  separator(text: string): void {
    if (this.atLineStart()) return;
    this.trimTrailingSpaces();
    this.write(text);
  }

  /** A heading as its own paragraph; its span is recorded. Empty headings are left out. */
  heading(level: number, raw: string): void {
    const text = raw.replace(WHITESPACE, ' ').trim();
    if (!text) return;
    this.boundary(2);
    this.flush();
    const start = this.length;
    this.write(text);
    this.headings.push({ start, end: this.length, level, text });
    this.boundary(2);
  }

  /** Preformatted text kept exactly, as its own paragraph (the newline right after `<pre>` is not content). */
  preformatted(raw: string): void {
    const text = raw.replace(/^\n/, '').replace(/\s+$/, '');
    if (!text.trim()) return;
    this.boundary(2);
    this.flush();
    this.write(text);
    this.boundary(2);
  }

  /**
   * A point to go back to: `rollback(mark)` forgets all written after it. Called at a block's start,
   * after its boundary: the spaces a pending boundary would trim go now, so later trims cannot reach
   * below the mark.
   */
  mark(): WriterMark {
    if (this.pending > 0) this.trimTrailingSpaces();
    return { pieces: this.pieces.length, length: this.length, pending: this.pending, headings: this.headings.length };
  }

  /** Forget what was written since `mark` (a navigation bar, once its end shows it is one). */
  rollback(mark: WriterMark): void {
    this.pieces.length = mark.pieces;
    this.length = mark.length;
    this.pending = mark.pending;
    this.headings.length = mark.headings;
  }

  /** Characters written since `mark`. */
  writtenSince(mark: WriterMark): number {
    return this.length - mark.length;
  }

  /** The text written so far, without trailing spaces. */
  get text(): string {
    const text = this.pieces.join('');
    // Not `replace(/ +$/, '')`: that pattern is tried at every space of the page.
    let end = text.length;
    while (end > 0 && text.charCodeAt(end - 1) === 32) end--;
    return end === text.length ? text : text.slice(0, end);
  }

  private write(s: string): void {
    this.pieces.push(s);
    this.length += s.length;
  }

  private lastChar(): string {
    const last = this.pieces[this.pieces.length - 1];
    return last ? last[last.length - 1]! : '';
  }

  private atLineStart(): boolean {
    return this.length === 0 || this.pending > 0 || this.lastChar() === '\n';
  }

  /** Drop the spaces the text ends with (they may span pieces); costs only what it removes. */
  private trimTrailingSpaces(): void {
    while (this.pieces.length > 0) {
      const last = this.pieces[this.pieces.length - 1]!;
      const trimmed = last.replace(/ +$/, '');
      this.length -= last.length - trimmed.length;
      if (trimmed) {
        this.pieces[this.pieces.length - 1] = trimmed;
        return;
      }
      this.pieces.pop();
    }
  }

  private flush(): void {
    if (this.pending > 0 && this.length > 0) {
      this.trimTrailingSpaces();
      this.write('\n'.repeat(this.pending));
    }
    this.pending = 0;
  }
}
