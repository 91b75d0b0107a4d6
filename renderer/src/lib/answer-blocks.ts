/**
 * Cutting a long (or still streaming) answer into parts that render on their own, so a new token
 * re-renders only the last part and a finished 3 MB answer is not one Markdown pass. Parts end at a
 * blank line outside code fences, where Markdown blocks end anyway; consecutive blocks are grouped so
 * the number of parts stays small. Only the text after the last complete block is still "live".
 */

/** Blocks per part. Default 40: few enough parts for a long answer, small enough to re-render fast. */
export const BLOCKS_PER_PART = 40;

/** A long answer cut into parts; `stable` parts will not change as more text is appended. */
export interface AnswerParts {
  /** The text the stable parts cover (a prefix of the answer). */
  stableText: string;
  /**
   * Complete parts, each with its offset in the answer: groups of {@link BLOCKS_PER_PART} blocks, then
   * the blocks since the last full group one by one (so a new block never changes an earlier part's text).
   */
  stable: { start: number; text: string }[];
  /** How many of `stable` are single blocks after the last full group. */
  loose: number;
  /** The text after the stable parts (the block being written), with its offset. */
  tail: { start: number; text: string };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The ends (offsets just after a blank line) of the complete blocks in `text` from `from`, outside fences. */
function blockEnds(text: string, from: number): number[] {
  const ends: number[] = [];
  let fence: string | null = null;
  let at = from;
  let previousBlank = false;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) break; // the last line is unfinished: it may still become anything
    const line = text.slice(at, nl);
    const opener = FENCE.exec(line)?.[1];
    if (opener && (fence === null || (opener[0] === fence[0] && opener.length >= fence.length))) {
      fence = fence === null ? opener : null;
    }
    const blank = line.trim() === '';
    if (blank && fence === null && !previousBlank && at > from) ends.push(nl + 1);
    previousBlank = blank;
    at = nl + 1;
  }
  return ends;
}

/**
 * Cut `text` into parts, reusing `previous` (the cut of an earlier, shorter version of the same
 * answer) so streaming costs only the new text.
 */
export function cutAnswer(text: string, previous: AnswerParts | null = null): AnswerParts {
  const reuse = previous !== null && text.startsWith(previous.stableText);
  const stable = reuse ? [...previous.stable] : [];
  let loose = reuse ? previous.loose : 0;
  let covered = reuse ? previous.stableText.length : 0;
  for (const end of blockEnds(text, covered)) {
    stable.push({ start: covered, text: text.slice(covered, end) });
    covered = end;
    loose += 1;
    if (loose === BLOCKS_PER_PART) {
      // A full group becomes one part, keyed by where it starts (the first of its blocks).
      const first = stable.length - loose;
      const start = stable[first]!.start;
      stable.splice(first, loose, { start, text: text.slice(start, end) });
      loose = 0;
    }
  }
  return { stableText: text.slice(0, covered), stable, loose, tail: { start: covered, text: text.slice(covered) } };
}
