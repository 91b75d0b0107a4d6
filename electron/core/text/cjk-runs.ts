/**
 * Tokens of the runs of Chinese, Japanese and Korean text that the tokenizer finds: the words
 * `Intl.Segmenter` sees in each run, plus overlapping character bigrams, so a two-character word
 * such as `超时` is found however the segmenter split its run. The segmenter is most of the
 * tokenizer's cost, so the runs of one text share segmenter calls and the runs of the previous text
 * are remembered.
 */

// One segmenter for all CJK runs: ICU uses the same Chinese/Japanese dictionary whatever the
// locale, and Korean runs come back as space-free words either way.
const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

// ICU's word breaking slows down more than linearly on long inputs (3x per character at 25k
// characters, minutes for megabytes), so a long run is segmented in pieces of this many code
// units. A word cut at a piece boundary is still found through its bigrams.
const SEGMENT_PIECE = 512;

// Each segmenter call has a fixed cost, so the runs (and pieces) of one text are segmented in one
// call, joined by a space: a space is a word boundary on both sides and the dictionary only ever
// looks between boundaries, so every run gets the words it gets alone (`segmentBatch` checks the
// boundaries and falls back to one call per run if they ever moved). Past about this many code
// units the superlinear cost above outweighs the saving.
const SEGMENT_BATCH = 256;

const HAS_SURROGATE = /[\uD800-\uDFFF]/;

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

function isOneCodePoint(run: string): boolean {
  return run.length === 1 || (run.length === 2 && isLowSurrogate(run.charCodeAt(1)));
}

/** Number of code points of a segment, where only "is it 2?" matters (well-formed text: runs are letters). */
function isTwoCodePoints(word: string): boolean {
  if (word.length < 2 || word.length > 4) return false;
  let lows = 0;
  for (let i = 0; i < word.length; i++) if (isLowSurrogate(word.charCodeAt(i))) lows++;
  return word.length - lows === 2;
}

/**
 * What the segmenter said about a list of units (runs, or SEGMENT_PIECE pieces of long runs):
 * the word-like segments of unit `u` are `words[ends[u-1] .. ends[u])`, each at code-unit offset
 * `at[k]` inside its unit.
 */
interface UnitWords {
  words: string[];
  at: number[];
  ends: number[];
}

/**
 * Segment `units[first..last)` joined by spaces in one call and record each unit's words. Returns
 * false (after undoing what it recorded) if a segment crossed a unit's edge, which would mean the
 * joined text was not segmented as the units alone; the caller then segments them one by one
 * (a single unit always succeeds: hopping through one string is plain iteration).
 */
function segmentBatch(units: string[], first: number, last: number, result: UnitWords): boolean {
  const joined = last - first === 1 ? units[first]! : units.slice(first, last).join(' ');
  const segments = segmenter.segment(joined);
  const mark = result.words.length;
  let unitStart = 0;
  for (let u = first; u < last; u++) {
    const unitEnd = unitStart + units[u]!.length;
    // `containing` at each boundary visits the same segments as iteration (≈15% cheaper per
    // segment), and lets the separators go unvisited.
    for (let i = unitStart; i < unitEnd; ) {
      const seg = segments.containing(i)!;
      const end = seg.index + seg.segment.length;
      if (last - first > 1 && (seg.index !== i || end > unitEnd)) return undo(result, mark, first);
      if (seg.isWordLike !== false) {
        result.words.push(seg.segment);
        result.at.push(i - unitStart);
      }
      i = end;
    }
    result.ends[u] = result.words.length;
    unitStart = unitEnd + 1;
  }
  return true;
}

function undo(result: UnitWords, mark: number, first: number): false {
  result.words.length = mark;
  result.at.length = mark;
  result.ends.length = first;
  return false;
}

/** The word-like segments of every unit, segmenting up to SEGMENT_BATCH code units per call. */
function segmentUnits(units: string[]): UnitWords {
  const result: UnitWords = { words: [], at: [], ends: [] };
  let first = 0;
  let length = 0;
  for (let u = 0; u <= units.length; u++) {
    const unitLength = u < units.length ? units[u]!.length : 0;
    if (u > first && (u === units.length || length + 1 + unitLength > SEGMENT_BATCH)) {
      if (!segmentBatch(units, first, u, result)) {
        for (let one = first; one < u; one++) segmentBatch(units, one, one + 1, result);
      }
      first = u;
      length = 0;
    }
    length += (length > 0 ? 1 : 0) + unitLength;
  }
  return result;
}

