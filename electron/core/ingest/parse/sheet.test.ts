/**
 * Spreadsheets through the real SheetJS: every workbook is written by the library in the test (xlsx, ods,
 * xls) and read back by the parser; encrypted, damaged and 10,000-column files are built the same way.
 */
import * as XLSX from '@e965/xlsx';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { cellsOfRow, CELL_SEPARATOR } from '../../../../shared/sheet-rows';
import { failureOf } from './fixtures';
import { parseFile } from './index';

/** A workbook of `sheets` (name → rows of cells; a cell object passes through as SheetJS's own). */
function workbook(sheets: Record<string, unknown[][]>): XLSX.WorkBook {
  const wb = XLSX.utils.book_new();
  for (const [name, rows] of Object.entries(sheets)) XLSX.utils.book_append_sheet(wb, XLSX.utils.aoa_to_sheet(rows), name);
  return wb;
}

function write(wb: XLSX.WorkBook, bookType: XLSX.BookType): Buffer {
  return XLSX.write(wb, { type: 'buffer', bookType }) as Buffer;
}

const failure = (name: string, bytes: Uint8Array) => failureOf(() => parseFile(name, Buffer.from(bytes)));

// The total's cached value is 99, not the 7.3 the formula would give now: a reader must show what the
// spreadsheet last computed and saved, never the formula or its own recomputation.
const SALES = [
  ['Region', 'Q3 revenue', '备注'],
  ['East', '4.2M', '华东'],
  ['West', '3.1M', null],
  [],
  ['Total', { t: 'n', v: 99, f: 'SUM(B2:B3)' }, '合计'],
];

describe('parseSheet', () => {
  it.each(['xlsx', 'ods', 'xls'] as const)('reads a %s: a section per sheet, rows that name their columns, cached formula values', async (ext) => {
    const bookType = ext === 'xls' ? 'biff8' : ext;
    const bytes = write(workbook({ 销售: SALES, Notes: [['Topic'], ['Kickoff 启动']] }), bookType);
    const doc = await parseFile(`季度报表.${ext}`, bytes);
    expect(doc.kind).toBe('sheet');
    expect(doc.text).toBe([
      '销售', 'Region · Q3 revenue · 备注',
      'A2:C3', 'Region: East · Q3 revenue: 4.2M · 备注: 华东\nRegion: West · Q3 revenue: 3.1M',
      'A5:C5', 'Region: Total · Q3 revenue: 99 · 备注: 合计',
      'Notes', 'Topic', 'A2:A2', 'Topic: Kickoff 启动',
    ].join('\n\n'));
    expect(doc.text).not.toContain('SUM(');
    expect(doc.headings.map((h) => [h.level, h.text, doc.text.slice(h.start, h.end)])).toEqual([
      [1, '销售', '销售'], [2, 'A2:C3', 'A2:C3'], [2, 'A5:C5', 'A5:C5'], [1, 'Notes', 'Notes'], [2, 'A2:A2', 'A2:A2'],
    ]);
    // Each row run is a span numbered by its first row, starting at its first row's line.
    expect(doc.pages!.map((p) => [p.page, doc.text.slice(p.start, p.end).split('\n')[0]])).toEqual([
      [2, 'Region: East · Q3 revenue: 4.2M · 备注: 华东'], [5, 'Region: Total · Q3 revenue: 99 · 备注: 合计'], [2, 'Topic: Kickoff 启动'],
    ]);
    expect(doc.metadata).toEqual({ sheets: ['销售', 'Notes'] });
  });

  it('keeps blocks about a chunk long, numbered by their rows, and the table readable back from the text', async () => {
    const rows: unknown[][] = [['Order', 'Customer', 'Amount']];
    for (let i = 1; i <= 300; i++) rows.push([`SO-${i}`, `客户 ${i % 17}`, i * 3]);
    const doc = await parseFile('orders.xlsx', write(workbook({ Orders: rows }), 'xlsx'));
    const runs = doc.pages!;
    expect(runs.length).toBeGreaterThan(10);
    let expected = 2;
    for (const run of runs) {
      const lines = doc.text.slice(run.start, run.end).split('\n');
      expect(run.page).toBe(expected);
      expect(run.end - run.start).toBeLessThanOrEqual(400);
      for (const [k, line] of lines.entries()) expect(cellsOfRow(['Order', 'Customer', 'Amount'], line)).toEqual(rows[run.page - 1 + k]!.map(String));
      expected += lines.length;
    }
    expect(expected).toBe(302);
    expect(doc.text.split('\n\n')[1]).toBe(['Order', 'Customer', 'Amount'].join(CELL_SEPARATOR));
  });

  it('reads csv and tsv in their encoding, cells as they are written', async () => {
    const csv = iconv.encode('产品,数量,日期\n苹果,007,1/2\n"梨, 大",3,2024-05-01\n', 'gb18030');
    const doc = await parseFile('库存.csv', csv);
    expect(doc.text).toBe('产品 · 数量 · 日期\n\nA2:C3\n\n产品: 苹果 · 数量: 007 · 日期: 1/2\n产品: 梨, 大 · 数量: 3 · 日期: 2024-05-01');
    expect(doc.encoding).toBe('gb18030');
    expect(doc.headings.map((h) => h.level)).toEqual([2]); // one unnamed sheet: no sheet heading
    const tsv = await parseFile('plan.tsv', Buffer.from('Step\tOwner\nDeploy\tAlice\n'));
    expect(tsv.text).toBe('Step · Owner\n\nA2:B2\n\nStep: Deploy · Owner: Alice');
  });

  it('lists an encrypted workbook as password-protected', async () => {
    // What Excel writes for a password: an OLE compound file holding EncryptionInfo and EncryptedPackage.
    const cfb = XLSX.CFB.utils.cfb_new();
    XLSX.CFB.utils.cfb_add(cfb, '/EncryptionInfo', Buffer.from([4, 0, 4, 0, 0x40, 0, 0, 0]));
    XLSX.CFB.utils.cfb_add(cfb, '/EncryptedPackage', Buffer.alloc(4096, 7));
    const bytes = XLSX.CFB.write(cfb, { type: 'buffer' }) as Buffer;
    expect(await failure('secret.xlsx', bytes)).toBe('unreadable: the spreadsheet is password-protected; remove the password to index it');
    expect(await failure('secret.xls', bytes)).toBe('unreadable: the spreadsheet is password-protected; remove the password to index it');
  });

  it('lists damaged files as corrupt with the reason', async () => {
    const good = write(workbook({ S: SALES }), 'xlsx');
    expect(await failure('half.xlsx', good.subarray(0, Math.floor(good.length / 2)))).toMatch(/^corrupt: the spreadsheet could not be read: /);
    expect(await failure('noise.xlsx', Buffer.from('this is not a workbook at all, just text'))).toBe(
      'corrupt: the spreadsheet is damaged: it is not the zip file its name says',
    );
    expect(await failure('empty.xlsx', write(workbook({ S: [] }), 'xlsx'))).toBe('empty: the spreadsheet has no cells with text');
  });

  it('lists a 10,000-column sheet as too wide, naming the sheet', async () => {
    const wide = [Array.from({ length: 10_000 }, (_, i) => `c${i}`), Array.from({ length: 10_000 }, (_, i) => i)];
    const bytes = write(workbook({ 宽表: wide }), 'xlsx');
    expect(await failure('wide.xlsx', bytes)).toBe('too_wide: the sheet "宽表" is 10000 columns wide; Sift reads sheets up to 1000 columns');
  });
});
