/**
 * Where a passage's words on the query begin: what a preview or an extractive answer, which show only
 * its first few hundred characters, starts at. A passage cut from a README often begins inside the code
 * block before the sentence that answers ("], message: … } ``` To avoid a try/catch block, use
 * .safeParse()"); shown from its first character it offers the code's tail and cuts the answer off.
 * It is shown instead from the first line or sentence that holds a word of the query.
 */
import { tokenize } from '../text/tokenize';
import { FUNCTION_TERMS } from './keyword';

/** Starts of lines and of sentences (after `. ! ? 。！？；` and a space, or at once for CJK marks). */
const PIECE_START = /\n[ \t]*(?=\S)|[.!?]\s+(?=\S)|[。！？；](?=\S)/g;

/**
 * Passages up to this many characters (whitespace runs counted as one) and FOCUS_LINES lines are shown
 * whole: no focus. A preview under an answer shows about four lines; an extractive quote 400 characters.
 */
export const FOCUS_AFTER = 400;
export const FOCUS_LINES = 4;

/** Whether `text` holds one of `terms` (index terms). */
function holdsTerm(text: string, terms: Set<string>): boolean {
  return tokenize(text).some((t) => terms.has(t));
}

/**
 * The offset in `text` to show from: the start of its first line or sentence that holds one of
 * `queryTerms` (index terms as the keyword stage searched them: an identifier whole when the knowledge
 * base holds it), function words aside. 0 when the whole passage fits in `max` characters (whitespace
 * runs counted as one) and FOCUS_LINES lines, when no piece holds a term, or when only Markdown headings
 * (and the opening fence of the piece's code block) come before it. Nothing before that piece holds a
 * term, so the shown stretch loses nothing the query asked about.
 */
export function focusOf(text: string, queryTerms: readonly string[], max = FOCUS_AFTER): number {
  const lines = text.trim().split('\n').length;
  if (text.replace(/\s+/g, ' ').trim().length <= max && lines <= FOCUS_LINES) return 0;
  const terms = new Set(queryTerms.filter((t) => !FUNCTION_TERMS.has(t)));
  if (terms.size === 0) return 0;
  const starts = [0, ...[...text.matchAll(PIECE_START)].map((m) => m.index + m[0].length)];
  for (let i = 0; i < starts.length; i++) {
    if (!holdsTerm(text.slice(starts[i]!, starts[i + 1] ?? text.length), terms)) continue;
    // Headings and a fence opening its code block that lead to the piece are its context ("Basic
    // conversion", "```js"), not a tail to skip.
    return onlyLeadIn(text.slice(0, starts[i]!)) ? 0 : starts[i]!;
  }
  return 0;
}

/** Whether every non-blank line of `text` is a Markdown heading, or the last one a code fence's opening. */
function onlyLeadIn(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length > 0 && /^ {0,3}(?:`{3,}|~{3,})/.test(lines[lines.length - 1]!)) lines.pop();
  return lines.every((line) => /^[ \t]{0,3}#{1,6}(?:[ \t]|$)/.test(line));
}
