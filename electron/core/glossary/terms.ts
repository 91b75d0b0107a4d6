/**
 * Glossary keys and where they occur: a term is looked up by its normalised key (NFKC, case
 * folded, whitespace collapsed), and found in a question by the same key — anywhere for Chinese,
 * Japanese and Korean text (written without spaces), on word boundaries for Latin letters and
 * digits (so `RRF` is found in `RRF 是什么` and `what is RRF?`, never inside `RRFS`).
 */

/** The key of a term or question: NFKC, lower case, every run of whitespace one space, trimmed. */
export function normalizeKey(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}_]/u;
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** True for a character that continues a Latin-style word (letters, digits, `_`; not CJK, which has no word spaces). */
function isWordChar(char: string | undefined): boolean {
  return char !== undefined && LETTER_OR_DIGIT.test(char) && !CJK.test(char);
}

/** The character of `text` ending just before `at` (surrogate pairs whole), or undefined at the start. */
function charBefore(text: string, at: number): string | undefined {
  if (at <= 0) return undefined;
  const low = text.charCodeAt(at - 1);
  return low >= 0xdc00 && low <= 0xdfff && at >= 2 ? text.slice(at - 2, at) : text[at - 1];
}

/** The character of `text` starting at `at`, or undefined at the end. */
function charAt(text: string, at: number): string | undefined {
  return at < text.length ? String.fromCodePoint(text.codePointAt(at)!) : undefined;
}

/**
 * True when `key` occurs in `text` (both normalised) as a term: a side of the key that is a
 * word character must not touch another word character in the text.
 */
function occursAt(text: string, key: string, at: number): boolean {
  const first = charAt(key, 0);
  const last = charBefore(key, key.length);
  if (isWordChar(first) && isWordChar(charBefore(text, at))) return false;
  if (isWordChar(last) && isWordChar(charAt(text, at + key.length))) return false;
  return true;
}

/** One occurrence of a key in a text. */
export interface KeyMatch<T> {
  key: string;
  value: T;
  /** Offset in the normalised text. */
  at: number;
}

/**
 * The keys that occur in `text`, in the order they occur, longest first where they overlap (a
 * match inside a longer one is dropped: `reciprocal rank fusion` wins over `fusion`). `keys` maps
 * normalised keys to anything (entry ids); keys shorter than `minLength` characters are ignored.
 */
export function keysIn<T>(text: string, keys: Iterable<[string, T]>, minLength = 2): KeyMatch<T>[] {
  const normal = normalizeKey(text);
  const candidates: KeyMatch<T>[] = [];
  for (const [key, value] of keys) {
    if ([...key].length < minLength) continue;
    for (let at = normal.indexOf(key); at !== -1; at = normal.indexOf(key, at + 1)) {
      if (occursAt(normal, key, at)) candidates.push({ key, value, at });
    }
  }
  candidates.sort((a, b) => b.key.length - a.key.length || a.at - b.at);
  const kept: KeyMatch<T>[] = [];
  for (const c of candidates) {
    const overlaps = kept.some((k) => c.at < k.at + k.key.length && k.at < c.at + c.key.length);
    if (!overlaps) kept.push(c);
  }
  return kept.sort((a, b) => a.at - b.at);
}
