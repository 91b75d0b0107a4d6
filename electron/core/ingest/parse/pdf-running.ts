/**
 * The lines a PDF prints on every page, above or below its text: the document's or chapter's name and the page
 * number ("Shared MIME-info Database" … "7"; "Chapter 4: Function reference 13"). Kept, they open passages that
 * cross a page ("Shared MIME-info Database 2.10. Storing the MIME type…"), join sentences a page break cut with
 * words of their own, and make every such passage match the document's name. So they are left out of the text,
 * as a reader skips them.
 *
 * A page's first and last line is such a line when, across the document's pages with a text layer:
 * - the same line (digits aside) stands at that edge of at least RUNNING_PAGES pages and RUNNING_SHARE of them; or
 * - it carries the printed page number at its start or end: a number that is the page's place in the file less
 *   the same offset on at least RUNNING_PAGES pages and RUNNING_SHARE of them (front matter shifts the
 *   numbering: libtasn1's page 13 prints 10), alone or with words another of those pages' lines has too.
 * Each edge is looked at twice, so a header of two lines (a name, then a chapter) goes too: the second time by
 * the first rule alone (a chapter's number under a page number it replaced must not pass for one). A document of
 * fewer pages than RUNNING_PAGES keeps every line; the first page keeps its first line (the document's title,
 * which a running head repeats). Pages read by OCR are left as they were read.
 */

/** Pages a line must repeat on (at one edge) to be a running line. */
export const RUNNING_PAGES = 3;
/** Share of the document's pages with a text layer it must repeat on, too. */
export const RUNNING_SHARE = 0.3;

/** A page number at a line's start or end: `7`, `- 7 -`, `Page 7`, `Chapter 4: Function reference 13`. */
const NUMBER_AT_END = /(?:^|[^\d.])(\d{1,4})[\s\-–—]*$/;
/** A number at the start is a page's only before a space or the end, not a section's or an item's (`2.1`, `3.`). */
const NUMBER_AT_START = /^[\s\-–—]*(\d{1,4})(?:\s|$)/;
/** A running line is short; a longer one is text. */
const MAX_RUNNING = 100;

type Edge = 'first' | 'last';

/**
 * The page texts without their running lines. `texts[i]` is the text of page i + 1, or null for a page that is
 * not the text layer's (OCR): it is neither judged nor changed, and counts for no page.
 */
export function withoutRunningLines(texts: (string | null)[]): (string | null)[] {
  let pages = texts.map((t) => (t === null ? null : t.split('\n')));
  const changed = new Set<number>();
  for (let pass = 0; pass < 2; pass++) {
    const running = new Set<string>(); // `${page}:${edge}`
    for (const edge of ['first', 'last'] as const) {
      for (const page of runningAt(pages, edge, pass === 0)) running.add(`${page}:${edge}`);
    }
    if (running.size === 0) break;
    pages = pages.map((lines, i) => {
      if (!lines) return lines;
      const drop = new Set<number>();
      for (const edge of ['first', 'last'] as const) {
        const at = edgeLine(lines, edge);
        // The first page opens with the document's title, which the running head repeats: it stays.
        if (at !== null && running.has(`${i}:${edge}`) && !(i === 0 && edge === 'first')) drop.add(at);
      }
      if (drop.size === 0) return lines;
      changed.add(i);
      return lines.filter((_, k) => !drop.has(k));
    });
  }
  return pages.map((lines, i) => (lines !== null && changed.has(i) ? trimBlankLines(lines) : texts[i]!));
}

/** The pages (indexes) whose line at `edge` is a running line (see the module comment); by page `numbers` too. */
function runningAt(pages: (string[] | null)[], edge: Edge, numbers: boolean): number[] {
  const edges = pages.flatMap((lines, i) => {
    const at = lines ? edgeLine(lines, edge) : null;
    return at === null ? [] : [{ page: i, line: lines![at]!.trim() }];
  });
  if (edges.length < RUNNING_PAGES) return [];
  const needed = Math.max(RUNNING_PAGES, Math.ceil(edges.length * RUNNING_SHARE));
  const judged = edges.filter((e) => e.line.length <= MAX_RUNNING);
  const out = new Set<number>();
  const same = new Map<string, number[]>();
  for (const { page, line } of judged) {
    const key = line.replace(/\s+/g, ' ').toLowerCase().replace(/\d+/g, '#');
    same.set(key, [...(same.get(key) ?? []), page]);
  }
  for (const list of same.values()) if (list.length >= needed) list.forEach((p) => out.add(p));
  if (!numbers) return [...out];
  // Printed page numbers: the offset between a page's place and the number it prints, shared by enough pages
  // whose line is the number alone or says what another of them says ("Chapter 4: Function reference"); numbered
  // titles that happen to follow the pages ("1 Introduction", "2 Goals" on slides 1 and 2) say each their own.
  const byOffset = new Map<number, { page: number; rest: string }[]>();
  for (const { page, line } of judged) {
    for (const pattern of [NUMBER_AT_END, NUMBER_AT_START]) {
      const m = pattern.exec(line);
      if (!m) continue;
      const offset = page + 1 - Number(m[1]);
      const rest = (line.slice(0, m.index) + line.slice(m.index + m[0].length)).replace(/[\s\-–—]+/g, ' ').trim().toLowerCase();
      byOffset.set(offset, [...(byOffset.get(offset) ?? []), { page, rest }]);
    }
  }
  for (const list of byOffset.values()) {
    const says = new Map<string, number>();
    for (const { rest } of list) says.set(rest, (says.get(rest) ?? 0) + 1);
    const confirmed = new Set(list.filter(({ rest }) => rest === '' || says.get(rest)! >= 2).map((e) => e.page));
    if (confirmed.size >= needed) confirmed.forEach((p) => out.add(p));
  }
  return [...out];
}

/** The index of the first or last line holding anything but whitespace; null on a page of fewer than two such. */
function edgeLine(lines: string[], edge: Edge): number | null {
  const filled = lines.flatMap((l, k) => (l.trim() === '' ? [] : [k]));
  if (filled.length < 2) return null;
  return edge === 'first' ? filled[0]! : filled[filled.length - 1]!;
}

function trimBlankLines(lines: string[]): string {
  return lines.join('\n').replace(/^\s*\n/, '').replace(/\s+$/, '');
}
