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
 *   The joined names inside a longer identifier are kept whole too (`worker_threads` of `node:worker_threads`).
 * - Plain English words are Porter-stemmed (`connections` → `connect`), British spellings first made
 *   American (`tumours` → `tumor`, spelling.ts).
 * - Emoji, symbols and punctuation are dropped.
 *
 * Every token consists only of letters, digits and {@link TOKEN_CHARS}, so FTS5's `unicode61`
 * tokenizer (with `tokenchars` = TOKEN_CHARS) keeps each of them whole.
 *
 * It runs on every chunk of every ingested file, so shortcuts give exactly what the general path
 * gives, only faster: words made of ASCII are found by a character loop (TOKEN_PATTERN, the
 * definition of a word, takes over at the first non-ASCII character that could matter). CJK runs
 * are collected with a placeholder each and tokenized together by `cjk-runs.ts`.
 */
import { stemmer } from 'stemmer';
import { tokensOfRuns } from './cjk-runs';
import { americanSpelling } from './spelling';

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
// One shared object: every use sets `lastIndex` right before `exec`, with no call in between.
const TOKEN_PATTERN = new RegExp(
  `(${CJK_CLASS}+)|(${WORD_PART}(?:(?:${CONNECTOR_CLASS}+|['’])${WORD_PART})*)`,
  'gv',
);
// Sticky one-character tests the ASCII word loop uses to decide whether a non-ASCII character ends
// the word (then the loop is right) or may extend it (then TOKEN_PATTERN decides).
const CONTINUES_PART = new RegExp(`${WORD_CLASS}|’`, 'vy');
const STARTS_PART = new RegExp(WORD_START, 'vy');
const CONNECTORS = /[_\-./:@]+/;
const HAS_CONNECTOR = /[_\-./:@]/;
const APOSTROPHES = /['’]/g;
const MARKS = /\p{M}/gu;
const NON_ASCII = /[^\x00-\x7f]/;
const PLAIN_ENGLISH = /^[a-z]+$/;
// lower→Upper (`getUser`) and UPPER→Upper+lower (`HTTPServer` → `HTTP`, `Server`); a lone lower
// letter after capitals (`APIs`) is treated as a plural, not a new part.
const CAMEL_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll}{2})/u;

// What each ASCII character is to the word loop (0: it cannot be inside a word).
const LOWER = 1;
const UPPER = 2;
const DIGIT = 4;
const CONNECTOR = 8;
const APOSTROPHE = 16;
const ALNUM = LOWER | UPPER | DIGIT;
const ASCII_KIND = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  if (ch >= 'a' && ch <= 'z') ASCII_KIND[c] = LOWER;
  else if (ch >= 'A' && ch <= 'Z') ASCII_KIND[c] = UPPER;
  else if (ch >= '0' && ch <= '9') ASCII_KIND[c] = DIGIT;
  else if (TOKEN_CHARS.includes(ch)) ASCII_KIND[c] = CONNECTOR;
  else if (ch === "'") ASCII_KIND[c] = APOSTROPHE;
}

// Porter stemming is a dozen regular expressions per word; text is Zipf-distributed, so a memo
// removes most of that cost on large ingests. It is direct-mapped (a word's slot comes from its
// hash, a newcomer replaces whoever held the slot): bounded memory, no eviction work, and the
// scanner hashes a word while reading it, so a repeated word is found without being sliced.
// 2^16 slots: 97% hits on the 10k-note benchmark corpus (23k distinct words).
const STEM_SLOTS = 1 << 16;
const stemWords: (string | undefined)[] = new Array<string | undefined>(STEM_SLOTS).fill(undefined);
const stemResults: string[] = new Array<string>(STEM_SLOTS).fill('');

/** Hash step over one character code; the scanner and `hashOf` must agree. */
function hashStep(hash: number, code: number): number {
  return (Math.imul(hash, 31) + code) | 0;
}

function hashOf(word: string): number {
  let hash = 0;
  for (let i = 0; i < word.length; i++) hash = hashStep(hash, word.charCodeAt(i));
  return hash;
}

