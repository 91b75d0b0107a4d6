/**
 * Reading a spreadsheet page's text back into tables. The texts are written here in the core's layout
 * (sheet heading, header line, level-2 range headings over blocks of row lines, see parse/sheet.ts) with
 * the same shared row functions the core uses, so the offsets are real ones.
 */
import { describe, expect, it } from 'vitest';
import { CELL_SEPARATOR, columnNames, rowLine } from '../../../shared/sheet-rows';
import { citedRange, citesHeaderOnly, initialWindow, rowCells, rowsInSpan, sheetTables } from './sheet-table';

type Heading = { start: number; end: number; level: number; text: string };
type Run = { start: number; end: number; page: number };

/** A page written as the core writes it: sheets of (header, blocks of [first row number, rows]). */
function page(sheets: { name: string | null; header: string[]; blocks: [number, string[][]][] }[]) {
  let text = '';
  const headings: Heading[] = [];
  const runs: Run[] = [];
  const paragraph = (s: string) => {
    if (text) text += '\n\n';
    const start = text.length;
    text += s;
    return start;
  };
  const heading = (level: number, s: string) => {
    const start = paragraph(s);
    headings.push({ start, end: start + s.length, level, text: s });
  };
  for (const sheet of sheets) {
    if (sheet.name !== null) heading(1, sheet.name);
    const names = columnNames(sheet.header);
    paragraph(names.join(CELL_SEPARATOR));
    for (const [first, rows] of sheet.blocks) {
      const width = Math.max(...rows.map((r) => r.length));
      heading(2, `A${first}:${String.fromCharCode(64 + width)}${first + rows.length - 1}`);
      const start = paragraph(rows.map((r) => rowLine(names, r)).join('\n'));
      runs.push({ start, end: text.length, page: first });
    }
  }
  return { text, headings, runs };
}

