import { describe, expect, it } from 'vitest';
import { cellsOfRow, columnName, columnNames, rowLine } from './sheet-rows';

describe('sheet rows', () => {
  it.each([[0, 'A'], [25, 'Z'], [26, 'AA'], [701, 'ZZ'], [702, 'AAA'], [9999, 'NTP']])('column %i is %s', (i, name) => {
    expect(columnName(i)).toBe(name);
  });

  it('names each value by its column and leaves empty cells out', () => {
    const names = columnNames(['Region', 'Q3 revenue', '', '备注']);
    expect(names).toEqual(['Region', 'Q3 revenue', 'C', '备注']);
    expect(rowLine(names, ['East', '4.2M', '', '华东\n大区'])).toBe('Region: East · Q3 revenue: 4.2M · 备注: 华东 大区');
  });

  it.each([
    [['East', '4.2M', 'x', 'y'], 'every cell'],
    [['', '4.2M', '', 'y'], 'gaps'],
    [['A · B', 'Q3 revenue', '', ''], 'a value holding the separator'],
    [['', '', '', ''], 'nothing'],
  ])('reads back what it wrote: %j (%s)', (cells) => {
    const names = ['Region', 'Q3 revenue', 'Note', '备注'];
    expect(cellsOfRow(names, rowLine(names, cells))).toEqual(cells);
  });
});
