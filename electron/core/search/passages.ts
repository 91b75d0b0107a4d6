/**
 * Turning ranked chunk spans into Passages: text sliced from the page's canonical text, where it
 * came from (heading path, PDF pages, lines), a content hash anyone can recompute, and an
 * evidence id that finds the same span again — or says it changed.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import { fenceAt, fenceMapOf, type FenceMap } from '../../../shared/citations';
import { SiftError } from '../../../shared/errors';
import type { Passage, Provenance } from '../../../shared/models';
import { LOW_OCR_CONFIDENCE, type Heading, type PageSpan } from '../store/page-model';
import { cached, contentState } from '../store/statements';
import { hasWords, headingPathAt } from '../text/chunk';
import { focusOf } from './focus';
import type { FusedHit } from './fusion';

/** What passages need of a page. */
export interface PageInfo {
  id: number;
  path: string;
  title: string;
  kind: string;
  text: string;
  headings: Heading[];
  pdfPages: PageSpan[] | null;
  titleTokens: string;
  pathTokens: string;
  /** The pages OCR read, with each one's confidence; null for a page without OCR. */
  ocrPages: Array<{ page: number; confidence: number }> | null;
}

interface PageRow {
  id: number;
  path: string;
  title: string;
  kind: string;
  text: string;
  headings: string;
  pdf_pages: string | null;
  title_tokens: string;
  path_tokens: string;
  ocr_pages: string | null;
}

function toInfo(row: PageRow): PageInfo {
  return {
    id: row.id, path: row.path, title: row.title, kind: row.kind, text: row.text,
    headings: JSON.parse(row.headings) as Heading[],
    pdfPages: row.pdf_pages ? (JSON.parse(row.pdf_pages) as PageSpan[]) : null,
    titleTokens: row.title_tokens,
    pathTokens: row.path_tokens,
    ocrPages: row.ocr_pages ? (JSON.parse(row.ocr_pages) as PageInfo['ocrPages']) : null,
  };
}

// The OCR'd pages' numbers and confidences only: their lines (boxes) are not needed to cite them.
const OCR_PAGES = `CASE WHEN ocr IS NULL THEN NULL ELSE (SELECT json_group_array(json_object('page', json_extract(value, '$.page'),
  'confidence', json_extract(value, '$.confidence'))) FROM json_each(ocr, '$.pages')) END AS ocr_pages`;
const PAGE_COLUMNS = `id, path, title, kind, text, headings, pdf_pages, title_tokens, path_tokens, ${OCR_PAGES}`;

/**
 * Large pages kept per connection between searches, in UTF-16 units (about two bytes each). Default 16M
 * (about 32 MB). A search reads whole pages (its passages' text, focus and provenance come from them), so
 * a large manual among the results (Node's all.html, 8 MB) cost 40 ms to read and decode on every search
 * that found it; kept, only the first search pays. Least recently used pages go first.
 */
export const PAGE_CACHE_UNITS = 16_000_000;
/**
 * Pages shorter than this (UTF-16 units) are read each time: a 5 KB page reads in about 25 µs, and keeping
 * thousands of them cost more in memory and garbage collection than it saved (bench:search at 100k chunks,
 * where queries rarely meet a page twice: keyword CPU p50 +1 ms with every page kept).
 */
export const PAGE_CACHE_FROM = 50_000;

interface PageCache {
  /** contentState when the pages were read: the cache empties when it moves. */
  state: string;
  pages: Map<number, PageInfo>;
  units: number;
}

const pageCaches = new WeakMap<Database.Database, PageCache>();

function pageCacheOf(db: Database.Database): PageCache {
  const state = contentState(db);
  let cache = pageCaches.get(db);
  if (!cache || cache.state !== state) pageCaches.set(db, (cache = { state, pages: new Map(), units: 0 }));
  return cache;
}

/** Keep `page` as the most recently used, dropping the least recently used beyond the budget. */
function remember(cache: PageCache, page: PageInfo): void {
  if (page.text.length < PAGE_CACHE_FROM || page.text.length > PAGE_CACHE_UNITS) return;
  cache.pages.set(page.id, page);
  cache.units += page.text.length;
  for (const [id, old] of cache.pages) {
    if (cache.units <= PAGE_CACHE_UNITS) break;
    cache.pages.delete(id);
    cache.units -= old.text.length;
  }
}

