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

const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;

// ASCII text is its own NFKC form, and its words are runs of ASCII letters and digits: the same words,
// found without the Unicode pattern (a third of the cost of a passage's sketch).
const ASCII_WORD = /[a-z0-9]+/g;

const FNV_START = 0x811c9dc5;
const SPACE = 0x20;

/** FNV-1a's step over the UTF-16 units of `text`, from state `h`. */
function fnv(h: number, text: string): number {
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h;
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
  const words = (isAscii(text) ? text.toLowerCase().match(ASCII_WORD) : text.normalize('NFKC').toLowerCase().match(WORD)) ?? [];
  const count = Math.max(1, words.length - SHINGLE + 1);
  const hashes = new Uint32Array(count);
  for (let i = 0; i < count; i++) {
    let h = FNV_START;
    const last = Math.min(words.length, i + SHINGLE);
    for (let w = i; w < last; w++) {
      if (w > i) h = Math.imul(h ^ SPACE, 0x01000193);
      h = fnv(h, words[w]!);
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
