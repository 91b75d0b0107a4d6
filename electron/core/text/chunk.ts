/**
 * Sections and chunks of a page. A section (the "parent") is the text under one heading, split
 * when very long; it is what a reader sees around a search hit. A chunk (the "child") is a few
 * sentences inside one section; it is what gets embedded, keyword-indexed and cited. Both are
 * exact half-open `[start, end)` spans of the page's canonical text, so `text.slice(start, end)`
 * is always the stored chunk text and a citation can highlight exactly what was indexed.
 */
import { createHash } from 'node:crypto';
import { SiftError } from '../../../shared/errors';
import type { Heading } from '../store/page-model';
import { findCut, graphemeBoundary, overlapStart, skipWhitespace, trimEndAt } from './sentences';

/** A parent section: a contiguous span of the text and the headings it sits under. */
export interface SectionSpan {
  /** 0-based position among the page's sections. */
  index: number;
  start: number;
  end: number;
  /** Heading texts in force at `start`, outermost first; `[]` before the first heading. */
  headingPath: string[];
}

/** A child chunk: a span inside one section, its exact text and that text's hash. */
export interface ChunkSpan {
  /** 0-based position among the page's chunks. */
  index: number;
  /** The `index` of the section that contains it. */
  sectionIndex: number;
  start: number;
  end: number;
  /** Exactly `text.slice(start, end)`. */
  text: string;
  /** {@link contentHash} of `text`. */
  hash: string;
}

/** How big sections and chunks are. All lengths are in UTF-16 code units (JavaScript string length). */
export interface ChunkOptions {
  /** Target chunk length in characters. Default 500 (range 200–2000; at least 10). Chunks stay under 1.25× this. */
  chunkSize?: number;
  /** Characters shared by consecutive chunks of a section. Default 100 (0 to chunkSize/2). */
  overlap?: number;
  /** Longest section before it is split at paragraph/sentence ends. Default 4000 (1000–20000; at least 10). */
  maxSection?: number;
}

interface ResolvedOptions {
  chunkSize: number;
  overlap: number;
  maxSection: number;
}

// How far past the target a cut may go: far enough to reach the end of a long sentence, and the
// bound that keeps every chunk under 1.25 × chunkSize.
const STRETCH = 1.25;

function resolveOptions(options: ChunkOptions = {}): ResolvedOptions {
  const { chunkSize = 500, overlap = 100, maxSection = 4000 } = options;
  const bad = (what: string): never => {
    throw new SiftError('invalid_argument', `Chunking: ${what}. Check the chunk settings.`);
  };
  if (!Number.isInteger(chunkSize) || chunkSize < 10) bad(`chunkSize must be an integer of at least 10, got ${chunkSize}`);
  if (!Number.isInteger(overlap) || overlap < 0 || overlap > chunkSize / 2) {
    bad(`overlap must be an integer from 0 to chunkSize/2 (${Math.floor(chunkSize / 2)}), got ${overlap}`);
  }
  if (!Number.isInteger(maxSection) || maxSection < 10) bad(`maxSection must be an integer of at least 10, got ${maxSection}`);
  return { chunkSize, overlap, maxSection };
}

/** sha256 hex of a chunk's text (UTF-8). */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** `headings` in document order; a copy is sorted only when the caller's list is not. */
function inOrder(headings: Heading[]): Heading[] {
  for (let i = 1; i < headings.length; i++) {
    if (headings[i]!.start < headings[i - 1]!.start) return [...headings].sort((a, b) => a.start - b.start);
  }
  return headings;
}

/** Push `heading` onto the open-heading stack, closing every heading of the same or a deeper level. */
function enter(stack: Heading[], heading: Heading): void {
  while (stack.length > 0 && stack[stack.length - 1]!.level >= heading.level) stack.pop();
  stack.push(heading);
}

/**
 * The heading path (outermost first) in force at `offset`: every heading that starts at or before
 * it and has not been closed by a later heading of the same or a higher level. A skipped level
 * (`#` then `###`) simply nests.
 */
export function headingPathAt(headings: Heading[], offset: number): string[] {
  return headingPathsAt(headings, [offset])[0]!;
}

