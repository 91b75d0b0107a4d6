/**
 * Explicit page references in a chat message: `[[wiki/notes/gateway.md]]` names a page the person wants
 * read first, whatever search would rank. Pure (used by the renderer and the core).
 */

/** The references of a message and what is left to search with. */
export interface WikiRefs {
  /** Accepted page paths (`wiki/…`), in the order written, each once. */
  refs: string[];
  /** `[[…]]` that could not be a page path, each once, with why (for the person, not for logs). */
  rejected: { raw: string; reason: string }[];
  /** The message with accepted references removed, spaces around them collapsed, trimmed. */
  text: string;
}

const REFERENCE = /\[\[([^[\]\n]*)\]\]/g;

/** Why `path` cannot name a page, or null when it can. Checked in this order, so each path gets one reason. */
function rejection(path: string): string | null {
  if (path === '') return 'the path is empty';
  if (path.includes('\0')) return 'the path contains a NUL character';
  if (path.includes('\\')) return 'the path contains a backslash; separate folders with /';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return 'the path is absolute; write it from the knowledge base, starting with wiki/';
  const segments = path.split('/');
  if (segments.includes('..')) return "the path contains a '..' segment";
  if (!path.startsWith('wiki/')) return 'the path must start with wiki/';
  if (segments.slice(1).join('') === '') return 'the path names no page after wiki/';
  if (segments.some((s) => s === '' || s === '.')) return "the path has an empty or '.' segment";
  return null;
}

/**
 * Parses `[[wiki/…]]` references. A label after `|` is ignored (`[[wiki/a.md|Gateway]]` is `wiki/a.md`)
 * and whitespace around the path is trimmed. Accepted paths keep their order and appear once. A `[[…]]`
 * whose path is empty, contains NUL or a backslash, is absolute, has a `..` (or `.` or empty) segment, or
 * does not start with `wiki/` is listed in `rejected` with a reason and left in `text`, so the words a
 * person wrote are still searched. Nothing here checks that the page exists.
 */
export function parseWikiRefs(text: string): WikiRefs {
  // Linear in the length of `text`: sets for "seen", and the kept text trimmed by index, not by regex on
  // a growing string (a 200k-character message with thousands of references must not stall a host).
  const refs: string[] = [];
  const rejected: WikiRefs['rejected'] = [];
  const seenRefs = new Set<string>();
  const seenRejected = new Set<string>();
  let rest = '';
  let last = '';
  let from = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const path = match[1]!.split('|')[0]!.trim();
    const reason = rejection(path);
    if (reason) {
      if (!seenRejected.has(match[0])) rejected.push({ raw: match[0], reason });
      seenRejected.add(match[0]);
      continue;
    }
    if (!seenRefs.has(path)) refs.push(path);
    seenRefs.add(path);
    // Drop the reference and the spaces around it, leaving one space between the words it separated.
    let end = match.index;
    while (end > from && isBlank(text[end - 1]!)) end--;
    if (end > from) {
      rest += text.slice(from, end);
      last = text[end - 1]!;
    }
    if (rest !== '' && !/\s/.test(last)) {
      rest += ' ';
      last = ' ';
    }
    from = match.index + match[0].length;
    while (from < text.length && isBlank(text[from]!)) from++;
  }
  rest += text.slice(from);
  return { refs, rejected, text: rest.trim() };
}

/** The blanks a reference takes with it: spaces, tabs and the ideographic space (not newlines). */
function isBlank(char: string): boolean {
  return char === ' ' || char === '\t' || char === '\u3000';
}