/** Porter stem of `text[start, end)`, lower-case ASCII letters only, whose hash is `hash`. */
function stemAt(text: string, start: number, end: number, hash: number): string {
  if (end - start < 3) return text.slice(start, end);
  const slot = (hash ^ (hash >>> 15)) & (STEM_SLOTS - 1);
  const known = stemWords[slot];
  if (known !== undefined && known.length === end - start && text.startsWith(known, start)) return stemResults[slot]!;
  const word = start === 0 && end === text.length ? text : text.slice(start, end);
  const stemmed = stemmer(americanSpelling(word));
  stemWords[slot] = word;
  stemResults[slot] = stemmed;
  return stemmed;
}

function stem(word: string): string {
  return word.length < 3 || !PLAIN_ENGLISH.test(word) ? word : stemAt(word, 0, word.length, hashOf(word));
}

/** Lower-case and remove combining marks (only non-ASCII text can carry them). */
function fold(word: string): string {
  const lower = word.toLowerCase();
  return NON_ASCII.test(lower) ? lower.replace(MARKS, '') : lower;
}

function push(out: string[], token: string): void {
  if (token.length > 0 && token.length <= MAX_TOKEN_LENGTH) out.push(token);
}

const PATH_SEPARATORS = /[/:@]+/;
const DOTS = /\.+/;
const JOINED = /[_\-.]/;
const JOINED_NAME = /[_-]/;
const EDGE_CONNECTORS = /^[_\-.]+|[_\-.]+$/g;
const EDGE_CONNECTOR = /^[_\-.]|[_\-.]$/;
const STARTS_NAME = /^\p{L}/u;

/**
 * The names (starting with a letter) inside an identifier that are themselves joined by connectors, whole:
 * the segments between `/`, `:` and `@` (`worker_threads.md` of `nodejs/api/worker_threads.md`, `example.com`
 * of `user@example.com`), then between dots (`worker_threads`; `e_conn_reset` of `errors.E_CONN_RESET`), so a
 * search for the name finds it where it is written inside a longer one. A segment of one word is among the
 * parts already. `whole` is the folded identifier.
 */
function addSegments(add: (token: string) => void, whole: string): void {
  const path = PATH_SEPARATORS.test(whole);
  if (!path && (whole.indexOf('.') < 0 || !JOINED_NAME.test(whole))) return; // no segment is a joined name
  for (const raw of path ? whole.split(PATH_SEPARATORS) : [whole]) {
    const segment = trimConnectors(raw);
    if (segment !== whole && JOINED.test(segment) && STARTS_NAME.test(segment)) add(segment);
    if (segment.indexOf('.') < 0 || !JOINED_NAME.test(segment)) continue;
    for (const inner of segment.split(DOTS)) {
      const name = trimConnectors(inner);
      if (JOINED_NAME.test(name) && STARTS_NAME.test(name)) add(name);
    }
  }
}

function trimConnectors(text: string): string {
  return EDGE_CONNECTOR.test(text) ? text.replace(EDGE_CONNECTORS, '') : text;
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
  addSegments(add, whole);
  for (const piece of pieces) {
    const camel = camelParts(piece);
    if (pieces.length > 1) add(camel === null ? stem(fold(piece)) : fold(piece));
    if (camel !== null) for (const part of camel) add(stem(fold(part)));
  }
}

/** The first {@link CAMEL_BOUNDARY} in the ASCII `word` after position `from`, or -1 (same rule). */
function nextCamelBoundary(word: string, from: number): number {
  for (let i = from + 1; i < word.length; i++) {
    if (ASCII_KIND[word.charCodeAt(i)] !== UPPER) continue;
    const before = ASCII_KIND[word.charCodeAt(i - 1)];
    if (before === LOWER) return i;
    if (before === UPPER && ASCII_KIND[word.charCodeAt(i + 1)] === LOWER && ASCII_KIND[word.charCodeAt(i + 2)] === LOWER) {
      return i;
    }
  }
  return -1;
}

/**
 * pushWord for an ASCII word without apostrophes, giving the same tokens with the splitting,
 * folding (`toLowerCase`) and de-duplication done on ASCII directly.
 */