/** The heading path in force at each of `offsets` (ascending), in one pass over the headings. */
export function headingPathsAt(headings: Heading[], offsets: readonly number[]): string[][] {
  const ordered = inOrder(headings);
  const stack: Heading[] = [];
  let next = 0;
  return offsets.map((offset) => {
    while (next < ordered.length && ordered[next]!.start <= offset) enter(stack, ordered[next++]!);
    return stack.map((h) => h.text);
  });
}

function isBlank(text: string, start: number, end: number): boolean {
  return skipWhitespace(text, start, end) === end;
}

/** Cut points that split `[start, end)` into pieces of at most maxSection, as even as the text allows. */
function splitPoints(text: string, start: number, end: number, maxSection: number): number[] {
  const cuts: number[] = [];
  for (let pos = start; end - pos > maxSection; ) {
    const remaining = end - pos;
    const piece = Math.ceil(remaining / Math.ceil(remaining / maxSection));
    const half = Math.floor(piece / 2);
    const lo = pos + half;
    const hi = pos + Math.min(maxSection, remaining - half);
    const cut = findCut(text, lo, hi, pos + piece, true) ?? graphemeBoundary(text, pos + piece, lo - 1, hi);
    cuts.push(cut);
    pos = cut;
  }
  return cuts;
}

// Markup that carries no words a reader would search for or want quoted: HTML tags and comments
// (a comment is one "tag" unless it holds angle brackets), Markdown images (a badge's alt text
// too), entities; then links left empty once their image is gone. `[^<>]` and the line-bounded
// classes keep every pattern linear on hostile input (a lazy `<!--…-->` would not be).
const MARKUP = /<[^<>]*>|!\[[^\]\n]*\]\([^)\n]*\)|&#?\w+;/g;
const EMPTY_LINK = /\[\s*\]\([^)\n]*\)/g;
const WORD = /[\p{L}\p{N}]/u;

/**
 * True when `[start, end)` holds words once markup is set aside. A section whose text after its
 * heading fails this (a bare heading, a logo block, a `---` rule) is no passage on its own: quoted,
 * it answers nothing, and its few tokens make it outrank real text in keyword search.
 */
export function hasWords(text: string, start: number, end: number): boolean {
  return WORD.test(text.slice(start, end).replace(MARKUP, ' ').replace(EMPTY_LINK, ' '));
}

/** One heading-bounded group before splitting: its span, where its body starts, and its heading path. */
interface Group {
  start: number;
  bodyStart: number;
  end: number;
  path: string[];
}

/** Heading-bounded groups covering the text (the first one starts at 0, before any heading). */
function groupsOf(text: string, headings: Heading[]): Group[] {
  const groups: Group[] = [{ start: 0, bodyStart: 0, end: text.length, path: [] }];
  const stack: Heading[] = [];
  for (const heading of inOrder(headings)) {
    if (heading.start < 0 || heading.start >= text.length) continue;
    enter(stack, heading);
    const path = stack.map((h) => h.text);
    const last = groups[groups.length - 1]!;
    const bodyStart = Math.min(Math.max(heading.end, heading.start), text.length);
    // Two headings at one offset (or one at 0): the later one names the section.
    if (last.start === heading.start) Object.assign(last, { path, bodyStart: Math.max(last.bodyStart, bodyStart) });
    else {
      last.end = heading.start;
      groups.push({ start: heading.start, bodyStart, end: text.length, path });
    }
  }
  return groups;
}

/**
 * Give every group words of its own: a group with none (a heading straight before another, a logo
 * block before the title) joins the next one, which names the result since its text is the body;
 * wordless groups at the end join the one before. Whitespace-only groups are dropped as before.
 */
function mergeWordless(text: string, groups: Group[]): Group[] {
  const out: Group[] = [];
  let pending: number | null = null;
  for (const g of groups) {
    if (isBlank(text, g.start, g.end)) continue;
    const start: number = pending ?? g.start;
    if (!hasWords(text, Math.max(g.bodyStart, g.start), g.end)) {
      pending = start;
      continue;
    }
    pending = null;
    out.push({ ...g, start });
  }
  if (pending !== null) {
    const previous = out[out.length - 1];
    if (previous) previous.end = groups[groups.length - 1]!.end;
    else out.push({ ...groups[groups.length - 1]!, start: pending });
  }
  return out;
}

