/**
 * Where text may be cut: paragraph, sentence, line, clause and word boundaries, and grapheme
 * boundaries as a last resort. The chunker asks these helpers for the best cut inside a window,
 * so every span it makes starts and ends at a place a reader would accept.
 *
 * A position `p` names the gap between `text[p - 1]` and `text[p]`. Text is scanned as stored
 * (not NFKC-normalised), so both ASCII and full-width punctuation are recognised.
 */

/** The kinds of cut, best first. */
export type CutKind = 'paragraph' | 'sentence' | 'line' | 'clause' | 'space';

const RANK: Record<CutKind, number> = { paragraph: 0, sentence: 1, line: 2, clause: 3, space: 4 };

// What each BMP code unit is to the cut rules, as bit flags in one table: the chunker tests every
// position of its windows, and one array read per test costs a fifth of four Set lookups.
const CLOSER = 1;
const CJK_END = 2;
const ASCII_END = 4;
const CJK_CLAUSE = 8;
const WHITESPACE = 16;
const UNIT_KIND = new Uint8Array(0x10000);
function mark(flag: number, codes: number[]): void {
  for (const code of codes) UNIT_KIND[code]! |= flag;
}
// Closing punctuation that may follow a sentence end and belongs to the sentence: `."`, `。」`, `!)`.
mark(CLOSER, [0x22, 0x27, 0x29, 0x5d, 0x201d, 0x2019, 0xff09, 0x300d, 0x300f, 0x3011, 0xff3d]);
// Ends that need no following space: 。！？；． and the half-width ｡ (CJK text has no spaces).
mark(CJK_END, [0x3002, 0xff01, 0xff1f, 0xff1b, 0xff0e, 0xff61]);
// Ends that need whitespace (or the end of the text) after them, so `3.14` and `a;b` are not cuts.
mark(ASCII_END, [0x2e, 0x21, 0x3f, 0x3b]);
// CJK clause marks: ，、：
mark(CJK_CLAUSE, [0xff0c, 0x3001, 0xff1a]);
// The characters JavaScript's `\s` matches.
mark(WHITESPACE, [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff]);
for (let code = 0x2000; code <= 0x200a; code++) mark(WHITESPACE, [code]);

/** The flags of the code unit at `p` (0 past either end of the text). */
function kindAt(text: string, p: number): number {
  const code = text.charCodeAt(p);
  return code === code ? UNIT_KIND[code]! : 0;
}

/** True for the characters JavaScript's `\s` matches. */
export function isWhitespace(code: number): boolean {
  return (UNIT_KIND[code]! & WHITESPACE) !== 0;
}

function isSentenceEnd(text: string, p: number): boolean {
  let q = p - 1;
  if (kindAt(text, q) & CLOSER && q > 0) q--;
  const kind = kindAt(text, q);
  if (kind & CJK_END) return true;
  return (kind & ASCII_END) !== 0 && (p === text.length || (kindAt(text, p) & WHITESPACE) !== 0);
}

/**
 * The kind of boundary at position `p` (0 < p < text.length gives a cut inside the text; `p` at
 * the end is a sentence end when the text ends with one), or null when `p` is inside a word.
 */
export function boundaryAt(text: string, p: number): CutKind | null {
  if (p <= 0 || p > text.length) return null;
  const before = text.charCodeAt(p - 1);
  if (before === 0x0a) return p >= 2 && text.charCodeAt(p - 2) === 0x0a ? 'paragraph' : 'line';
  const kind = UNIT_KIND[before]!;
  if (kind === 0) return null;
  if (isSentenceEnd(text, p)) return 'sentence';
  if (kind & CJK_CLAUSE) return 'clause';
  if (kind & WHITESPACE) return 'space';
  return null;
}

/**
 * The best cut in `[lo, hi]`: the highest-ranked kind of boundary present, and of that kind the
 * one nearest `target`. With `paragraphFirst` false, a paragraph break counts as a sentence end
 * (chunks care about sentences; sections prefer whole paragraphs). Null when the window holds no
 * boundary at all. Cost is linear in the window.
 */