/**
 * Cut each run of two or more code points whose tokens are not `known` into the units the
 * segmenter sees (SEGMENT_PIECE rule). Run r's units are `units[firstUnit[r] .. firstUnit[r+1])`.
 */
function unitsOf(runs: string[], known: (string[] | undefined)[]): { units: string[]; unitOffset: number[]; firstUnit: number[] } {
  const units: string[] = [];
  const unitOffset: number[] = [];
  const firstUnit: number[] = [];
  for (let r = 0; r < runs.length; r++) {
    const run = runs[r]!;
    firstUnit.push(units.length);
    if (known[r] !== undefined || isOneCodePoint(run)) continue;
    for (let from = 0; from < run.length; ) {
      let to = Math.min(run.length, from + SEGMENT_PIECE);
      if (to < run.length && isLowSurrogate(run.charCodeAt(to))) to--;
      units.push(run.slice(from, to));
      unitOffset.push(from);
      from = to;
    }
  }
  firstUnit.push(units.length);
  return { units, unitOffset, firstUnit };
}

/**
 * A CJK run: the segmenter's words (of all its units), then every overlapping bigram. A bigram
 * identical to a segmenter word at the same place is skipped so a two-character word is not
 * counted twice.
 */
function pushRun(out: string[], run: string, words: UnitWords, units: ReturnType<typeof unitsOf>, r: number): void {
  if (isOneCodePoint(run)) {
    out.push(run);
    return;
  }
  const twoCharWords: number[] = [];
  for (let u = units.firstUnit[r]!; u < units.firstUnit[r + 1]!; u++) {
    for (let k = u === 0 ? 0 : words.ends[u - 1]!; k < words.ends[u]!; k++) {
      const word = words.words[k]!;
      out.push(word);
      if (isTwoCodePoints(word)) twoCharWords.push(units.unitOffset[u]! + words.at[k]!);
    }
  }
  const starts = HAS_SURROGATE.test(run) ? codePointStarts(run) : null;
  const count = starts === null ? run.length : starts.length - 1;
  let next = 0;
  for (let i = 0; i + 1 < count; i++) {
    const from = starts === null ? i : starts[i]!;
    const to = starts === null ? i + 2 : starts[i + 2]!;
    while (next < twoCharWords.length && twoCharWords[next]! < from) next++;
    if (twoCharWords[next] === from) continue;
    out.push(run.slice(from, to));
  }
}

// Consecutive chunks of a page share their overlap (100 of 500 characters by default), so the
// runs of the previous text are remembered with their tokens and a run seen again skips the
// segmenter. Only the last text's runs (at most this many) are kept: a tiny, short-lived memo.
const REMEMBERED_RUNS = 256;
let previousRuns = new Map<string, string[]>();

/**
 * The tokens of each CJK run of one text, in order: the segmenter's words, then every overlapping
 * bigram that is not one of those words. Tokens of any length; the caller drops over-long ones.
 */
export function tokensOfRuns(runs: string[]): string[][] {
  const known = previousRuns;
  const cached = runs.map((run) => known.get(run));
  const units = unitsOf(runs, cached);
  const words = segmentUnits(units.units);
  const remembered = new Map<string, string[]>();
  const out = runs.map((run, r) => {
    let tokens = cached[r];
    if (tokens === undefined) pushRun((tokens = []), run, words, units, r);
    if (remembered.size < REMEMBERED_RUNS) remembered.set(run, tokens);
    return tokens;
  });
  previousRuns = remembered;
  return out;
}

/** A word the segmenter sees in a text's CJK runs, with its code-unit span in the (NFKC) text. */
export interface CjkWord {
  word: string;
  start: number;
  end: number;
}

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u30FC]+/gu;

/** The segmenter's words inside the CJK runs of `text` (NFKC), in order (for query analysis, not indexing). */
export function cjkWords(text: string): CjkWord[] {
  const out: CjkWord[] = [];
  for (const run of text.normalize('NFKC').matchAll(CJK_RUN)) {
    for (const seg of segmenter.segment(run[0])) {
      if (seg.isWordLike === false) continue;
      const start = run.index! + seg.index;
      out.push({ word: seg.segment, start, end: start + seg.segment.length });
    }
  }
  return out;
}