/**
 * Parent sections: bounded by headings (a section starts at its heading line; text before the first
 * heading is a section with headingPath `[]`). A heading never stands alone: a section with no words
 * after its heading (only whitespace or markup) is joined to the next section (to the previous one
 * at the end of the page). A section longer than maxSection is split into near-equal pieces (between
 * maxSection/2 and maxSection) at paragraph or sentence ends. Sections are contiguous and cover the
 * text, except that whitespace-only sections are dropped.
 */
export function buildSections(text: string, headings: Heading[], options?: ChunkOptions): SectionSpan[] {
  const { maxSection } = resolveOptions(options);
  const sections: SectionSpan[] = [];
  for (const { start, end, path } of mergeWordless(text, groupsOf(text, headings))) {
    const bounds = [start, ...splitPoints(text, start, end, maxSection), end];
    for (let j = 0; j + 1 < bounds.length; j++) {
      if (isBlank(text, bounds[j]!, bounds[j + 1]!)) continue;
      sections.push({ index: sections.length, start: bounds[j]!, end: bounds[j + 1]!, headingPath: path });
    }
  }
  return sections;
}

/** Where the chunk starting at `start` should end (before trimming), within `[start, sectionEnd]`. */
function chunkEnd(text: string, start: number, sectionEnd: number, chunkSize: number): number {
  const longest = Math.floor(chunkSize * STRETCH);
  if (sectionEnd - start <= longest) return sectionEnd;
  const target = start + chunkSize;
  const lo = start + Math.floor(chunkSize / 2);
  const hi = start + longest;
  return findCut(text, lo, hi, target, false) ?? graphemeBoundary(text, target, start, hi);
}

/**
 * The chunks of one section, appended to `out`. A piece with no words once markup is set aside (a
 * table rule, a row of sponsor logos) is no chunk: quoted it answers nothing, and its URL fragments
 * would match searches. A piece that ends where the previous chunk ended (a cut inside a whitespace
 * run longer than a chunk, as padded Markdown tables have) adds no text: the next chunk starts after
 * the run instead of creeping towards it in ever shorter overlaps ("ct", "t").
 */
function chunkSection(text: string, section: SectionSpan, opts: ResolvedOptions, out: ChunkSpan[]): void {
  let start = skipWhitespace(text, section.start, section.end);
  let lastEnd = -1;
  while (start < section.end) {
    const end = chunkEnd(text, start, section.end, opts.chunkSize);
    const trimmed = trimEndAt(text, start, end);
    const adds = trimmed > lastEnd;
    if (adds && hasWords(text, start, trimmed)) {
      const body = text.slice(start, trimmed);
      out.push({ index: out.length, sectionIndex: section.index, start, end: trimmed, text: body, hash: contentHash(body) });
    }
    if (end >= section.end) break;
    lastEnd = Math.max(lastEnd, trimmed);
    // Strictly after `start` (see overlapStart), so the loop always advances.
    const next = adds ? overlapStart(text, start, trimmed, opts.overlap) : end;
    start = skipWhitespace(text, next, section.end);
  }
}

/**
 * Child chunks of every section: about chunkSize characters each (never more than 1.25×), cut at
 * sentence ends, else at line breaks, clause marks or spaces, else between graphemes; consecutive
 * chunks of a section share about `overlap` characters. A chunk never crosses its section, never
 * starts or ends with whitespace, is never empty and always holds words (see chunkSection). Work
 * and chunk count are linear in the text.
 */
export function chunkSections(text: string, sections: SectionSpan[], options?: ChunkOptions): ChunkSpan[] {
  const opts = resolveOptions(options);
  const out: ChunkSpan[] = [];
  for (const section of sections) {
    if (section.start < 0 || section.end > text.length || section.start > section.end) {
      throw new SiftError(
        'internal',
        `Chunking: section ${section.index} [${section.start}, ${section.end}) lies outside the page text (length ${text.length}).`,
      );
    }
    chunkSection(text, section, opts, out);
  }
  return out;
}

