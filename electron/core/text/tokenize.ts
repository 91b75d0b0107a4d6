/**
 * The one tokenizer behind keyword search: page text is tokenized with it before it goes into the
 * FTS5 column, and the user's query is tokenized with it before it becomes a MATCH expression, so
 * both sides always agree on what a "word" is.
 *
 * - Text is NFKC-normalised (full-width `ＡＢＣ１２` → `ABC12`) and lower-cased.
 * - Chinese, Japanese and Korean runs give the words of `Intl.Segmenter` plus overlapping character
 *   bigrams, so a two-character word such as `超时` is found however the segmenter split its run.
 * - Identifiers (`E_CONN_RESET`, `v1/chat`, `api-gateway`, `getUserName`) are kept whole AND split
 *   into parts, so a search for the exact code ranks first while a search for one part still finds it.
 * - Plain English words are Porter-stemmed (`connections` → `connect`).
 * - Emoji, symbols and punctuation are dropped.
 *
 * Every token consists only of letters, digits and {@link TOKEN_CHARS}, so FTS5's `unicode61`
 * tokenizer (with `tokenchars` = TOKEN_CHARS) keeps each of them whole.
 */
import { stemmer } from 'stemmer';

/**
 * Characters, besides letters and digits, that may occur inside a token. They only ever occur
 * between letters/digits (never first or last). FTS5 must be given them as `tokenchars`.
 */
export const TOKEN_CHARS = '_-./:@';

/**
 * Longest token kept, in UTF-16 code units. Longer runs (base64 blobs, minified code, hashes of
 * hashes) would bloat the index and are never typed as a query; an identifier longer than this
 * still contributes its parts.
 */
export const MAX_TOKEN_LENGTH = 80;

// Letters and numbers of the scripts that are written without spaces between words.
const CJK_CLASS =
  '[[\\p{L}\\p{N}]&&[\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}\\u30FC]]';
// Letters, digits and combining marks of every other script (marks are dropped afterwards: FTS5's
// unicode61 treats them as separators, and `İ`.toLowerCase() produces one).
const WORD_CLASS = `[[\\p{L}\\p{N}\\p{M}]--${CJK_CLASS}]`;
// Each part of a word starts with a letter or digit, so a stray mark after a connector cannot make
// the connector trail the token once marks are removed.
const WORD_START = `[[\\p{L}\\p{N}]--${CJK_CLASS}]`;
const WORD_PART = `${WORD_START}${WORD_CLASS}*`;
const CONNECTOR_CLASS = '[_\\-.\\/:@]';
// A CJK run, or a word whose parts are joined by runs of connectors or by a single apostrophe
// (`don't`, `user’s`). The `v` flag is needed for class subtraction; built at run time because the
// project's TypeScript target predates it. The two alternatives are disjoint, so matching is linear.
const TOKEN_PATTERN = new RegExp(
  `(${CJK_CLASS}+)|(${WORD_PART}(?:(?:${CONNECTOR_CLASS}+|['’])${WORD_PART})*)`,
  'gv',
);
const CONNECTORS = /[_\-./:@]+/;
const HAS_CONNECTOR = /[_\-./:@]/;
const APOSTROPHES = /['’]/g;
const MARKS = /\p{M}/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const PLAIN_ENGLISH = /^[a-z]+$/;
const HAS_SURROGATE = /[\uD800-\uDFFF]/;
// lower→Upper (`getUser`) and UPPER→Upper+lower (`HTTPServer` → `HTTP`, `Server`); a lone lower
// letter after capitals (`APIs`) is treated as a plural, not a new part.
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll}{2})/u;

// One segmenter for all CJK runs: ICU uses the same Chinese/Japanese dictionary whatever the
// locale, and Korean runs come back as space-free words either way.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

// ICU's word breaking slows down more than linearly on long inputs (3x per character at 25k
// characters, minutes for megabytes), so a long run is segmented in pieces of this many code
// units. A word cut at a piece boundary is still found through its bigrams.
const SEGMENT_PIECE = 512;

// Porter stemming is a dozen regular expressions per word; text is Zipf-distributed, so a bounded
// memo removes most of that cost on large ingests.
const STEM_CACHE_LIMIT = 50_000;
const stemCache = new Map<string, string>();

