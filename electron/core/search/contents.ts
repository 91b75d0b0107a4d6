/**
 * Tables of contents and back-of-book indexes: lists of names that point elsewhere ("asn1_read_value
 * . . . . 16", "- [Installation](#installation)"). Such a passage names every function or section the
 * document has, in few words, so keyword search ranks it above the page that explains the thing; quoted,
 * it answers nothing. Search puts such passages after the others (it still returns them when they are
 * all that matches).
 */

/** A contents entry: a name, a dot leader and a page number; or a list item that is one in-page link. */
const ENTRY = [/(?:\.\s?){4,}\s*\d+\s*$/, /^\s*(?:[-*+]|\d+[.)])\s+\[[^\]]+\]\(#[^)]*\)\s*$/];

/** Lines of contents entries a passage needs, and their least share of its non-blank lines. */
const MIN_ENTRIES = 3;
const MIN_SHARE = 0.6;

/** Whether `text` is mostly a table of contents or an index (see the module comment). */
export function isContentsLike(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const entries = lines.filter((line) => ENTRY.some((re) => re.test(line))).length;
  return entries >= MIN_ENTRIES && entries >= MIN_SHARE * lines.length;
}

/** `passages` with the contents-like ones moved after the rest, each group in its own order. */
export function contentsLast<T extends { text: string }>(passages: T[]): T[] {
  const contents = passages.filter((p) => isContentsLike(p.text));
  return contents.length === 0 ? passages : [...passages.filter((p) => !contents.includes(p)), ...contents];
}
