/**
 * Spreadsheets (xlsx, xlsm, xls, ods) and delimited tables (csv, tsv) → text through SheetJS
 * (`@e965/xlsx`, the current SheetJS Community Edition republished on npm). Each sheet is a level-1
 * heading; its first non-empty row names the columns and is written once as the header line; every
 * later row is one line that names its columns ("Region: East · Q3 revenue: 4.2M", see
 * shared/sheet-rows.ts), so a chunk of rows reads on its own. Rows come in blocks of about a chunk,
 * each under a level-2 heading with its cell range (`A2:D11`), and each block is a numbered span
 * whose number is its first row, so a passage's rows are exact. Formulas read as their cached values.
 */
import * as XLSX from '@e965/xlsx';
import type { Heading, PageSpan } from '../../store/page-model';
import { ParseError, type ParsedDocument } from '../types';
import { decodeText } from './decode';
import { isCompoundFile, isZip, openZip } from './zip';
import { cellText, columnName, columnNames, CELL_SEPARATOR, rowLine } from '../../../../shared/sheet-rows';
import { say } from '../../../../shared/said';

/** What a spreadsheet contributes to a ParsedDocument. */
export type ParsedSheet = Pick<ParsedDocument, 'text' | 'headings' | 'pages' | 'metadata' | 'encoding'>;

/** Widest sheet Sift reads, in columns. Default 1,000: a wider one is listed as failed (its rows would be huge). */
export const MAX_COLUMNS = 1000;

/** Most characters of text one spreadsheet may become. Default 64 M (about 130 MB in memory). */
export const MAX_SHEET_CHARS = 64 * 1024 * 1024;

/** Characters of rows in one block: under a chunk (500), so a block is one chunk at the default settings. */
const BLOCK_CHARS = 400;

const SPREADSHEET = say('what.spreadsheet');

/** One non-empty row: its 1-based spreadsheet row number and its cells' texts from the first column used. */
interface Row {
  number: number;
  cells: string[];
}

/**
 * Parse a spreadsheet or delimited table. `ext` is the file's lower-case extension. Throws ParseError:
 * `unreadable` when password-protected, `corrupt` when SheetJS cannot read it, `too_wide` for a sheet
 * over {@link MAX_COLUMNS} columns or a workbook over {@link MAX_SHEET_CHARS}, `empty` with no cell text.
 */
export async function parseSheet(bytes: Uint8Array, ext: string): Promise<ParsedSheet> {
  const { workbook, encoding } = await readWorkbook(bytes, ext);
  const single = ext === 'csv' || ext === 'tsv';
  const out = new SheetWriter();
  for (const name of workbook.SheetNames) {
    const sheet = workbook.Sheets[name];
    if (sheet) out.sheet(single ? null : name, rowsOf(sheet, name));
  }
  if (out.text.trim() === '') throw new ParseError('empty', say('file.sheetNoText').text);
  return { text: out.text, headings: out.headings, pages: out.pages, metadata: single ? {} : { sheets: workbook.SheetNames }, encoding };
}

async function readWorkbook(bytes: Uint8Array, ext: string): Promise<{ workbook: XLSX.WorkBook; encoding: string | null }> {
  const options: XLSX.ParsingOptions = { dense: true, cellFormula: false, cellHTML: false, cellStyles: false, bookVBA: false };
  if (ext === 'csv' || ext === 'tsv') {
    const { text, encoding } = decodeText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    // raw: a CSV's cells stay the text they are ("1/2" is not a date, "007" keeps its zeros).
    return { workbook: guard(() => XLSX.read(text, { ...options, type: 'string', raw: true })), encoding };
  }
  if (ext !== 'xls' && !isZip(bytes) && !isCompoundFile(bytes)) throw new ParseError('corrupt', say('file.notZip', { what: SPREADSHEET }).text);
  if (isZip(bytes)) await openZip(bytes, SPREADSHEET); // refuses a zip that would inflate past the bound
  return { workbook: guard(() => XLSX.read(bytes, { ...options, type: 'buffer' })), encoding: null };
}

function guard(read: () => XLSX.WorkBook): XLSX.WorkBook {
  try {
    return read();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (/password|encrypt/i.test(message)) throw new ParseError('unreadable', say('file.encrypted', { what: SPREADSHEET }).text);
    throw new ParseError('corrupt', say('file.sheetUnreadable', { detail: message }).text);
  }
}

