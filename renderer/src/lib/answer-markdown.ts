/**
 * Turning an answer's citation markers into links react-markdown can render as chips. Markers are
 * found with the shared parser (which skips code), and each number of a marker becomes its own
 * link `#sift-cite-<marker>-<number>`, so `[1, 2]` shows two chips and code stays untouched. A code
 * fence the answer never closes is closed at the end of its paragraph, as the parser reads it, so a
 * passage quoted with half a code block cannot turn the rest of the answer (and its chips) into code.
 */
import { closeOpenFences, parseCitationMarkers, type CitationMarker } from '../../../shared/citations';

/** The link prefix that marks a citation chip. */
export const CITE_PREFIX = '#sift-cite-';

/** The answer as Markdown with citation links, and the markers found (in text order). */
export function answerMarkdown(text: string): { markdown: string; markers: CitationMarker[] } {
  const markers = parseCitationMarkers(text);
  let markdown = '';
  let from = 0;
  markers.forEach((marker, index) => {
    markdown += text.slice(from, marker.start);
    markdown += marker.numbers.map((n) => `[\\[${n}\\]](${CITE_PREFIX}${index}-${n})`).join('');
    from = marker.end;
  });
  markdown += text.slice(from);
  // Links replace markers within their lines, so the fences found in `text` are where they were.
  return { markdown: closeOpenFences(markdown), markers };
}

/** The marker index and number a citation link stands for, or null for any other link. */
export function citeOf(href: string | undefined): { marker: number; number: number } | null {
  if (!href?.startsWith(CITE_PREFIX)) return null;
  const [marker, number] = href.slice(CITE_PREFIX.length).split('-').map(Number);
  return Number.isInteger(marker) && Number.isInteger(number) ? { marker: marker!, number: number! } : null;
}