/**
 * Load pages by id (each once): large pages read since the knowledge base last changed from memory, the
 * rest in one statement. The PageInfo objects are shared between searches and must not be changed.
 */
export function loadPages(db: Database.Database, ids: Iterable<number>): Map<number, PageInfo> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const cache = pageCacheOf(db);
  const found = new Map<number, PageInfo>();
  for (const id of wanted) {
    const page = cache.pages.get(id);
    if (!page) continue;
    cache.pages.delete(id); // re-inserted below: the most recently used come last
    cache.pages.set(id, page);
    found.set(id, page);
  }
  const missing = wanted.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const sql = `SELECT ${PAGE_COLUMNS} FROM pages WHERE id IN (SELECT value FROM json_each(?))`;
    for (const row of cached(db, sql).all(JSON.stringify(missing)) as PageRow[]) {
      const page = toInfo(row);
      found.set(page.id, page);
      remember(cache, page);
    }
  }
  return new Map(wanted.flatMap((id) => (found.has(id) ? [[id, found.get(id)!] as const] : [])));
}

/** A page by its `wiki/…` path, or null. */
export function pageByPath(db: Database.Database, path: string): PageInfo | null {
  const row = cached(db, `SELECT ${PAGE_COLUMNS} FROM pages WHERE path = ?`).get(path) as PageRow | undefined;
  return row ? toInfo(row) : null;
}