function pushAsciiIdentifier(out: string[], word: string): void {
  const whole = word.toLowerCase();
  push(out, whole);
  const seen = [whole];
  const add = (part: string): void => {
    if (!seen.includes(part)) {
      seen.push(part);
      push(out, part);
    }
  };
  const several = HAS_CONNECTOR.test(word);
  if (several) addSegments(add, whole);
  for (let start = 0; start < word.length; ) {
    let end = start;
    while (end < word.length && ASCII_KIND[word.charCodeAt(end)] !== CONNECTOR) end++;
    const piece = word.slice(start, end);
    const firstCut = nextCamelBoundary(piece, 0);
    if (several) add(firstCut < 0 ? stem(piece.toLowerCase()) : piece.toLowerCase());
    if (firstCut >= 0) {
      let from = 0;
      for (let cut = firstCut; cut >= 0; cut = nextCamelBoundary(piece, from)) {
        add(stem(piece.slice(from, cut).toLowerCase()));
        from = cut;
      }
      add(stem(piece.slice(from).toLowerCase()));
    }
    start = end;
    while (start < word.length && ASCII_KIND[word.charCodeAt(start)] === CONNECTOR) start++;
  }
}

/**
 * The word `text[start, end)` of ASCII letters, digits, connectors and `'`, with the kinds of
 * character it contains and the hash of its letters and digits. Without connectors, apostrophes
 * and camel case it is one token, which needs none of pushWord's general work (`fold` of ASCII is
 * `toLowerCase`).
 */
function pushAsciiWord(out: string[], text: string, start: number, end: number, kinds: number, hash: number): void {
  if ((kinds & APOSTROPHE) !== 0) return pushWord(out, text.slice(start, end));
  if ((kinds & (CONNECTOR | UPPER)) === 0) {
    return push(out, (kinds & DIGIT) === 0 ? stemAt(text, start, end, hash) : text.slice(start, end));
  }
  const word = text.slice(start, end);
  if ((kinds & CONNECTOR) === 0 && nextCamelBoundary(word, 0) < 0) return push(out, stem(word.toLowerCase()));
  pushAsciiIdentifier(out, word);
}

// Kinds of character and hash of the word asciiWordEnd last measured (module state instead of a
// result object per word; nothing runs between the call and the read).
let lastWordKinds = 0;
let lastWordHash = 0;

/**
 * End of the word TOKEN_PATTERN matches at `start` (an ASCII letter or digit), or -1 when a
 * non-ASCII character may belong to it. Same rule as the pattern: letters and digits, joined by a
 * run of connectors or one apostrophe when a letter or digit follows.
 */
function asciiWordEnd(text: string, start: number): number {
  const n = text.length;
  let kinds = 0;
  let hash = 0;
  let i = start;
  while (i < n) {
    let c = text.charCodeAt(i);
    while (c < 0x80 && (ASCII_KIND[c]! & ALNUM) !== 0) {
      kinds |= ASCII_KIND[c]!;
      hash = hashStep(hash, c);
      if (++i === n) break;
      c = text.charCodeAt(i);
    }
    if (i === n) break;
    if (c >= 0x80) {
      CONTINUES_PART.lastIndex = i;
      if (CONTINUES_PART.test(text)) return -1;
      break;
    }
    const joiner = ASCII_KIND[c]! & (CONNECTOR | APOSTROPHE);
    if (joiner === 0) break;
    let j = i + 1;
    if (joiner === CONNECTOR) while (j < n && text.charCodeAt(j) < 0x80 && ASCII_KIND[text.charCodeAt(j)] === CONNECTOR) j++;
    if (j === n) break;
    const next = text.charCodeAt(j);
    if (next >= 0x80) {
      STARTS_PART.lastIndex = j;
      if (STARTS_PART.test(text)) return -1;
      break;
    }
    if ((ASCII_KIND[next]! & ALNUM) === 0) break;
    kinds |= joiner;
    i = j;
  }
  lastWordKinds = kinds;
  lastWordHash = hash;
  return i;
}

