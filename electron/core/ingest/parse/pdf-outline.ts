/**
 * A PDF's outline (its bookmarks) as the page's headings. Manuals and papers made by LaTeX, Texinfo, DocBook
 * or a word processor carry one: libtasn1's manual lists "2 ASN.1 structure handling" → "2.3 Simple parsing"
 * → …, each pointing at its page. Without it a PDF was cut into windows that ignored its sections, and no
 * passage said which part of the document it came from.
 *
 * The outline gives each title and its page, not where on the page it stands, so a title becomes a heading
 * only where the page's text holds it (or the next page's: a destination may point just above the title,
 * at the foot of the page before). Titles are looked for in the outline's order, each after the one before,
 * so the headings run through the text in order; a title that is not found is left out, not guessed.
 */
import type { Heading, PageSpan } from '../../store/page-model';
import type { PdfDocument } from './pdf-render';

/** Outline entries read at most (a generated index can bookmark every term). */
export const MAX_OUTLINE_ENTRIES = 2_000;
/** A title longer than this is a sentence bookmarked, not a section's title. */
const MAX_TITLE = 200;
/** A section's number before its title on the page (`2.3`, `A.1.`, `IV.`), which the outline may leave out. */
const NUMBER_BEFORE = /^[ \t]*(?:(?:\d{1,3}|[A-Z])(?:\.\d{1,3})*\.?|[IVXLC]{1,6}\.)?[ \t]*$/;

interface OutlineNode {
  title: string;
  dest: string | unknown[] | null;
  items?: OutlineNode[];
}

/** The outline's titles as headings of `text` (the PDF's pages joined, `pages` their spans); [] without one. */
export async function outlineHeadings(doc: PdfDocument, text: string, pages: PageSpan[]): Promise<Heading[]> {
  let outline: OutlineNode[] | null;
  try {
    outline = (await doc.getOutline()) as OutlineNode[] | null;
  } catch {
    return []; // a broken outline does not make the text unreadable
  }
  const entries: { title: string; level: number; dest: OutlineNode['dest'] }[] = [];
  const walk = (nodes: OutlineNode[], level: number) => {
    for (const node of nodes) {
      if (entries.length >= MAX_OUTLINE_ENTRIES) return;
      entries.push({ title: String(node.title ?? '').replace(/\s+/g, ' ').trim(), level: Math.min(level, 6), dest: node.dest });
      if (node.items?.length) walk(node.items, level + 1);
    }
  };
  walk(outline ?? [], 1);
  const spans = new Map(pages.map((p) => [p.page, p]));
  const headings: Heading[] = [];
  let after = 0;
  for (const entry of entries) {
    if (entry.title === '' || entry.title.length > MAX_TITLE || !/\p{L}/u.test(entry.title)) continue;
    const page = await destinationPage(doc, entry.dest);
    if (page === null) continue;
    for (const span of [spans.get(page), spans.get(page + 1)]) {
      const found = span ? findTitle(text, entry.title, Math.max(span.start, after), span.end) : null;
      if (!found) continue;
      headings.push({ ...found, level: entry.level, text: entry.title });
      after = found.end;
      break;
    }
  }
  return headings;
}

/** The 1-based page an outline entry points at; null when it points nowhere this document has. */
async function destinationPage(doc: PdfDocument, dest: OutlineNode['dest']): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await doc.getDestination(dest) : dest;
    const target = Array.isArray(explicit) ? explicit[0] : null;
    if (Number.isInteger(target)) return (target as number) + 1;
    if (target && typeof target === 'object') return (await doc.getPageIndex(target as { num: number; gen: number })) + 1;
  } catch {
    // a destination to a page that is not there
  }
  return null;
}

/**
 * Where `title` stands in `text[from, to)`: its words in order with any whitespace between them, case aside.
 * The heading spans its line when the line holds nothing else but the section's number before it (the
 * outline often leaves the number out: "Simple parsing" is "2.3 Simple parsing" on the page), else it starts at
 * the title.
 */
export function findTitle(text: string, title: string, from: number, to: number): { start: number; end: number } | null {
  const words = title.split(' ').map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  const m = new RegExp(words.join('\\s+'), 'iu').exec(text.slice(from, to));
  if (!m) return null;
  let start = from + m.index;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (lineStart >= from && NUMBER_BEFORE.test(text.slice(lineStart, start))) start = lineStart;
  return { start, end: from + m.index + m[0].length };
}
