/**
 * A spreadsheet page read back into tables for the page view. The core writes each sheet as a level-1
 * heading (none for a csv or tsv), one header line of column names joined by ` · `, then blocks of row
 * lines, each block a numbered span whose number is its first row's spreadsheet number, under a level-2
 * heading with its cell range (`A2:D11`). See electron/core/ingest/parse/sheet.ts and shared/sheet-rows.ts.
 * Rows keep their offsets into the page's text, so a cited span maps to the rows it touches; cells are
 * read only for the rows that are shown (a 10,000-row sheet is split into lines, never into cells at once).
 */
import { CELL_SEPARATOR, cellsOfRow, columnName } from '../../../shared/sheet-rows';

/** One row of a sheet: its spreadsheet row number and its line `[start, end)` in the page's text. */
export interface SheetRow {
  number: number;
  start: number;
  end: number;
}

/** One sheet of a spreadsheet page. */
export interface SheetTable {
  /** The sheet's name; null for a csv or tsv (one unnamed sheet). */
  name: string | null;
  /** `[start, end)` of the whole sheet in the page's text (its heading, header line and rows). */
  start: number;
  end: number;
  /** `[start, end)` of the header line. */
  header: Span;
  /** Column names from the header line, then column letters for any columns wider than the header. */
  columns: string[];
  /** The rows under the header, in order, numbered as the spreadsheet numbers them. */
  rows: SheetRow[];
}

interface Span {
  start: number;
  end: number;
}

/** A level-2 block heading's cell range, `A2:D11` → the 0-based last column (3), or -1. */
function lastColumnOf(range: string): number {
  const m = /^[A-Z]+\d+:([A-Z]+)\d+$/.exec(range);
  if (!m) return -1;
  let n = 0;
  for (const ch of m[1]!) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n - 1;
}

/**
 * The sheets of a spreadsheet page: `text` its canonical text, `headings` its headings, `runs` its
 * numbered spans (row runs, `PageDetail.pdfPages`). Runs outside every sheet are ignored.
 */
export function sheetTables(text: string, headings: readonly (Span & { level: number; text: string })[], runs: readonly (Span & { page: number })[]): SheetTable[] {
  const sheets = headings.filter((h) => h.level === 1);
  const regions: { name: string | null; start: number; end: number; headerFrom: number }[] =
    sheets.length === 0
      ? [{ name: null, start: 0, end: text.length, headerFrom: 0 }]
      : sheets.map((h, i) => ({ name: h.text, start: h.start, end: sheets[i + 1]?.start ?? text.length, headerFrom: h.end }));
  const sorted = [...runs].sort((a, b) => a.start - b.start);
  return regions.map((region) => {
    // The header line: the first non-empty line after the sheet's heading.
    let headerStart = region.headerFrom;
    while (headerStart < region.end && text[headerStart] === '\n') headerStart++;
    let headerEnd = text.indexOf('\n', headerStart);
    if (headerEnd < 0 || headerEnd > region.end) headerEnd = region.end;
    const header = text.slice(headerStart, headerEnd);
    const columns = header ? header.split(CELL_SEPARATOR) : [];
    let width = columns.length;
    for (const h of headings) {
      if (h.level === 2 && h.start >= region.start && h.start < region.end) width = Math.max(width, lastColumnOf(h.text) + 1);
    }
    for (let i = columns.length; i < width; i++) columns.push(columnName(i));
    const rows: SheetRow[] = [];
    for (const run of sorted) {
      if (run.start < headerEnd || run.start >= region.end) continue;
      let start = run.start;
      let number = run.page;
      const end = Math.min(run.end, region.end);
      while (start <= end) {
        let lineEnd = text.indexOf('\n', start);
        if (lineEnd < 0 || lineEnd > end) lineEnd = end;
        if (lineEnd > start) rows.push({ number, start, end: lineEnd });
        number++;
        start = lineEnd + 1;
      }
    }
    return { name: region.name, start: region.start, end: region.end, header: { start: headerStart, end: headerEnd }, columns, rows };
  });
}

/** The cells of `row`, one per column of `table` (empty where the row has none). */
export function rowCells(text: string, table: SheetTable, row: SheetRow): string[] {
  return cellsOfRow(table.columns, text.slice(row.start, row.end));
}

/** Indices into `table.rows` of the rows `span` touches (`[start, end)` overlaps the row's line), in order. */
export function rowsInSpan(table: SheetTable, span: Span | null): number[] {
  if (!span || span.end <= span.start) return [];
  const hit: number[] = [];
  // Rows are in text order: find the first that ends after the span starts, then walk on.
  let lo = 0;
  let hi = table.rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (table.rows[mid]!.end <= span.start) lo = mid + 1;
    else hi = mid;
  }
  for (let i = lo; i < table.rows.length && table.rows[i]!.start < span.end; i++) hit.push(i);
  return hit;
}

/**
 * Whether `span` cites the sheet's heading or header line and none of its rows (a passage of a sheet's
 * name and column names only): the header row is what to highlight then.
 */
export function citesHeaderOnly(table: SheetTable, span: Span | null): boolean {
  if (!span || span.end <= span.start) return false;
  return span.start < table.header.end && table.start < span.end && rowsInSpan(table, span).length === 0;
}

/** A window `[from, to)` of row indices to render. */
export interface RowWindow {
  from: number;
  to: number;
}

/** Rows rendered at once, and how many more a "show more" adds. */
export const WINDOW_ROWS = 200;

/**
 * The rows to render first: around the cited rows (a few rows of context before them), or the sheet's
 * first {@link WINDOW_ROWS} rows. Never more than `size` rows plus the cited ones.
 */
export function initialWindow(count: number, cited: readonly number[], size = WINDOW_ROWS): RowWindow {
  if (cited.length === 0) return { from: 0, to: Math.min(count, size) };
  const first = cited[0]!;
  const last = cited[cited.length - 1]!;
  const from = Math.max(0, first - Math.floor(size / 4));
  return { from, to: Math.min(count, Math.max(from + size, last + 1)) };
}

/** The cited rows' spreadsheet numbers as a range, e.g. `[4, 9]`, or null. */
export function citedRange(table: SheetTable, cited: readonly number[]): [number, number] | null {
  if (cited.length === 0) return null;
  return [table.rows[cited[0]!]!.number, table.rows[cited[cited.length - 1]!]!.number];
}