function stem(word: string): string {
  if (word.length < 3 || !PLAIN_ENGLISH.test(word)) return word;
  let stemmed = stemCache.get(word);
  if (stemmed === undefined) {
    if (stemCache.size >= STEM_CACHE_LIMIT) stemCache.clear();
    stemmed = stemmer(word);
    stemCache.set(word, stemmed);
  }
  return stemmed;
}

/** Lower-case and remove combining marks (only non-ASCII text can carry them). */
function fold(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.replace(MARKS, '') : lower;
}

function push(out: string[], token: string): void {
  if (token.length > 0 && token.length <= MAX_TOKEN_LENGTH) out.push(token);
}

/** The camelCase parts of `piece` (original case), or null when it has none. */
function camelParts(piece: string): string[] | null {
  if (piece === piece.toLowerCase()) return null;
  const parts = piece.split(CAMEL_BOUNDARY);
  return parts.length > 1 ? parts : null;
}

/**
 * One word or identifier. The whole is kept unstemmed (an identifier is an exact name); its parts
 * ARE stemmed like ordinary words, so `connection_pool` is found by "connections" and `api-gateway`
 * by "gateway" (both sides give `gatewai`). Parts are distinct within one identifier.
 */
function pushWord(out: string[], raw: string): void {
  const word = raw.indexOf("'") >= 0 || raw.indexOf('’') >= 0 ? raw.replace(APOSTROPHES, '') : raw;
  if (!HAS_CONNECTOR.test(word) && camelParts(word) === null) return push(out, stem(fold(word)));
  const pieces = word.split(CONNECTORS);
  const whole = fold(word);
  push(out, whole);
  const seen = new Set<string>([whole]);
  const add = (part: string): void => {
    if (!seen.has(part)) {
      seen.add(part);
      push(out, part);
    }
  };
  for (const piece of pieces) {
    const camel = camelParts(piece);
    if (pieces.length > 1) add(camel === null ? stem(fold(piece)) : fold(piece));
    if (camel !== null) for (const part of camel) add(stem(fold(part)));
  }
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Code-unit offsets where each code point of `run` starts (plus the end), for surrogate-safe bigrams. */
function codePointStarts(run: string): number[] {
  const starts: number[] = [];
  for (let i = 0; i < run.length; i++) {
    if (!isLowSurrogate(run.charCodeAt(i))) starts.push(i);
  }
  starts.push(run.length);
  return starts;
}

/**
 * A CJK run: the segmenter's words, then every overlapping bigram. A bigram identical to a
 * segmenter word at the same place is skipped so a two-character word is not counted twice.
 */
function pushCjk(out: string[], run: string): void {
  const starts = HAS_SURROGATE.test(run) ? codePointStarts(run) : null;
  const count = starts === null ? run.length : starts.length - 1;
  if (count === 1) return push(out, run);
  const twoCharWords: number[] = [];
  for (let from = 0; from < run.length; ) {
    let to = Math.min(run.length, from + SEGMENT_PIECE);
    if (to < run.length && isLowSurrogate(run.charCodeAt(to))) to--;
    for (const seg of segmenter.segment(run.slice(from, to))) {
      if (seg.isWordLike === false) continue;
      push(out, seg.segment);
      const chars = starts === null ? seg.segment.length : codePointStarts(seg.segment).length - 1;
      if (chars === 2) twoCharWords.push(from + seg.index);
    }
    from = to;
  }
  let next = 0;
  for (let i = 0; i + 1 < count; i++) {
    const from = starts === null ? i : starts[i]!;
    const to = starts === null ? i + 2 : starts[i + 2]!;
    while (next < twoCharWords.length && twoCharWords[next]! < from) next++;
    if (twoCharWords[next] === from) continue;
    push(out, run.slice(from, to));
  }
}

/** Tokens of `text` for the keyword index and for queries, in order of appearance (duplicates kept). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  if (text.length === 0) return out;
  const normalized = text.normalize('NFKC');
  // A fresh regex object per call keeps `lastIndex` from leaking between (re-entrant) calls.
  const pattern = new RegExp(TOKEN_PATTERN);
  for (let m = pattern.exec(normalized); m !== null; m = pattern.exec(normalized)) {
    if (m[1] !== undefined) pushCjk(out, m[1]);
    else pushWord(out, m[0]);
  }
  return out;
}

/** The string stored in the FTS5 column: tokens joined by single spaces. */
export function toIndexText(text: string): string {
  return tokenize(text).join(' ');
}

/** Distinct query terms in first-appearance order (what search ORs together). */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))];
}
