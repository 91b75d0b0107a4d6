/**
 * Where a passage sits in its file, in English words for terminals, prompts and logs ("p. 3",
 * "slide 2", "chapter 4", "sheet Sales", "rows 2–11"). The renderer says the same in the UI's
 * language from the same Provenance fields.
 */
import type { Provenance } from './models';

function range(label: string, r: readonly [number, number]): string {
  return r[0] === r[1] ? `${label} ${r[0]}` : `${label} ${r[0]}–${r[1]}`;
}

/**
 * The numbered parts of a provenance, outermost first: PDF pages, slides, chapters, sheet and rows.
 * Empty for a page without numbered parts (the heading path and lines are said by the caller).
 */
export function numberedParts(p: Provenance): string[] {
  const parts: string[] = [];
  if (p.pdfPages) parts.push(range('p.', p.pdfPages));
  if (p.slides) parts.push(range('slide', p.slides));
  if (p.chapters) parts.push(range('chapter', p.chapters));
  if (p.sheet) parts.push(`sheet ${p.sheet}`);
  if (p.rows) parts.push(range(p.rows[0] === p.rows[1] ? 'row' : 'rows', p.rows));
  return parts;
}

/**
 * The heading path worth saying beside the numbered parts: a sheet's headings are its name and cell range,
 * which `sheet`/`rows` say already, so they are left out.
 */
export function headingPathToSay(p: Provenance): string[] {
  return p.rows || p.sheet ? [] : p.headingPath;
}
