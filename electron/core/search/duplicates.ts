/**
 * One passage for what several pages say alike: the same README in four packages, a manual's page again
 * in its all-in-one file. Among ranked spans, a span whose text is the same as a better one's (compared
 * as strings: the same content hash, without hashing) or nearly so (the shingle sketches of
 * text/sketch.ts, Jaccard ≥ NEAR_DUPLICATE) is not shown on its own; the span kept says where else it
 * is (`alsoIn`). The passage shown is the one of the shortest page among them, in the place of the best: a
 * chapter, not the manual's all-in-one copy (the Rust book's `print.html`, 1.9 MB, took the first passage for
 * "how to spawn a thread and wait for it" over the chapter on threads, which it named only in `alsoIn`).
 * Pure over the spans' texts.
 */
import { similarityOf, sketchHashes } from '../text/sketch';

/** Estimated Jaccard similarity of two passages' 4-shingles from which they are one passage twice: one
 *  word changed in a thirty-word README leaves 0.73, two different passages that share a sentence 0.2. */
export const NEAR_DUPLICATE = 0.7;

/** Where else a kept passage is. */
export interface ElsewhereSpan {
  pagePath: string;
  title: string;
  start: number;
  end: number;
}

/** What collapsing needs of a ranked span. */
interface SpanLike {
  pagePath: string;
  text: string;
  start: number;
  end: number;
  page: { title: string; text: string };
}

/**
 * The spans in order, each repeated one left out and named in the `alsoIn` of the first (best-ranked)
 * span it repeats, except that the span of the shortest page among them is the one shown, in that first
 * span's place (the others in its `alsoIn`). Spans of one page are never each other's duplicates (a page
 * that repeats itself keeps both places).
 */
export function collapseDuplicates<T extends SpanLike>(spans: T[]): (T & { alsoIn: ElsewhereSpan[] })[] {
  const kept: { span: T & { alsoIn: ElsewhereSpan[] }; sketch: number[] | null }[] = [];
  for (const span of spans) {
    let sketch: number[] | null = null;
    const sketchNow = () => (sketch ??= sketchHashes(span.text));
    const same = kept.find((k) => {
      if (k.span.pagePath === span.pagePath) return false;
      if (k.span.text === span.text) return true;
      if (!mayBeAlike(k.span.text.length, span.text.length)) return false;
      return similarityOf((k.sketch ??= sketchHashes(k.span.text)), sketchNow()) >= NEAR_DUPLICATE;
    });
    if (same && span.page.text.length < same.span.page.text.length) {
      // The shorter page's span is shown where the group stands; the one it replaces is elsewhere.
      const { alsoIn, ...shown } = same.span;
      same.span = { ...span, alsoIn: [elsewhere(shown), ...alsoIn] };
      same.sketch = sketch;
      continue;
    }
    if (same) {
      same.span.alsoIn.push(elsewhere(span));
      continue;
    }
    kept.push({ span: { ...span, alsoIn: [] }, sketch });
  }
  return kept.map((k) => k.span);
}

function elsewhere(span: SpanLike): ElsewhereSpan {
  return { pagePath: span.pagePath, title: span.page.title, start: span.start, end: span.end };
}

/**
 * Whether texts of these lengths can be near duplicates. Jaccard similarity J of two shingle sets is at
 * most the smaller set's size over the larger's, so texts NEAR_DUPLICATE alike differ in length by no more
 * than that ratio; lengths in characters stand in for shingle counts, with room for words of unequal length.
 */
function mayBeAlike(a: number, b: number): boolean {
  return Math.min(a, b) >= Math.max(a, b) * NEAR_DUPLICATE * LENGTH_ROOM;
}

/** How far character lengths may stray from shingle counts in `mayBeAlike`. */
const LENGTH_ROOM = 0.7;
