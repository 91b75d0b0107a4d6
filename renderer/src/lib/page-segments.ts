/**
 * Cutting a page's text into pieces to render: headings styled, one span highlighted. Offsets are
 * UTF-16 indices into the text, exactly as the core stores them, so nothing is re-parsed here.
 */

/** A run of the page's text with how to show it. */
export interface Segment {
  start: number;
  end: number;
  /** The heading level when the run is (part of) a heading, else null. */
  heading: number | null;
  /** True when the run lies inside the highlighted span. */
  highlighted: boolean;
}

/**
 * Split `[0, length)` at every heading boundary, at the highlight's ends and at each offset of
 * `extraCuts` (e.g. where PDF pages start, so a label can go there). Headings are `[start, end)`
 * spans with a level; spans outside the text are clamped, overlapping headings take the first
 * one's level. Every offset of the text is covered once, in order.
 */
export function pageSegments(
  length: number,
  headings: { start: number; end: number; level: number }[],
  highlight: { start: number; end: number } | null,
  extraCuts: number[] = [],
): Segment[] {
  const clamp = (n: number) => Math.max(0, Math.min(length, n));
  const cuts = new Set<number>([0, length, ...extraCuts.map(clamp)]);
  for (const h of headings) {
    cuts.add(clamp(h.start));
    cuts.add(clamp(h.end));
  }
  const mark = highlight && highlight.end > highlight.start ? { start: clamp(highlight.start), end: clamp(highlight.end) } : null;
  if (mark) {
    cuts.add(mark.start);
    cuts.add(mark.end);
  }
  const points = [...cuts].sort((a, b) => a - b);
  const segments: Segment[] = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const start = points[i]!;
    const end = points[i + 1]!;
    if (end <= start) continue;
    const heading = headings.find((h) => h.start <= start && end <= h.end);
    segments.push({ start, end, heading: heading ? heading.level : null, highlighted: !!mark && mark.start <= start && end <= mark.end });
  }
  return segments;
}