/** The CJK runs of one text and where their tokens go in the output. */
interface Runs {
  texts: string[];
  /** Index in the output array of each run's placeholder. */
  slots: number[];
}

/** Match TOKEN_PATTERN from `from`: push the word, or note the CJK run. Returns where to go on. */
function takeMatch(text: string, from: number, out: string[], runs: Runs): number {
  TOKEN_PATTERN.lastIndex = from;
  const m = TOKEN_PATTERN.exec(text);
  if (m === null) return text.length;
  if (m[1] !== undefined) {
    runs.slots.push(out.length);
    out.push('');
    runs.texts.push(m[1]);
  } else pushWord(out, m[0]);
  return m.index + m[0].length;
}

/** Word tokens of `text` (NFKC-normalised) in order, with an empty placeholder per CJK run. */
function scan(text: string, out: string[], runs: Runs): void {
  const n = text.length;
  for (let i = 0; i < n; ) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) {
      i = takeMatch(text, i, out, runs);
    } else if ((ASCII_KIND[c]! & ALNUM) === 0) {
      i++;
    } else {
      const end = asciiWordEnd(text, i);
      if (end < 0) {
        i = takeMatch(text, i, out, runs);
      } else {
        const symbols = (lastWordKinds & (CONNECTOR | APOSTROPHE)) === 0 ? symbolSuffix(text, i, end) : 0;
        if (symbols > 0) push(out, symbolName(text.slice(i, end + symbols)));
        pushAsciiWord(out, text, i, end, lastWordKinds, lastWordHash);
        i = end + symbols;
      }
    }
  }
}

/**
 * Names written with symbols: `C++`, `g++`, `libstdc++` and `C#`, `F#`. The symbols are not word characters, so
 * `C++` was the token `c`, found in every "C" and "(c)" of a folder. Such a name gives a token of its own, the
 * symbols spelled out (`cplusplus`, `csharp`), before its word's usual tokens (`c`). `++` counts after a plain
 * word (letters and digits) when no letter or `+` follows (`C++17` is `cplusplus 17`, `用C++写` has it too); `#`
 * after a single letter when no letter, digit or `_` follows (`C#.`, `C#/.NET`; `index.html#top`, `item#1` are
 * not names).
 */
function symbolSuffix(text: string, start: number, end: number): number {
  const c = text.charCodeAt(end); // NaN past the end
  if (c === PLUS && text.charCodeAt(end + 1) === PLUS) {
    const next = text.charCodeAt(end + 2);
    if (next === PLUS || (next < 0x80 && (ASCII_KIND[next]! & (LOWER | UPPER)) !== 0)) return 0;
    return next >= 0x80 && LETTER.test(text[end + 2]!) ? 0 : 2;
  }
  if (c === HASH && end - start === 1 && (ASCII_KIND[text.charCodeAt(start)]! & (LOWER | UPPER)) !== 0) {
    const next = text.charCodeAt(end + 1);
    if (next === UNDERSCORE || (next < 0x80 && (ASCII_KIND[next]! & ALNUM) !== 0)) return 0;
    return next >= 0x80 && LETTER_OR_DIGIT.test(text[end + 1]!) ? 0 : 1;
  }
  return 0;
}
const PLUS = 0x2b;
const HASH = 0x23;
const UNDERSCORE = 0x5f;
// A letter or digit that would continue the name; CJK does not (`用C++写`).
const LETTER = new RegExp(`^[\\p{L}--${CJK_CLASS}]$`, 'v');
const LETTER_OR_DIGIT = new RegExp(`^${WORD_START}$`, 'v');

/** The token of a name ending in symbols (see symbolSuffix): `C++` → `cplusplus`, `C#` → `csharp`. */
function symbolName(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('++') ? `${lower.slice(0, -2)}plusplus` : `${lower.slice(0, -1)}sharp`;
}

/** Replace each run's placeholder in `tokens` by the run's tokens. */
function fillRuns(tokens: string[], runs: Runs): string[] {
  const perRun = tokensOfRuns(runs.texts);
  const out: string[] = [];
  let from = 0;
  for (let r = 0; r < runs.texts.length; r++) {
    const slot = runs.slots[r]!;
    for (let i = from; i < slot; i++) out.push(tokens[i]!);
    for (const token of perRun[r]!) push(out, token);
    from = slot + 1;
  }
  for (let i = from; i < tokens.length; i++) out.push(tokens[i]!);
  return out;
}

