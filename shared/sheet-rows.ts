/**
 * How a spreadsheet row is written into a page's text, and read back for the table view. Every row
 * names its columns ("Region: East · Q3 revenue: 4.2M"), so any chunk of rows reads on its own and a
 * search for a column name finds its values; the core writes rows with {@link rowLine}, the page view
 * reads them with {@link cellsOfRow}. Empty cells are left out of a row's line.
 */

/** What stands between two cells of a row's line, and between the names of the header line. */
export const CELL_SEPARATOR = ' · ';

/** The spreadsheet name of 0-based column `index`: A … Z, AA … (as in `A2:D11`). */
export function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** A cell's text on one line: line breaks and runs of whitespace inside a cell become one space. */
export function cellText(raw: string): string {
  return raw.replace(/\s+/g, ' ').trim();
}

/** The column names from a header row: a blank header is named by its column letter. */
export function columnNames(header: readonly string[]): string[] {
  return header.map((h, i) => cellText(h).replaceAll(CELL_SEPARATOR, ' - ') || columnName(i));
}

/** The line of one row: `Name: value` for each non-empty cell, joined by {@link CELL_SEPARATOR}. */
export function rowLine(names: readonly string[], cells: readonly string[]): string {
  const parts: string[] = [];
  cells.forEach((raw, i) => {
    const value = cellText(raw);
    if (value) parts.push(`${names[i] ?? columnName(i)}: ${value}`);
  });
  return parts.join(CELL_SEPARATOR);
}

/**
 * The cells of a row's line, one per column name (empty where the row left the cell out): the inverse
 * of {@link rowLine}. A value is read up to the next ` · Name: ` of a later column, so a value may hold
 * the separator itself unless it is followed there by a later column's name.
 */
export function cellsOfRow(names: readonly string[], line: string): string[] {
  const cells = names.map(() => '');
  let pos = 0;
  let column = 0;
  while (pos < line.length && column < names.length) {
    const at = names.findIndex((n, i) => i >= column && line.startsWith(`${n}: `, pos));
    if (at < 0) break;
    const valueStart = pos + names[at]!.length + 2;
    let next = line.length;
    let nextColumn = names.length;
    for (let j = at + 1; j < names.length; j++) {
      const found = line.indexOf(`${CELL_SEPARATOR}${names[j]}: `, valueStart);
      if (found >= 0 && found < next) [next, nextColumn] = [found, j];
    }
    cells[at] = line.slice(valueStart, next);
    pos = next + CELL_SEPARATOR.length;
    column = Math.min(at + 1, nextColumn);
  }
  return cells;
}
