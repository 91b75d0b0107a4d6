/**
 * Citation markers in an answer (`[1]`, `［1］`, `【1】`, `[1, 2]`, `[1-3]`), the quotations attributed
 * to them, and whether a quotation really occurs in its passage. Pure: the renderer uses it too, so no
 * Node built-ins.
 *
 * What counts as a marker (decided here, tested in citations.test.ts):
 * - brackets must pair: `[…]`, `［…］` or `【…】`; `[1】` is not a marker;
 * - inside: one or more 1-based numbers ≤ 999 (ASCII or full-width digits, no leading zero), separated by
 *   `,` `，` `、` `;` `；` with optional spaces; `[1, 2]` is one marker, `[1][2]` two;
 * - a range `a-b` (also `–`, `－`, `~`, `～`) expands to a…b when a ≤ b and it spans at most
 *   {@link MAX_RANGE} numbers; a reversed or longer range makes the whole bracket not a marker;
 * - not a marker: `[[wiki/x]]` or `[[1]]` (doubled brackets), a markdown link `[1](url)`, checkboxes
 *   `[x]` / `[ ]`, anything directly after an ASCII letter, digit, `_` or `$` (`arr[1]`, `x2[1]`: code, so
 *   write "text [1]", not "text[1]", in English), and anything inside inline code or a fenced code block.
 *   After CJK text or punctuation a marker needs no space: `结论[1]。` is a marker.
 */

/** One citation marker found in a text; offsets are JavaScript string indices (UTF-16 code units). */
export interface CitationMarker {
  /** Offset of the opening bracket in the text. */
  start: number;
  /** Offset just past the closing bracket. */
  end: number;
  /** The marker as written, e.g. `【1，2】`. */
  raw: string;
  /** The cited passage numbers, 1-based, in the order written, each once. */
  numbers: number[];
}

/** The longest range a marker may expand (`[1-20]` is fine, `[1-21]` is not a marker). */
export const MAX_RANGE = 20;

const PAIRS: Record<string, string> = { '[': ']', '［': '］', '【': '】' };
const CANDIDATE = /[[［【]([^[\]［］【】\n]{1,80})[\]］】]/g;
const SPACE = '[ \\t\\u3000]*';
const NUMBER = '[1-9１-９][0-9０-９]{0,2}';
const ITEM = `(${NUMBER})(?:${SPACE}[-–－~～]${SPACE}(${NUMBER}))?`;
const LIST = new RegExp(`^${SPACE}${ITEM}(?:${SPACE}[,，、;；]${SPACE}${ITEM})*${SPACE}$`);
const ITEMS = new RegExp(ITEM, 'g');
const IDENTIFIER_CHAR = /[A-Za-z0-9_$]/;

function toNumber(digits: string): number {
  // Full-width digits sit at a fixed offset from ASCII ones.
  return Number(digits.replace(/[０-９]/g, (d) => String.fromCharCode(d.charCodeAt(0) - 0xfee0)));
}

/** The numbers a marker's inside stands for, or null when it is not a citation list. */
function numbersOf(inside: string): number[] | null {
  if (!LIST.test(inside)) return null;
  const numbers: number[] = [];
  for (const match of inside.matchAll(ITEMS)) {
    const from = toNumber(match[1]!);
    const to = match[2] === undefined ? from : toNumber(match[2]);
    if (to < from || to - from >= MAX_RANGE) return null;
    for (let n = from; n <= to; n++) if (!numbers.includes(n)) numbers.push(n);
  }
  return numbers;
}

/** `[start, end)` ranges of fenced code blocks; an unclosed fence runs to the end (answers stream in). */
function fencedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let open: { fence: string; start: number } | null = null;
  let lineStart = 0;
  for (const line of text.split('\n')) {
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
    if (open && fence && fence[1]![0] === open.fence[0] && fence[1]!.length >= open.fence.length && !fence[2]!.trim()) {
      ranges.push([open.start, lineStart + line.length]);
      open = null;
    } else if (!open && fence && !(fence[1]![0] === '`' && fence[2]!.includes('`'))) {
      open = { fence: fence[1]!, start: lineStart };
    }
    lineStart += line.length + 1;
  }
  if (open) ranges.push([open.start, text.length]);
  return ranges;
}

