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
 *   write "text [1]", not "text[1]", in English), an escaped bracket `\[1]`, and anything inside inline code
 *   or a fenced code block. After CJK text or punctuation a marker needs no space: `结论[1]。` is a marker.
 * - code, as CommonMark reads it, with one deliberate difference: a fence never closed ends at the end of
 *   its paragraph (a renderer closes it there too, see {@link closeOpenFences}); an inline code span never
 *   leaves its paragraph; an escaped backtick opens no span.
 */
import { linesOf } from './lines';

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

/** A fenced code block: `[start, end)`, and for one never closed, the opening line's indent and fence. */
export interface FencedBlock {
  start: number;
  end: number;
  /** Null when the block is closed; else what a closing line must repeat (e.g. `` ``` `` or `   ~~~~`). */
  unclosed: string | null;
}

const FENCE_LINE = /^( {0,3})(`{3,}|~{3,})(.*)$/;

/** The fence a line opens (indent + run), or null; a backtick fence's info string may not hold a backtick. */
function openingFence(line: string): { indent: string; run: string } | null {
  const m = FENCE_LINE.exec(line);
  if (!m || (m[2]![0] === '`' && m[3]!.includes('`'))) return null;
  return { indent: m[1]!, run: m[2]! };
}

function closesFence(line: string, run: string): boolean {
  const m = FENCE_LINE.exec(line);
  return !!m && m[2]![0] === run[0] && m[2]!.length >= run.length && !m[3]!.trim();
}

/**
 * The fenced code blocks of `text`, in order. A fence never closed ends at the end of its paragraph
 * (before its first blank line), not at the end of the text: an answer quoting a passage that was cut
 * inside a code block must not hide every citation after it. While an answer streams in, its open
 * block therefore ends at the last line so far.
 */
export function fencedBlocks(text: string): FencedBlock[] {
  const lines = linesOf(text);
  const blocks: FencedBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const opener = openingFence(lines[i]!.text);
    if (!opener) continue;
    let j = i + 1;
    while (j < lines.length && !closesFence(lines[j]!.text, opener.run)) j++;
    const closed = j < lines.length;
    if (!closed) for (j = i + 1; j < lines.length && lines[j]!.text.trim() !== ''; ) j++;
    const last = lines[closed ? j : j - 1]!;
    const unclosed = closed ? null : opener.indent + opener.run;
    blocks.push({ start: lines[i]!.start, end: last.start + last.text.length, unclosed });
    i = closed ? j : j - 1;
  }
  return blocks;
}

/**
 * Where the code blocks of Markdown `text` open and close, read as CommonMark reads a whole page (a
 * fence never closed runs to the end): the start of every fence line that changes whether code is open,
 * and the fence open after it (its run, e.g. `` ``` `` or `~~~~`), or null once closed. One scan of the
 * text; ask it with {@link fenceAt}. A passage that starts inside a code block shows as the page does
 * only when its quote opens the block again; otherwise the block's closing fence would open one and turn
 * the prose after it to code.
 */
export interface FenceMap {
  lineStarts: number[];
  openAfter: (string | null)[];
}

/** The {@link FenceMap} of `text`. Only lines that start with a fence character are looked at closely. */
export function fenceMapOf(text: string): FenceMap {
  const map: FenceMap = { lineStarts: [], openAfter: [] };
  let open: string | null = null;
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    let first = start;
    while (first < end && first - start < 3 && text.charCodeAt(first) === 32) first++;
    const c = text.charCodeAt(first);
    if (c === 96 || c === 126) {
      const line = text.slice(start, end);
      const before: string | null = open;
      if (open === null) open = openingFence(line)?.run ?? null;
      else if (closesFence(line, open)) open = null;
      if (open !== before) {
        map.lineStarts.push(start);
        map.openAfter.push(open);
      }
    }
    start = end + 1;
  }
  return map;
}

/** The fence of the code block that `offset` lies inside (per a {@link FenceMap}), or null. */
export function fenceAt(map: FenceMap, offset: number): string | null {
  // The last change on a line that starts before `offset` decides (binary search).
  let lo = 0;
  let hi = map.lineStarts.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (map.lineStarts[mid]! < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? null : map.openAfter[lo - 1]!;
}


/**
 * `text` with every fence that is never closed closed at the end of its paragraph, so a Markdown
 * renderer shows the same code as {@link parseCitationMarkers} skips (a renderer would run the block to
 * the end of the answer and swallow every citation chip after it). Offsets change only after a block.
 */
export function closeOpenFences(text: string): string {
  let out = '';
  let from = 0;
  for (const block of fencedBlocks(text)) {
    if (block.unclosed === null) continue;
    out += `${text.slice(from, block.end)}\n${block.unclosed}`;
    from = block.end;
  }
  return out + text.slice(from);
}

/** True when the character at `at` is escaped by an odd run of backslashes before it (`\[1]`). */
function escaped(text: string, at: number): boolean {
  let n = 0;
  while (at - n - 1 >= 0 && text[at - n - 1] === '\\') n++;
  return n % 2 === 1;
}

// A line that starts a block of its own (heading, quote, list item): a code span never reaches into it.
const BLOCK_START = /^ {0,3}(#{1,6}(\s|$)|>|[-*+]\s|\d{1,9}[.)]\s)/;

/** `[start, end)` of the paragraphs outside fenced blocks: runs of lines broken by blank lines and block starts. */
function paragraphs(text: string, fenced: FencedBlock[]): [number, number][] {
  const found: [number, number][] = [];
  let open: [number, number] | null = null;
  for (const line of linesOf(text)) {
    const inFence = fenced.some((b) => line.start >= b.start && line.start < b.end);
    if (inFence || !line.text.trim() || BLOCK_START.test(line.text)) {
      if (open) found.push(open);
      open = null;
    }
    if (inFence || !line.text.trim()) continue;
    if (open) open[1] = line.start + line.text.length;
    else open = [line.start, line.start + line.text.length];
  }
  if (open) found.push(open);
  return found;
}

/**
 * `[start, end)` ranges of inline code spans: within one paragraph, a backtick run closed by the next run
 * of the same length. An escaped backtick (a backslash before it) opens nothing; an unmatched run is
 * literal backticks.
 */
function inlineRanges(text: string, fenced: FencedBlock[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (const [from, to] of paragraphs(text, fenced)) {
    const runs: { index: number; length: number }[] = [];
    for (const m of text.slice(from, to).matchAll(/`+/g)) {
      const index = from + m.index;
      const skip = escaped(text, index) ? 1 : 0;
      if (m[0].length > skip) runs.push({ index: index + skip, length: m[0].length - skip });
    }
    for (let i = 0; i < runs.length; i++) {
      const opener = runs[i]!;
      const closer = runs.findIndex((r, j) => j > i && r.length === opener.length);
      if (closer < 0) continue;
      ranges.push([opener.index, runs[closer]!.index + opener.length]);
      i = closer;
    }
  }
  return ranges;
}

/**
 * Finds citation markers in an answer, in text order. See the file comment for exactly what counts:
 * `[1]`, `［1］`, `【1】`, `[1, 2]`, `【1，2】` and ranges `[1-3]` do; `[[wiki/x]]`, `[text](url)`, `[x]`,
 * `arr[0]` and code do not. Numbers are 1-based integers up to 999.
 */
export function parseCitationMarkers(text: string): CitationMarker[] {
  const fenced = fencedBlocks(text);
  const code = [...fenced.map((b): [number, number] => [b.start, b.end]), ...inlineRanges(text, fenced)];
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
    if (escaped(text, start)) continue; // \[1] is the text "[1]"
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