// ASCII text is already NFKC (no ASCII character decomposes or composes), so it skips normalize.
const ALL_ASCII = /^[\x00-\x7f]*$/;

/** True when every character of `text` is ASCII (such a text is its own NFKC form). */
export function isAscii(text: string): boolean {
  return ALL_ASCII.test(text);
}

/** The word tokens of `text` (NFKC-normalised) with a placeholder per CJK run, and the runs (see `scan`). */
function scanned(text: string): { tokens: string[]; runs: Runs } {
  const tokens: string[] = [];
  const runs: Runs = { texts: [], slots: [] };
  if (text.length > 0) scan(isAscii(text) ? text : text.normalize('NFKC'), tokens, runs);
  return { tokens, runs };
}

/** Tokens of `text` for the keyword index and for queries, in order of appearance (duplicates kept). */
export function tokenize(text: string): string[] {
  const { tokens, runs } = scanned(text);
  return runs.texts.length === 0 ? tokens : fillRuns(tokens, runs);
}

/** True when `token` came from a CJK run (it holds a CJK character); `wordTokens` leaves such tokens out. */
export function isCjkToken(token: string): boolean {
  return CJK_CHAR.test(token);
}
const CJK_CHAR = new RegExp(CJK_CLASS, 'v');

/**
 * The tokens of `text` that do not come from CJK runs, in order: `tokenize(text)` without them, at a
 * fraction of the cost where the text has CJK (segmenting runs is most of the tokenizer's work). For
 * counting words that are not CJK.
 */
export function wordTokens(text: string): string[] {
  const { tokens, runs } = scanned(text);
  return runs.texts.length === 0 ? tokens : tokens.filter((t) => t !== '');
}

/** The string stored in the FTS5 column: tokens joined by single spaces. */
export function toIndexText(text: string): string {
  return tokenize(text).join(' ');
}

/** Distinct query terms in first-appearance order (what search ORs together). */
export function queryTerms(query: string): string[] {
  return [...new Set(tokenize(query))];
}

/** One word of a query as the keyword stage sees it. */
export interface QueryWord {
  /** The word as typed (NFKC), e.g. `E_CONN_RESET`; for a CJK run, the run. */
  text: string;
  /** Its token as the index holds it (the whole identifier, unstemmed; a plain word stemmed). */
  term: string;
  /**
   * For an identifier, the parts that may stand in for it when the whole is absent: single
   * characters and digit-only parts are left out (the `e` of `E_CONN_RESET`, the `1` of `v1.2`),
   * since they match almost anything. Empty for a plain word.
   */
  parts: string[];
  /** True for a word a person types as an exact name: a code, path, camelCase or mixed letters and digits. */
  identifier: boolean;
  /**
   * For an identifier, the same name as other languages spell it, as index tokens: a snake_case name run
   * together (`econnreset` of `E_CONN_RESET`, as Node writes it; `maxretries`, as camelCase `maxRetries`
   * is held whole) and a camelCase name in snake_case (`max_retries` of `maxRetries`). They stand in for
   * the whole when the knowledge base holds only another spelling.
   */
  spellings?: string[];
  /**
   * For a word of a hyphenated compound (`T-cell`, `tissue-resident`, `CVE-2024-3094`): the compound as
   * typed, its whole index token (`t-cell`), and the index tokens of its words in order, which every
   * chunk that holds it, written with hyphens or with spaces, holds as a phrase.
   */
  compound?: { text: string; term: string; phrase: string[] };
}

const LETTER_AND_DIGIT = /\p{L}.*\p{N}|\p{N}.*\p{L}/u;
const ALL_CAPITALS = /^\p{Lu}{3,}$/u;
const DIGITS_ONLY = /^\p{N}+$/u;