export function findCut(text: string, lo: number, hi: number, target: number, paragraphFirst: boolean): number | null {
  let best: number | null = null;
  let bestRank = Infinity;
  let bestDistance = Infinity;
  for (let p = Math.max(1, lo); p <= hi; p++) {
    const kind = boundaryAt(text, p);
    if (kind === null) continue;
    const rank = !paragraphFirst && kind === 'paragraph' ? RANK.sentence : RANK[kind];
    const distance = Math.abs(p - target);
    if (rank < bestRank || (rank === bestRank && distance < bestDistance)) {
      best = p;
      bestRank = rank;
      bestDistance = distance;
    }
  }
  return best;
}

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });
// How far to look around a hard cut for a grapheme boundary: longer than any real grapheme
// cluster (a family emoji is 11 code units, a flag 4, a Zalgo stack is unbounded but rare).
const GRAPHEME_REACH = 32;

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

// Code units that never join the unit before or after them into one grapheme: Latin, Greek and
// Cyrillic letters below the combining marks, and kana/CJK ideographs except the combining voicing
// marks. Checked first because ICU's grapheme segmenter costs ~400 ns per character.
function isSimpleUnit(code: number): boolean {
  return code < 0x300 || (code >= 0x3040 && code <= 0x9fff && code !== 0x3099 && code !== 0x309a);
}

function isSimpleGap(text: string, p: number): boolean {
  const before = text.charCodeAt(p - 1);
  const after = text.charCodeAt(p);
  return isSimpleUnit(before) && isSimpleUnit(after) && !(before === 0x0d && after === 0x0a);
}

/**
 * A grapheme boundary in `(min, max]`, the last one at or before `p` if any, else the first after
 * it, so a hard cut never splits an emoji, a surrogate pair or a letter from its combining mark.
 * When no boundary lies in range (one giant cluster), `p` itself, moved off a surrogate pair.
 */
export function graphemeBoundary(text: string, p: number, min: number, max: number): number {
  if (p > min && p <= max && isSimpleGap(text, p)) return p;
  const from = Math.max(min, p - GRAPHEME_REACH);
  const to = Math.min(text.length, max + 1, p + GRAPHEME_REACH);
  let before = -1;
  let after = -1;
  for (const g of graphemes.segment(text.slice(from, to))) {
    // The slice's own start is not necessarily a real boundary (it may sit inside a cluster).
    const at = from + g.index;
    if (g.index === 0 || at <= min || at > max) continue;
    if (at <= p) before = at;
    else if (after < 0) after = at;
  }
  if (before > 0) return before;
  if (after > 0) return after;
  if (isLowSurrogate(text.charCodeAt(p))) return p + 1 <= max ? p + 1 : p - 1;
  return p;
}

/** The first position at or after `p` (and before `end`) that is not whitespace; `end` if none. */
export function skipWhitespace(text: string, p: number, end: number): number {
  while (p < end && isWhitespace(text.charCodeAt(p))) p++;
  return p;
}

/** The position just after the last non-whitespace character in `[start, end)`; `start` if none. */
export function trimEndAt(text: string, start: number, end: number): number {
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return end;
}

/**
 * Where the next chunk starts, `overlap` characters (at most half the previous chunk) before
 * `prevEnd`, then moved forward to the start of a sentence, else of a word or clause, if one lies
 * within half the overlap. Always > `prevStart`, so chunking cannot stall or go backwards.
 */
export function overlapStart(text: string, prevStart: number, prevEnd: number, overlap: number): number {
  const back = Math.min(overlap, Math.floor((prevEnd - prevStart) / 2));
  if (back <= 0) return prevEnd;
  const desired = prevEnd - back;
  const limit = Math.min(prevEnd - 1, desired + Math.max(1, Math.floor(back / 2)));
  let wordStart = -1;
  for (let p = desired; p <= limit; p++) {
    const kind = boundaryAt(text, p);
    if (kind === null) continue;
    const start = skipWhitespace(text, p, prevEnd);
    if (start >= prevEnd) continue;
    if (kind === 'sentence' || kind === 'paragraph') return start;
    if (wordStart < 0) wordStart = start;
  }
  if (wordStart >= 0) return wordStart;
  return graphemeBoundary(text, desired, prevStart, prevEnd - 1);
}
