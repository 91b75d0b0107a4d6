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
  const refs: string[] = [];
  const rejected: WikiRefs['rejected'] = [];
  let rest = '';
  let from = 0;
  for (const match of text.matchAll(REFERENCE)) {
    const path = match[1]!.split('|')[0]!.trim();
    const reason = rejection(path);
    if (reason) {
      if (!rejected.some((r) => r.raw === match[0])) rejected.push({ raw: match[0], reason });
      continue;
    }
    if (!refs.includes(path)) refs.push(path);
    // Drop the reference and the spaces around it, leaving one space between the words it separated.
    rest += text.slice(from, match.index).replace(/[ \t\u3000]+$/, '');
    if (rest !== '' && !/\s$/.test(rest)) rest += ' ';
    from = match.index + match[0].length;
    while (/[ \t\u3000]/.test(text[from] ?? '')) from++;
  }
  rest += text.slice(from);
  return { refs, rejected, text: rest.trim() };
}