/** `[start, end)` ranges of inline code spans outside `fenced`: a backtick run closed by a run of the same length. */
function inlineRanges(text: string, fenced: [number, number][]): [number, number][] {
  const ranges: [number, number][] = [];
  const runs = [...text.matchAll(/`+/g)].filter((m) => !fenced.some(([s, e]) => m.index >= s && m.index < e));
  for (let i = 0; i < runs.length; i++) {
    const opener = runs[i]!;
    const closer = runs.findIndex((m, j) => j > i && m[0].length === opener[0].length);
    if (closer < 0) continue; // an unmatched run is literal backticks
    ranges.push([opener.index, runs[closer]!.index + opener[0].length]);
    i = closer;
  }
  return ranges;
}

/**
 * Finds citation markers in an answer, in text order. See the file comment for exactly what counts:
 * `[1]`, `［1］`, `【1】`, `[1, 2]`, `【1，2】` and ranges `[1-3]` do; `[[wiki/x]]`, `[text](url)`, `[x]`,
 * `arr[0]` and code do not. Numbers are 1-based integers up to 999.
 */
export function parseCitationMarkers(text: string): CitationMarker[] {
  const fenced = fencedRanges(text);
  const code = [...fenced, ...inlineRanges(text, fenced)];
  const markers: CitationMarker[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index;
    const end = start + match[0].length;
    const open = match[0][0]!;
    const close = match[0][match[0].length - 1]!;
    if (PAIRS[open] !== close) continue;
    const before = text[start - 1] ?? '';
    const after = text[end] ?? '';
    if (before === open || after === close) continue; // [[wiki/x]] style
    if (open === '[' && after === '(') continue; // markdown link
    if (IDENTIFIER_CHAR.test(before)) continue; // arr[1]
    if (code.some(([s, e]) => start >= s && start < e)) continue;
    const numbers = numbersOf(match[1]!);
    if (numbers) markers.push({ start, end, raw: match[0], numbers });
  }
  return markers;
}

/** A quotation followed by citation markers. */
export interface AttributedQuote {
  /** The text between the quotation marks, as written. */
  quote: string;
  /** The numbers of every marker directly after the quotation (`“…”[1][2]` gives [1, 2]). */
  numbers: number[];
  /** Index in `markers` of the first of those markers. */
  markerIndex: number;
}

const QUOTE_OPENERS: Record<string, string> = { '"': '"', '”': '“', '」': '「', '』': '『' };
const GAP = /^[ \t\u3000]*$/;

/** Offset of the opening mark matching the closing mark at `close`, or -1; stays within one paragraph. */
function openingQuote(text: string, close: number): number {
  const closer = text[close]!;
  const opener = QUOTE_OPENERS[closer]!;
  let depth = 0;
  for (let i = close - 1; i >= 0; i--) {
    const c = text[i]!;
    if (c === '\n' && text[i - 1] === '\n') return -1;
    if (c === opener && depth === 0) return i;
    // Nested pairs of the same kind (「a「b」c」); a straight " cannot nest.
    if (opener !== closer && c === closer) depth++;
    else if (opener !== closer && c === opener) depth--;
  }
  return -1;
}

/**
 * Quotations attributed to citations: text in "…", “…”, 「…」 or 『…』 that ends right before a marker,
 * allowing spaces (not a line break) between them. A run of markers after one quotation (`“…”[1] [2]`)
 * makes one entry with all their numbers; the quotation should occur in at least one of those passages.
 * Quotations that are empty or span a blank line are ignored.
 * @param text the answer.
 * @param markers the markers of `text`, as returned by {@link parseCitationMarkers}.
 */
export function findAttributedQuotes(text: string, markers: CitationMarker[]): AttributedQuote[] {
  const found: AttributedQuote[] = [];
  for (let i = 0; i < markers.length; i++) {
    const markerIndex = i;
    const first = markers[i]!;
    const numbers = [...first.numbers];
    while (i + 1 < markers.length && GAP.test(text.slice(markers[i]!.end, markers[i + 1]!.start))) {
      i++;
      for (const n of markers[i]!.numbers) if (!numbers.includes(n)) numbers.push(n);
    }
    let close = first.start - 1;
    while (close >= 0 && /[ \t\u3000]/.test(text[close]!)) close--;
    if (close < 0 || !Object.hasOwn(QUOTE_OPENERS, text[close]!)) continue;
    const open = openingQuote(text, close);
    const quote = open < 0 ? '' : text.slice(open + 1, close);
    if (quote.trim()) found.push({ quote, numbers, markerIndex });
  }
  return found;
}

// Han, kana, CJK punctuation (、。「」…) and full-width forms (，！？…); not Hangul, whose spaces matter.
const CJK = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3001-\\u303f\\uff01-\\uffef';
const SPACE_NEXT_TO_CJK = new RegExp(`(?<=[${CJK}])\\s+|\\s+(?=[${CJK}])`, 'gu');

/** The form both sides of a quote check are compared in. */
function normaliseForQuote(text: string): string {
  return text.replace(SPACE_NEXT_TO_CJK, '').replace(/\s+/g, ' ').trim();
}

/**
 * True when `quote` occurs in `passage` once whitespace is normalised on both sides: runs of whitespace
 * become one space and the ends are trimmed, and whitespace next to a CJK character is ignored (line
 * breaks inside Chinese text, and the optional space between Chinese and English, `使用 Ollama` =
 * `使用Ollama`). Nothing else is folded: case, punctuation and width must match. An empty quote never matches.
 */
export function quoteMatches(quote: string, passage: string): boolean {
  const wanted = normaliseForQuote(quote);
  return wanted !== '' && normaliseForQuote(passage).includes(wanted);
}
