/**
 * Whether two texts say much the same: a bottom-k sketch of each text's word 4-shingles (the 64 smallest
 * shingle hashes), from which the Jaccard similarity of their shingle sets is estimated. Versions use it
 * (a page named like another, `handbook-2023` and `handbook-2024`, is a version of it only when they are
 * alike; `rfc-1918` and `rfc-2068` share a name stem and nothing else), and search, to show a passage
 * repeated in other pages once. Words here are runs of letters or digits, each CJK character a word of
 * its own (no tokenizer: it must stay cheap). Pure.
 */
import { isAscii } from './tokenize';

/** Hashes kept per page. Default 64: the estimate's error is about 1/√64 ≈ 0.12 of the similarity. */
export const SKETCH_SIZE = 64;
/** Words per shingle. */
const SHINGLE = 4;
/** Estimated Jaccard similarity from which two pages are alike. Edited versions of one text measure 0.3–0.9
 *  here; documents that share only a name stem and some boilerplate, under 0.1. */
export const ALIKE_FROM = 0.2;

const FNV_START = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SPACE = 0x20;

// The words are those of /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu over the
// NFKC, lower-cased text: a CJK character alone, else a run of letters and digits (which, once started,
// runs on through CJK letters too). They are found by a scan over character classes instead of the
// pattern, as offsets into the text, so no word string is made (the pattern was over half a sketch's cost).
const CJK_CHAR = /^[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]$/u;
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const KNOWN = 1;
const CJK = 2;
const WORDLIKE = 4;
/** Classes of the Basic Multilingual Plane's code points, filled as they are met (0 = not yet known). */
const bmpClasses = new Uint8Array(0x10000);
const astralClasses = new Map<number, number>();

function classOf(codePoint: number): number {
  const known = codePoint < 0x10000 ? bmpClasses[codePoint]! : (astralClasses.get(codePoint) ?? 0);
  if (known !== 0) return known;
  const char = String.fromCodePoint(codePoint);
  const found = KNOWN | (CJK_CHAR.test(char) ? CJK : 0) | (WORD_CHAR.test(char) ? WORDLIKE : 0);
  if (codePoint < 0x10000) bmpClasses[codePoint] = found;
  else astralClasses.set(codePoint, found);
  return found;
}

/** The words of `text` (already NFKC and lower-cased) as [start, end) code-unit offsets, in `starts` and `ends`. */
function wordSpans(text: string, starts: number[], ends: number[]): void {
  const n = text.length;
  // codePointAt gives a lone surrogate as itself, which is neither CJK nor a letter: skipped, as the pattern did.
  const width = (codePoint: number): number => (codePoint > 0xffff ? 2 : 1);
  for (let i = 0; i < n; ) {
    const codePoint = text.codePointAt(i)!;
    const kind = classOf(codePoint);
    if (kind & CJK) {
      starts.push(i);
      ends.push(i + width(codePoint));
      i += width(codePoint);
    } else if (kind & WORDLIKE) {
      const start = i;
      i += width(codePoint);
      for (let next = text.codePointAt(i); next !== undefined && classOf(next) & WORDLIKE; next = text.codePointAt(i)) i += width(next);
      starts.push(start);
      ends.push(i);
    } else {
      i += width(codePoint);
    }
  }
}

/** murmur3's finaliser, so the low values of an FNV-1a state spread evenly. */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** A text's SKETCH_SIZE smallest distinct shingle hashes, ascending: the numbers `sketchOf` writes. A shingle's
 *  hash is the mixed 32-bit FNV-1a of its words joined by spaces, taken without building the joined string. */
export function sketchHashes(text: string): number[] {
  // ASCII text is its own NFKC form.
  const folded = (isAscii(text) ? text : text.normalize('NFKC')).toLowerCase();
  const starts: number[] = [];
  const ends: number[] = [];
  wordSpans(folded, starts, ends);
  const words = starts.length;
  const count = Math.max(1, words - SHINGLE + 1);
  const hashes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = FNV_START;
    const last = Math.min(words, i + SHINGLE);
    for (let w = i; w < last; w++) {
      if (w > i) h = Math.imul(h ^ SPACE, FNV_PRIME);
      for (let k = starts[w]!, end = ends[w]!; k < end; k++) h = Math.imul(h ^ folded.charCodeAt(k), FNV_PRIME);
    }
    hashes[i] = mix(h);
  }
  // A typed array sorts numerically without a comparator: half the cost of a Set and a sorted array.
  hashes.sort();
  const out: number[] = [];
  for (let i = 0; i < count && out.length < SKETCH_SIZE; i++) if (i === 0 || hashes[i] !== hashes[i - 1]) out.push(hashes[i]!);
  return out;
}

/** The sketch of a text: its SKETCH_SIZE smallest distinct shingle hashes, ascending, as hex joined by spaces. */
export function sketchOf(text: string): string {
  return sketchHashes(text)
    .map((h) => h.toString(16))
    .join(' ');
}

/** The hashes of a sketch `sketchOf` wrote. */
export function parseSketch(sketch: string): number[] {
  return sketch ? sketch.split(' ').map((h) => parseInt(h, 16)) : [];
}

/**
 * Estimated Jaccard similarity of the texts two hash sketches (`sketchHashes`, ascending) were made of:
 * of the SKETCH_SIZE smallest hashes of their union, the share both hold. One merge of the two lists.
 */
export function similarityOf(x: readonly number[], y: readonly number[]): number {
  let i = 0;
  let j = 0;
  let union = 0;
  let both = 0;
  while (union < SKETCH_SIZE && (i < x.length || j < y.length)) {
    const a = i < x.length ? x[i]! : Infinity;
    const b = j < y.length ? y[j]! : Infinity;
    if (a === b) {
      both++;
      i++;
      j++;
    } else if (a < b) i++;
    else j++;
    union++;
  }
  return union ? both / union : 0;
}

/** Estimated Jaccard similarity of the texts two sketches were made of (0–1; 0 when either is empty). */
export function similarity(a: string, b: string): number {
  if (!a || !b) return 0;
  return similarityOf(parseSketch(a), parseSketch(b));
}
