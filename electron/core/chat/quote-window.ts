/**
 * Where an extractive answer starts quoting a passage longer than it quotes. A passage cut from a
 * README often begins inside the code block before the sentence that answers ("], message: … } ```
 * To avoid a try/catch block, use .safeParse()"); quoting from its first character shows the code's
 * tail and cuts the answer off. The quote starts instead at the first line or sentence that holds a
 * word of the question.
 */
import { FUNCTION_TERMS } from '../search/keyword';
import { tokenize } from '../text/tokenize';

/** Starts of lines and of sentences (after `. ! ? 。！？；` and a space, or at once for CJK marks). */
const PIECE_START = /\n[ \t]*(?=\S)|[.!?]\s+(?=\S)|[。！？；](?=\S)/g;

/** Whether `text` holds one of the question's `terms`, as the index would spell it. */
function holdsTerm(text: string, terms: Set<string>): boolean {
  return tokenize(text).some((t) => terms.has(t));
}

/**
 * The offset in `text` to quote from: the start of its first line or sentence that holds a word of the
 * question (function words aside); 0 when the whole passage fits in `max` characters (whitespace runs
 * counted as one), when no piece holds one, or when only Markdown headings come before it. Everything before that piece holds none of the words, so
 * the quoted stretch loses nothing the question asked about.
 */
export function quoteStart(text: string, question: string, max: number): number {
  if (text.replace(/\s+/g, ' ').trim().length <= max) return 0;
  const terms = new Set(tokenize(question).filter((t) => !FUNCTION_TERMS.has(t)));
  if (terms.size === 0) return 0;
  const starts = [0, ...[...text.matchAll(PIECE_START)].map((m) => m.index + m[0].length)];
  for (let i = 0; i < starts.length; i++) {
    if (!holdsTerm(text.slice(starts[i]!, starts[i + 1] ?? text.length), terms)) continue;
    // Headings that lead to the piece are its context ("Basic conversion"), not a tail to skip.
    return onlyHeadings(text.slice(0, starts[i]!)) ? 0 : starts[i]!;
  }
  return 0;
}

/** Whether every non-blank line of `text` is a Markdown heading. */
function onlyHeadings(text: string): boolean {
  return text.split('\n').every((line) => line.trim() === '' || /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/.test(line));
}