/** A cell's text as the spreadsheet shows it: the formatted (cached) value, never the formula. */
function cellString(cell: XLSX.CellObject | undefined): string {
  if (!cell || cell.t === 'z' || cell.v === undefined || cell.v === null) return '';
  if (cell.w !== undefined) return cell.w;
  return cell.t === 'd' && cell.v instanceof Date ? cell.v.toISOString().slice(0, 10) : String(cell.v);
}

/** The non-empty rows of a sheet, cells from column A (dense mode: `!data[r][c]`). */
function rowsOf(sheet: XLSX.WorkSheet, name: string): Row[] {
  const data = (sheet as XLSX.DenseWorkSheet)['!data'] ?? [];
  const rows: Row[] = [];
  let width = 0;
  for (let r = 0; r < data.length; r++) {
    const line = data[r];
    if (!line) continue;
    const cells: string[] = [];
    let last = -1;
    for (let c = 0; c < line.length; c++) {
      const text = cellString(line[c]);
      cells.push(text);
      if (cellText(text)) last = c;
    }
    if (last < 0) continue;
    width = Math.max(width, last + 1);
    if (width > MAX_COLUMNS) {
      throw new ParseError('too_wide', say('file.sheetTooWide', { sheet: name, columns: line.length, cap: MAX_COLUMNS }).text);
    }
    rows.push({ number: r + 1, cells: cells.slice(0, last + 1) });
  }
  return rows;
}

/** Writes sheets into one text, recording the headings and row-run spans as it goes. */
class SheetWriter {
  private readonly parts: string[] = [];
  private length = 0;
  readonly headings: Heading[] = [];
  readonly pages: PageSpan[] = [];

  get text(): string {
    return this.parts.join('');
  }

  /** One sheet: its name as a heading (null for a csv), the header line, then the blocks of rows. */
  sheet(name: string | null, rows: Row[]): void {
    const [header, ...body] = rows;
    if (!header) return;
    if (name !== null) this.heading(1, name);
    const names = columnNames(header.cells);
    this.paragraph(names.join(CELL_SEPARATOR));
    const lines = body.map((row) => ({ number: row.number, width: row.cells.length, line: rowLine(names, row.cells) }));
    for (const block of blocksOf(lines)) {
      const first = block[0]!;
      const last = block[block.length - 1]!;
      const lastColumn = Math.max(...block.map((row) => row.width)) - 1;
      this.heading(2, `A${first.number}:${columnName(Math.max(0, lastColumn))}${last.number}`);
      const start = this.paragraph(block.map((row) => row.line).join('\n'));
      this.pages.push({ start, end: this.length, page: first.number });
    }
  }

  private heading(level: number, raw: string): void {
    const text = cellText(raw) || '–';
    const start = this.paragraph(text);
    this.headings.push({ start, end: start + text.length, level, text });
  }

  /** `text` as a paragraph of its own; returns where it starts. */
  private paragraph(text: string): number {
    if (this.length > 0) this.write('\n\n');
    const start = this.length;
    this.write(text);
    return start;
  }

  private write(s: string): void {
    if (this.length + s.length > MAX_SHEET_CHARS) {
      throw new ParseError('too_wide', say('file.sheetTooLong', { cap: MAX_SHEET_CHARS }).text);
    }
    this.parts.push(s);
    this.length += s.length;
  }
}

/** A row as written: its number, how many columns it spans, its line. */
interface RowLine {
  number: number;
  width: number;
  line: string;
}

/** Consecutive rows in blocks of about {@link BLOCK_CHARS} characters; a gap of empty rows starts a new block. */
function blocksOf(rows: RowLine[]): RowLine[][] {
  const blocks: RowLine[][] = [];
  let block: RowLine[] = [];
  let chars = 0;
  for (const row of rows) {
    const previous = block[block.length - 1];
    if (previous && (previous.number + 1 !== row.number || chars + row.line.length + 1 > BLOCK_CHARS)) {
      blocks.push(block);
      block = [];
      chars = 0;
    }
    block.push(row);
    chars += row.line.length + 1;
  }
  if (block.length > 0) blocks.push(block);
  return blocks;
}