describe('sheetTables', () => {
  const p = page([
    {
      name: '销售',
      header: ['Region', 'Q3 revenue', '备注'],
      blocks: [
        [2, [['East', '4.2M', '华东'], ['West', '3.1M', '']]],
        [5, [['Total', '99', '合计']]],
      ],
    },
    { name: 'Notes', header: ['Topic'], blocks: [[2, [['Kickoff 启动'], ['Review']]]] },
  ]);

  it('finds each sheet with its name, header and rows numbered as the spreadsheet numbers them', () => {
    const tables = sheetTables(p.text, p.headings, p.runs);
    expect(tables.map((t) => t.name)).toEqual(['销售', 'Notes']);
    expect(tables[0]!.columns).toEqual(['Region', 'Q3 revenue', '备注']);
    expect(tables[0]!.rows.map((r) => r.number)).toEqual([2, 3, 5]);
    expect(tables[1]!.rows.map((r) => r.number)).toEqual([2, 3]);
    const [sales, notes] = tables;
    expect(sales!.rows.map((r) => rowCells(p.text, sales!, r))).toEqual([
      ['East', '4.2M', '华东'],
      ['West', '3.1M', ''],
      ['Total', '99', '合计'],
    ]);
    expect(rowCells(p.text, notes!, notes!.rows[0]!)).toEqual(['Kickoff 启动']);
    // Every row's offsets are its own line in the text.
    for (const t of tables) for (const r of t.rows) expect(p.text.slice(r.start, r.end)).not.toContain('\n');
  });

  it('maps a cited span to the rows it touches, and back to spreadsheet row numbers', () => {
    const [sales] = sheetTables(p.text, p.headings, p.runs);
    const west = sales!.rows[1]!;
    // From inside row 2 to the middle of row 3: both rows.
    const cited = rowsInSpan(sales!, { start: sales!.rows[0]!.start + 3, end: west.start + 2 });
    expect(cited).toEqual([0, 1]);
    expect(citedRange(sales!, cited)).toEqual([2, 3]);
    // A span over the whole block, its range heading included: the block's rows only.
    expect(rowsInSpan(sales!, p.runs[0]!)).toEqual([0, 1]);
    const range = p.headings.find((h) => h.text === 'A5:C5')!;
    expect(rowsInSpan(sales!, { start: range.start, end: p.runs[1]!.end })).toEqual([2]);
    // Ending right where a row starts does not touch it; an empty span touches nothing.
    expect(rowsInSpan(sales!, { start: 0, end: west.start })).toEqual([0]);
    expect(rowsInSpan(sales!, { start: west.start, end: west.start })).toEqual([]);
    expect(rowsInSpan(sales!, null)).toEqual([]);
  });

  it('knows a span of only a sheet’s name and column names cites its header', () => {
    const [sales, notes] = sheetTables(p.text, p.headings, p.runs);
    expect(p.text.slice(notes!.header.start, notes!.header.end)).toBe('Topic');
    expect(citesHeaderOnly(notes!, { start: notes!.start, end: notes!.header.end })).toBe(true);
    expect(citesHeaderOnly(sales!, { start: notes!.start, end: notes!.header.end })).toBe(false);
    expect(citesHeaderOnly(notes!, { start: notes!.start, end: notes!.rows[0]!.end })).toBe(false);
    expect(citesHeaderOnly(notes!, null)).toBe(false);
  });

  it('reads a csv (no sheet heading) and rows wider than the header get column letters', () => {
    const csv = page([{ name: null, header: ['名称', 'Qty'], blocks: [[2, [['苹果', '3'], ['梨', '5', 'extra']]]] }]);
    const [table, ...rest] = sheetTables(csv.text, csv.headings, csv.runs);
    expect(rest).toEqual([]);
    expect(table!.name).toBeNull();
    expect(table!.columns).toEqual(['名称', 'Qty', 'C']);
    expect(table!.rows.map((r) => rowCells(csv.text, table!, r))).toEqual([
      ['苹果', '3', ''],
      ['梨', '5', 'extra'],
    ]);
  });

  it('a sheet of only a header has columns and no rows', () => {
    const only = page([{ name: 'Empty', header: ['A name', 'B name'], blocks: [] }, { name: 'Next', header: ['X'], blocks: [[2, [['1']]]] }]);
    const [empty, next] = sheetTables(only.text, only.headings, only.runs);
    expect(empty!.columns).toEqual(['A name', 'B name']);
    expect(empty!.rows).toEqual([]);
    expect(next!.rows.map((r) => r.number)).toEqual([2]);
  });

  it('splits a 10,000-row sheet into rows and finds a cited one deep inside', () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => [`R${i + 2}`, String(i)]);
    const big = page([{ name: 'Big', header: ['Key', 'Value'], blocks: [[2, rows]] }]);
    const [table] = sheetTables(big.text, big.headings, big.runs);
    expect(table!.rows).toHaveLength(10_000);
    const target = table!.rows[8_000]!;
    const cited = rowsInSpan(table!, { start: target.start, end: target.end });
    expect(cited).toEqual([8_000]);
    expect(table!.rows[8_000]!.number).toBe(8_002);
    expect(rowCells(big.text, table!, target)).toEqual(['R8002', '8000']);
  });
});

describe('initialWindow', () => {
  it('starts at the top without a citation, and stays within the rows there are', () => {
    expect(initialWindow(10_000, [])).toEqual({ from: 0, to: 200 });
    expect(initialWindow(12, [])).toEqual({ from: 0, to: 12 });
  });

  it('shows the cited rows with context before them, all of them even past the window size', () => {
    expect(initialWindow(10_000, [8_000, 8_001])).toEqual({ from: 7_950, to: 8_150 });
    expect(initialWindow(10_000, [10])).toEqual({ from: 0, to: 200 });
    expect(initialWindow(10_000, [100, 101, 102, 103, 104, 105], 4)).toEqual({ from: 99, to: 106 });
    expect(initialWindow(9_000, [8_990])).toEqual({ from: 8_940, to: 9_000 });
  });
});
