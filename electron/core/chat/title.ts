/**
 * A conversation's title from its first question. The whole question is read, `[[wiki/…]]`
 * references become the names of their pages (so "[[wiki/网关.md]]里说的阈值是多少？" is titled
 * "网关里说的阈值是多少？", never the fragment after the reference), and a long question is cut at
 * a word boundary (Latin) or a character boundary (CJK), never inside a word, surrogate pair or emoji.
 */

/** The page name a `[[wiki/…]]` reference stands for: its file name without the extension. */
function pageName(path: string): string {
  const file = path.replace(/\|.*$/, '').trim().split('/').pop() ?? path;
  return file.replace(/\.[A-Za-z0-9]{1,6}$/, '') || file;
}

/** A question as one line of text, its `[[wiki/…]]` references written as their page names. */
export function questionText(question: string): string {
  return question
    .replace(/\[\[(wiki\/[^[\]\n]+?)\]\]/g, (_m, path: string) => pageName(path))
    .replace(/\s+/g, ' ')
    .trim();
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'word' });

/**
 * The title for a conversation whose first question is `question`: the question as one line, cut to
 * at most `max` characters (default 60, sensible 20–120) with "…" at the last word boundary before
 * the limit, or "New conversation" for a question with no text at all.
 */
export function conversationTitle(question: string, max = 60): string {
  const text = questionText(question);
  if (!text) return 'New conversation';
  if ([...text].length <= max) return text;
  let cut = '';
  for (const { segment } of segmenter.segment(text)) {
    if ([...cut].length + [...segment].length > max - 1) break;
    cut += segment;
  }
  // A word far longer than what is left (a URL, an identifier) is cut by characters instead.
  if ([...cut].length < max / 2) cut = [...text].slice(0, max - 1).join('');
  return `${cut.replace(/[\s,.;:，。；：、]+$/u, '')}…`;
}
