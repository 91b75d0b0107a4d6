/**
 * Whether two texts say much the same: a bottom-k sketch of each text's word 4-shingles (the 64 smallest
 * shingle hashes), from which the Jaccard similarity of their shingle sets is estimated. Versions use it
 * (a page named like another, `handbook-2023` and `handbook-2024`, is a version of it only when they are
 * alike; `rfc-1918` and `rfc-2068` share a name stem and nothing else), and search, to show a passage
 * repeated in other pages once. Words here are runs of letters or digits, each CJK character a word of
 * its own (no tokenizer: it must stay cheap). Pure.
 */

/** Hashes kept per page. Default 64: the estimate's error is about 1/√64 ≈ 0.12 of the similarity. */
export const SKETCH_SIZE = 64;
/** Words per shingle. */
const SHINGLE = 4;
/** Estimated Jaccard similarity from which two pages are alike. Edited versions of one text measure 0.3–0.9
 *  here; documents that share only a name stem and some boilerplate, under 0.1. */
export const ALIKE_FROM = 0.2;

const WORD = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|[\p{L}\p{N}]+/gu;

/** 32-bit FNV-1a of a string, then mixed (murmur3's finaliser) so the low values spread evenly. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** The sketch of a text: its SKETCH_SIZE smallest distinct shingle hashes, ascending, as hex joined by spaces. */
export function sketchOf(text: string): string {
  const words = text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
  const hashes = new Set<number>();
  const count = Math.max(1, words.length - SHINGLE + 1);
  for (let i = 0; i < count; i++) hashes.add(hash(words.slice(i, i + SHINGLE).join(' ')));
  return [...hashes].sort((a, b) => a - b).slice(0, SKETCH_SIZE).map((h) => h.toString(16)).join(' ');
}

/** Estimated Jaccard similarity of the texts two sketches were made of (0–1; 0 when either is empty). */
export function similarity(a: string, b: string): number {
  if (!a || !b) return 0;
  const x = new Set(a.split(' '));
  const y = new Set(b.split(' '));
  // Bottom-k of the union, and how many of those both sketches hold.
  const union = [...new Set([...x, ...y])].map((h) => parseInt(h, 16)).sort((p, q) => p - q).slice(0, SKETCH_SIZE);
  const both = union.filter((h) => x.has(h.toString(16)) && y.has(h.toString(16))).length;
  return union.length ? both / union.length : 0;
}
