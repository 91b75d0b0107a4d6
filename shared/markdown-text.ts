/**
 * Text from a document placed inside Markdown that Sift writes itself (an extractive answer, an
 * export's footnote). It is flattened to one line and every character Markdown could read as markup
 * is escaped, so nothing in it — half a code fence, a heading mark, HTML, a link, a stray `[2]` — can
 * change how the rest of the Markdown is parsed (by the citation parser too) or rendered.
 */

// Inline markup only: a quote always follows other text on its line, so no block syntax (heading,
// fence, quote, table) can start. `_` inside a word (E_CONN_RESET) is never emphasis, so stays readable.
const MARKUP = /[\\`*[\]<~&]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu;

/**
 * `text` as literal Markdown on one line: runs of whitespace become one space, and when longer than
 * `max` characters (default: no limit) it is cut there and ends in "…". The cut is made before escaping,
 * so it never splits an escape.
 */
export function quoteInline(text: string, max = Number.POSITIVE_INFINITY): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const cut = flat.length > max ? `${flat.slice(0, max)}…` : flat;
  return cut.replace(MARKUP, '\\$&');
}

/**
 * `text` without the marks of its Markdown headings (`## Retry policy` becomes `Retry policy`), for a
 * passage quoted as prose, where a `## ` would show as the characters it is.
 */
export function withoutHeadingMarks(text: string): string {
  const heading = /^[ \t]{0,3}#{1,6}(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/gm;
  return text.replace(heading, (_m, words: string | undefined) => words ?? '');
}
