/**
 * A conversation's title from its first question. The whole question is read; its `[[wiki/…]]` references (the
 * @-mentions of the composer) are left out of the title, which names what was asked, not the pages it was asked of
 * (issue #27) — a question that is only references is titled with their page names. A long question is cut at a word
 * boundary (Latin) or a character boundary (CJK), never inside a word, surrogate pair or emoji. {@link questionText}
 * (export titles, headings) still writes references as their page names.
 */

/** The page name a `[[wiki/…]]` reference stands for: its file name without the extension. */
function pageName(path: string): string {
  const file = path.replace(/\|.*$/, '').trim().split('/').pop() ?? path;
  return file.replace(/\.[A-Za-z0-9]{1,6}$/, '') || file;
}

/** A `[[wiki/…]]` reference, its path captured. */
const REF = /\[\[(wiki\/[^[\]\n]+?)\]\]/g;

/** A question as one line of text, its `[[wiki/…]]` references written as their page names. */
export function questionText(question: string): string {
  return question
    .replace(REF, (_m, path: string) => pageName(path))
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
  const asked = question.replace(REF, ' ').replace(/\s+/g, ' ').replace(/^[\s,.;:，。；：、]+/u, '').trim();
  const text = /[\p{L}\p{N}]/u.test(asked) ? asked : questionText(question);
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
