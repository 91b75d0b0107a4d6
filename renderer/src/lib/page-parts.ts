/**
 * A slide deck's or e-book's page read back into its numbered parts for the page view: each slide or
 * chapter is a span of the page's text (`PageDetail.pdfPages`), a slide's speaker notes are the rest of
 * its span after a level-2 {@link NOTES_HEADING} heading (see parse/slides.ts), and a passage's place in
 * a chapter is the path of headings in force where it starts.
 */
import { NOTES_HEADING } from '../../../shared/slide-parts';

interface Span {
  start: number;
  end: number;
}

type Heading = Span & { level: number; text: string };

/** One slide or chapter: its number and span, and for a slide with notes where they begin. */
export interface PartBlock extends Span {
  number: number;
  /** The speaker notes: `heading` is the notes heading's span, the notes run from its end to the part's end. */
  notes: { heading: Span } | null;
}

/** The parts of a page in text order; `slides` says whether notes headings mark speaker notes. */
export function partBlocks(headings: readonly Heading[], spans: readonly (Span & { page: number })[], slides: boolean): PartBlock[] {
  return [...spans]
    .sort((a, b) => a.start - b.start)
    .map((span) => {
      const heading = slides
        ? headings.find((h) => h.level === 2 && h.text === NOTES_HEADING && h.start >= span.start && h.end <= span.end)
        : undefined;
      return { start: span.start, end: span.end, number: span.page, notes: heading ? { heading: { start: heading.start, end: heading.end } } : null };
    });
}

/** The part holding `offset` (a passage's start), or null when it falls between parts. */
export function partAt<T extends Span>(parts: readonly T[], offset: number): T | null {
  return parts.find((p) => p.start <= offset && offset < p.end) ?? null;
}

/**
 * The headings in force at `offset`, outermost first: the last heading of each level that starts at or
 * before it, a heading dropping those of deeper levels. Only headings from `from` on count (a chapter's
 * own headings, not the previous chapter's).
 */
export function headingPathAt(headings: readonly Heading[], offset: number, from = 0): string[] {
  const path: Heading[] = [];
  for (const h of [...headings].sort((a, b) => a.start - b.start)) {
    if (h.start < from) continue;
    if (h.start > offset) break;
    while (path.length > 0 && path[path.length - 1]!.level >= h.level) path.pop();
    path.push(h);
  }
  return path.map((h) => h.text);
}
