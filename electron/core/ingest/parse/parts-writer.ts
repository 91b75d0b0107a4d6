/**
 * Writes a document made of numbered parts (slides, chapters) into one canonical text: headings and
 * paragraphs, the headings' spans and each part's span recorded as they are written, so the offsets
 * always match the text.
 */
import type { Heading, PageSpan } from '../../store/page-model';

/** Builds the text, headings and part spans of a document of numbered parts. */
export class PartsWriter {
  private readonly pieces: string[] = [];
  private length = 0;
  private partStart = -1;
  readonly headings: Heading[] = [];
  readonly parts: PageSpan[] = [];

  /** The text so far. */
  get text(): string {
    return this.pieces.join('');
  }

  /** A heading of `level` as its own paragraph (whitespace collapsed); an empty one is left out. */
  heading(level: number, raw: string): void {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (!text) return;
    const start = this.paragraph(text);
    this.headings.push({ start, end: start + text.length, level, text });
  }

  /** A paragraph (its own line breaks kept, trailing whitespace dropped); returns where it starts. */
  paragraph(raw: string): number {
    const text = raw.replace(/\s+$/, '');
    if (!text.trim()) return this.length;
    if (this.length > 0) this.write('\n\n');
    const start = this.length;
    this.write(text);
    return start;
  }

  /**
   * Text written elsewhere with its headings (offsets into `text`), placed as one paragraph run: the headings
   * are moved to where it lands.
   */
  block(text: string, headings: readonly Heading[]): void {
    if (!text.trim()) return;
    const start = this.paragraph(text);
    for (const h of headings) this.headings.push({ ...h, start: h.start + start, end: h.end + start });
  }

  /** Start part `number`: its span begins at the next paragraph. */
  beginPart(): void {
    this.partStart = this.length + (this.length > 0 ? 2 : 0);
  }

  /** End the part begun last as part `number`; a part that wrote nothing is left out. */
  endPart(number: number): void {
    if (this.partStart >= 0 && this.length > this.partStart) this.parts.push({ start: this.partStart, end: this.length, page: number });
    this.partStart = -1;
  }

  private write(s: string): void {
    this.pieces.push(s);
    this.length += s.length;
  }
}