/** A code such as `ENOSPC`, `sha256` or `OOMKilled`: what a person means as one exact name. */
function looksLikeName(word: string, tokens: string[]): boolean {
  return tokens.length > 1 || LETTER_AND_DIGIT.test(word) || ALL_CAPITALS.test(word);
}

/** Words joined by hyphens and nothing else (`T-cell`, `HIV-1`, `api-gateway`, not `v1.2-beta`). */
const HYPHEN_COMPOUND = /^[\p{L}\p{N}\p{M}]+(?:-+[\p{L}\p{N}\p{M}]+)+$/u;

/** One word without hyphens (a plain word or a code), with its index term and usable parts. */
function queryWord(text: string, tokens: string[]): QueryWord {
  const parts = tokens.slice(1).filter((p) => p.length > 1 && !DIGITS_ONLY.test(p));
  const identifier = looksLikeName(text, tokens);
  const spellings = identifier ? otherSpellings(text, tokens[0]!) : [];
  return { text, term: tokens[0]!, parts, identifier, ...(spellings.length > 0 ? { spellings } : {}) };
}

/** A snake_case name: letters and digits joined by single underscores, starting with a letter. */
const SNAKE_NAME = /^\p{L}[\p{L}\p{N}]*(?:_[\p{L}\p{N}]+)+$/u;
/** A camelCase name without connectors (`maxRetries`, `getHTTPResponse`), not an acronym alone. */
const CAMEL_NAME = /^\p{L}[\p{L}\p{N}]*$/u;

/** See QueryWord.spellings: `term` is the word's whole index token. */
function otherSpellings(text: string, term: string): string[] {
  if (SNAKE_NAME.test(term)) return [term.replaceAll('_', '')];
  const parts = CAMEL_NAME.test(text) ? camelParts(text) : null;
  return parts ? [fold(parts.join('_'))] : [];
}

/**
 * The words of a query, each with its index term and, for an identifier, its usable parts, in
 * first-appearance order with repeated terms left out. CJK runs give one plain word per token.
 *
 * Hyphens separate words, as spaces do: `T-cell` is the words `T` and `cell`, each marked with the
 * compound. Written text hyphenates freely ("T-cell", "T cells"; "tissue-resident macrophages"), and
 * searching such a word whole found only the pages that hyphenate it the same way, with the whole's
 * rarity lifting them over pages that say the same thing with a space (SciFact train keyword nDCG@10
 * 0.699 → 0.705; the keyword stage still searches the whole in page titles and paths, see
 * keywordTerms). Codes joined by other characters (`E_CONN_RESET`, `v1/chat`) stay whole.
 */
export function queryWords(query: string): QueryWord[] {
  const normalized = query.normalize('NFKC');
  const words: QueryWord[] = [];
  const seen = new Set<string>();
  const add = (word: QueryWord): void => {
    if (!seen.has(word.term)) seen.add(word.term) && words.push(word);
  };
  for (let from = 0; ; ) {
    // tokenize() uses TOKEN_PATTERN too, so its position is set again before every match.
    TOKEN_PATTERN.lastIndex = from;
    const m = TOKEN_PATTERN.exec(normalized);
    if (m === null) break;
    const symbols = m[1] === undefined && !HAS_CONNECTOR.test(m[0]) ? symbolSuffix(normalized, m.index, m.index + m[0].length) : 0;
    const text = normalized.slice(m.index, m.index + m[0].length + symbols);
    from = m.index + text.length;
    const tokens = tokenize(text);
    // A CJK run, or an identifier too long to be kept whole: its tokens are plain words.
    if (m[1] !== undefined || text.length > MAX_TOKEN_LENGTH) {
      for (const term of tokens) add({ text: term, term, parts: [], identifier: false });
      continue;
    }
    if (tokens.length === 0) continue;
    if (!HYPHEN_COMPOUND.test(text)) {
      add(queryWord(text, tokens));
      continue;
    }
    const compound = { text, term: tokens[0]!, phrase: tokens.slice(1) };
    for (const piece of text.split(/-+/)) {
      const pieceTokens = tokenize(piece);
      if (pieceTokens.length > 0) add({ ...queryWord(piece, pieceTokens), compound });
    }
  }
  return words;
}