/** sha256 (hex) of a text, as UTF-8. */
export function sha256(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** Where `[start, end)` of a page came from. */
export function provenanceOf(page: PageInfo, start: number, end: number): Provenance {
  const last = Math.max(start, end - 1);
  const hasLines = page.kind === 'code' || page.kind === 'text';
  const base: Provenance = {
    headingPath: headingPathAt(page.headings, start),
    pdfPages: null,
    lines: hasLines ? [lineAt(page.text, start), lineAt(page.text, last)] : null,
  };
  if (page.kind === 'sheet') return { ...base, ...sheetRowsOf(page, start, last) };
  const parts = page.pdfPages?.filter((p) => p.start <= last && p.end > start).map((p) => p.page) ?? [];
  const range: [number, number] | null = parts.length ? [Math.min(...parts), Math.max(...parts)] : null;
  if (page.kind === 'slides') return { ...base, slides: range };
  if (page.kind === 'epub') return { ...base, chapters: range };
  const ocr = ocrOf(page, parts);
  return { ...base, pdfPages: range, ...(ocr ? { ocr } : {}) };
}

/** The OCR confidence of a passage on `parts` (page numbers): the lowest of its OCR'd pages'; null without OCR. */
function ocrOf(page: PageInfo, parts: number[]): Provenance['ocr'] {
  const read = page.ocrPages?.filter((p) => parts.includes(p.page)) ?? [];
  if (read.length === 0) return null;
  const confidence = Math.min(...read.map((p) => p.confidence));
  return { confidence, lowConfidence: confidence < LOW_OCR_CONFIDENCE };
}

/** Line breaks in `text` within `[from, to)`. */
function breaksBetween(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The sheet and rows of `[start, last]` on a spreadsheet page: the sheet is the level-1 heading in force; a
 * row run's span is numbered by its first row, one row a line (see page-model's PageSpan).
 */
function sheetRowsOf(page: PageInfo, start: number, last: number): Pick<Provenance, 'sheet' | 'rows'> {
  const sheet = [...page.headings].reverse().find((h) => h.level === 1 && h.start <= start)?.text ?? null;
  const runs = page.pdfPages?.filter((p) => p.start <= last && p.end > start) ?? [];
  const first = runs[0];
  const final = runs[runs.length - 1];
  if (!first || !final) return { sheet, rows: null };
  const from = first.page + breaksBetween(page.text, first.start, Math.max(first.start, start));
  const to = final.page + breaksBetween(page.text, final.start, Math.min(last, final.end));
  return { sheet, rows: [from, to] };
}

/**
 * True when `[start, end)` holds a heading and nothing else with words in it: the chunk a knowledge
 * base indexed before headings were joined to their text. Such a passage answers nothing, so search
 * leaves it out until the page is indexed again — unless the page holds nothing but headings, when the
 * heading is all there is to find (issue #27 item 4).
 */
export function isHeadingOnly(page: PageInfo, start: number, end: number): boolean {
  return holdsOnlyHeadings(page, start, end) && !holdsOnlyHeadings(page, 0, page.text.length);
}

/** True when `[start, end)` overlaps a heading and has no words outside headings. A page that is nothing
 *  but headings (`# zebrafish notes` alone) is its own passage: there is no text to prefer. */
function holdsOnlyHeadings(page: PageInfo, start: number, end: number): boolean {
  let from = start;
  let sawHeading = false;
  for (const h of page.headings) {
    if (h.end <= start || h.start >= end) continue;
    if (hasWords(page.text, from, Math.max(from, h.start))) return false;
    sawHeading = true;
    from = Math.max(from, h.end);
  }
  return sawHeading && !hasWords(page.text, from, Math.max(from, end));
}

/** The evidence id of a span: the page path, span and a hash prefix, encoded (clients treat it as opaque). */
export function evidenceIdOf(path: string, start: number, end: number, hash: string): string {
  return Buffer.from(`${start}:${end}:${hash.slice(0, 16)}:${path}`, 'utf8').toString('base64url');
}

/** Decode an evidence id, or throw `invalid_argument`. */
export function parseEvidenceId(id: string): { path: string; start: number; end: number; hashPrefix: string } {
  const m = /^(\d+):(\d+):([0-9a-f]{16}):(wiki\/.+)$/s.exec(Buffer.from(id, 'base64url').toString('utf8'));
  if (!m) throw new SiftError('invalid_argument', `"${id}" is not an evidence id from Sift`);
  return { start: Number(m[1]), end: Number(m[2]), hashPrefix: m[3]!, path: m[4]! };
}

/** Each Markdown page's code blocks, read once per loaded page (a search asks for several passages of one). */
const fenceMaps = new WeakMap<PageInfo, FenceMap>();

/** `{ openFence }` when `offset` lies inside a fenced code block of a Markdown page, else nothing. */
function openFenceOf(page: PageInfo, offset: number): { openFence?: string } {
  if (page.kind !== 'markdown') return {};
  let map = fenceMaps.get(page);
  if (!map) fenceMaps.set(page, (map = fenceMapOf(page.text)));
  const fence = fenceAt(map, offset);
  return fence ? { openFence: fence } : {};
}

/**
 * `passage` (of `page`) with its focus on `terms` (see focusOf), and the fence open where it is shown from. A code
 * page's passage is a window that can start in one function and show another: its heading path is the outline
 * where it is shown from.
 */
export function withFocus(passage: Passage, page: PageInfo, terms: readonly string[]): Passage {
  const focus = focusOf(passage.text, terms);
  const { focus: _old, openFence: _fence, ...rest } = passage;
  const shownFrom = passage.start + focus;
  const provenance = page.kind === 'code' ? { ...rest.provenance, headingPath: headingPathAt(page.headings, shownFrom) } : rest.provenance;
  return { ...rest, provenance, ...(focus > 0 ? { focus } : {}), ...openFenceOf(page, shownFrom) };
}

/** Build the Passage for `[start, end)` of `page` from the hits that found it (best first). */
export function buildPassage(page: PageInfo, start: number, end: number, hits: FusedHit[], hitReason: Passage['hitReason']): Passage {
  const text = page.text.slice(start, end);
  const contentHash = sha256(text);
  const best = <K extends 'keywordRank' | 'vectorRank'>(key: K) =>
    hits.filter((h) => h[key] !== null).sort((a, b) => (a[key] as number) - (b[key] as number))[0] ?? null;
  const kw = best('keywordRank');
  const vec = best('vectorRank');
  return {
    evidenceId: evidenceIdOf(page.path, start, end, contentHash),
    pagePath: page.path,
    title: page.title,
    start,
    end,
    text,
    contentHash,
    provenance: provenanceOf(page, start, end),
    ...openFenceOf(page, start),
    hitReason,
    keywordRank: kw?.keywordRank ?? null,
    keywordScore: kw?.keywordScore ?? null,
    vectorRank: vec?.vectorRank ?? null,
    vectorDistance: vec?.vectorDistance ?? null,
    rrfScore: hits.length ? Math.max(...hits.map((h) => h.rrf)) : null,
  };
}
