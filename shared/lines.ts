/**
 * The lines of a text with their offsets: each line's `[start, end)` in the text (the newline excluded) and its
 * text. A text ending in a newline has an empty last line, as `split('\n')` gives it. Pure.
 */

/** One line of a text. */
export interface TextLine {
  start: number;
  end: number;
  text: string;
}

/** Every line of `text`, in order. */
export function linesOf(text: string): TextLine[] {
  const lines: TextLine[] = [];
  let start = 0;
  for (;;) {
    const nl = text.indexOf('\n', start);
    const end = nl === -1 ? text.length : nl;
    lines.push({ start, end, text: text.slice(start, end) });
    if (nl === -1) return lines;
    start = nl + 1;
  }
}
