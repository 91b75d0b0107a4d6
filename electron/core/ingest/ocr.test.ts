/**
 * OCR through the real pipeline (issue #26 item 1): pages drawn at test time with real fonts — PNG images and an
 * image-only PDF — indexed by the core's ingest workers with the real PP-OCRv4 models, then found by search with
 * the right page, and a box in `pages.get` that holds the text where it was drawn. A corrupt image fails with its
 * reason; with OCR off, an image is skipped, "OCR is off"; unchanged bytes are never read twice by one model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IngestStatus, PageDetail } from '../../../shared/models';
import type { Sift } from '../sift';
import { tempDir } from '../testing/temp';
import {
  CHINESE_LINES, ENGLISH_LINES, FONTS, characterErrorRate, drawPage, imagePdf, type DrawnPage,
} from '../ocr/testing/scans';
import { call, makeKb, openCore, recordProgress, writeFiles } from './testing/fixtures';

let sift: Sift;
let kb: string;
let root: string;
let data: string;
let status: IngestStatus;
let progress: IngestStatus[];
const drawn: Record<string, DrawnPage> = {};

/** True when `outer` holds at least 80 % of `inner`. */
function covers(outer: readonly number[], inner: readonly number[]): boolean {
  const w = Math.max(0, Math.min(outer[2]!, inner[2]!) - Math.max(outer[0]!, inner[0]!));
  const h = Math.max(0, Math.min(outer[3]!, inner[3]!) - Math.max(outer[1]!, inner[1]!));
  return w * h >= 0.8 * (inner[2]! - inner[0]!) * (inner[3]! - inner[1]!);
}

beforeAll(async () => {
  // folders for the whole file (tempDir's are removed after each test), removed at the end
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-ocr-'));
  data = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-ocr-data-'));
  drawn.english = drawPage(ENGLISH_LINES, { family: FONTS.serif.family });
  drawn.chinese = drawPage(CHINESE_LINES, { family: FONTS.sans.family });
  drawn.pdfEnglish = drawPage(ENGLISH_LINES.slice(0, 3), { family: FONTS.sans.family, format: 'jpeg' });
  drawn.pdfChinese = drawPage(CHINESE_LINES.slice(3), { family: FONTS.serifCjk.family, format: 'jpeg' });
  const pdf = imagePdf([drawn.pdfEnglish, drawn.pdfChinese].map((p) => ({ jpeg: p.bytes, width: p.width, height: p.height })));
  writeFiles(root, {
    'scans/english.png': drawn.english.bytes,
    'scans/中文.png': drawn.chinese.bytes,
    'scans/contract.pdf': pdf,
    'scans/broken.png': drawn.english.bytes.subarray(0, 200),
    'notes.md': '# Notes\n\nThe scans folder holds the signed contract.\n',
  });
  sift = openCore(data);
  kb = await makeKb(sift, 'Scans', [root]);
  const recorder = recordProgress(sift, kb);
  status = await sift.ingest(kb);
  recorder.stop();
  progress = recorder.events;
}, 180_000);

afterAll(async () => {
  await sift?.close();
  for (const dir of [data, root]) fs.rmSync(dir, { recursive: true, force: true });
});

async function page(p: string): Promise<PageDetail> {
  return call(sift, 'pages.get', { kb, path: p });
}

describe('OCR in the ingest pipeline', () => {
  it('indexes images and a scanned PDF, and lists a corrupt image as failed with its reason', () => {
    expect(status).toMatchObject({ state: 'done', error: null, filesIndexed: 4, filesFailed: 1 });
    expect(status.problems).toEqual([
      expect.objectContaining({ relPath: 'scans/broken.png', status: 'failed', reason: expect.stringMatching(/^the image could not be read: /) }),
    ]);
  });

  it('reads each language within 3 % CER, text being the canonical text of the page', async () => {
    const english = await page('wiki/scans/english.png');
    expect(english.kind).toBe('image');
    expect(characterErrorRate(ENGLISH_LINES.join('\n'), english.text)).toBeLessThanOrEqual(0.03);
    const chinese = await page('wiki/scans/中文.png');
    expect(characterErrorRate(CHINESE_LINES.join('\n'), chinese.text)).toBeLessThanOrEqual(0.03);
    const pdf = await page('wiki/scans/contract.pdf');
    expect(pdf.pdfPages?.map((p) => p.page)).toEqual([1, 2]);
    const [first, second] = pdf.pdfPages!;
    expect(characterErrorRate(ENGLISH_LINES.slice(0, 3).join('\n'), pdf.text.slice(first!.start, first!.end))).toBeLessThanOrEqual(0.03);
    expect(characterErrorRate(CHINESE_LINES.slice(3).join('\n'), pdf.text.slice(second!.start, second!.end))).toBeLessThanOrEqual(0.03);
    expect(pdf.ocr).toMatchObject({ model: expect.stringMatching(/^pp-ocrv4-ch@/), lowConfidence: false });
    expect(pdf.ocr!.pages.map((p) => [p.page, p.width, p.height])).toEqual([[1, 1240, 1754], [2, 1240, 1754]]);
    // every line's span lies inside its page's span, so a cited span maps to its boxes
    for (const ocrPage of pdf.ocr!.pages) {
      const span = pdf.pdfPages!.find((p) => p.page === ocrPage.page)!;
      for (const line of ocrPage.lines) expect(line.start >= span.start && line.end <= span.end).toBe(true);
    }
  });

  it('finds the text by search with its page, and a box holding it where it was drawn', async () => {
    const cases = [
      { query: 'Rotterdam warehouse', path: 'wiki/scans/english.png', page: 1, drawing: drawn.english!, line: 3 },
      { query: '季度报告 收入', path: 'wiki/scans/中文.png', page: 1, drawing: drawn.chinese!, line: 1 },
      { query: '国庆节 发货', path: 'wiki/scans/contract.pdf', page: 2, drawing: drawn.pdfChinese!, line: 0 },
      { query: 'sign the contract', path: 'wiki/scans/contract.pdf', page: 1, drawing: drawn.pdfEnglish!, line: 2 },
    ];
    for (const c of cases) {
      const found = await call(sift, 'search.query', { kb, query: c.query, mode: 'keyword' });
      const hit = found.passages.find((p) => p.pagePath === c.path);
      expect(hit, `${c.query} → ${c.path}`).toBeDefined();
      // a short scan is one chunk: the passage may span both pages, and always the one the text is on
      const [from, to] = hit!.provenance.pdfPages!;
      expect(from <= c.page && c.page <= to, `${c.query}: pages ${from}–${to}`).toBe(true);
      expect(hit!.provenance.ocr).toMatchObject({ lowConfidence: false });
      const detail = await page(c.path);
      const ocrPage = detail.ocr!.pages.find((p) => p.page === c.page)!;
      const text = c.drawing.lines[c.line]!;
      const inPassage = ocrPage.lines.filter((l) => l.start < hit!.end && l.end > hit!.start);
      expect(inPassage.some((l) => covers(l.box, text.box)), `a box of the passage holds "${text.text}"`).toBe(true);
    }
  });

  it('says per page how far OCR is, with the measured seconds per page and an estimate', () => {
    const ocr = progress.map((p) => p.ocr).filter((o) => o);
    expect(ocr.length).toBeGreaterThan(0);
    expect(ocr.some((o) => o!.pages === 2 && o!.page === 1 && o!.secondsPerPage! > 0 && o!.remainingSeconds !== null)).toBe(true);
    expect(status.ocr).toMatchObject({ pagesRead: 4, pagesCached: 0 });
  });

  it('shows the parser, model and confidence in the manifest', async () => {
    const rows = await call(sift, 'pages.manifest', { kb });
    const pdf = rows.find((r) => r.relPath === 'scans/contract.pdf')!;
    expect(pdf).toMatchObject({ parser: 'ocr', ocr: { model: expect.stringMatching(/^pp-ocrv4-ch@/), lowConfidence: false, pages: 2 } });
    expect(pdf.ocr!.confidence).toBeGreaterThan(0.9);
    expect(rows.find((r) => r.relPath === 'notes.md')).toMatchObject({ parser: 'markdown', ocr: null });
  });

  it('renders a page image the boxes fall on: 150 dpi for a PDF page, the image itself for an image', async () => {
    const pdfPage = await call(sift, 'pages.image', { kb, path: 'wiki/scans/contract.pdf', page: 2 });
    expect(pdfPage).toMatchObject({ page: 2, width: 1240, height: 1754 });
    expect(pdfPage.dataUrl.startsWith('data:image/png;base64,')).toBe(true);
    const image = await call(sift, 'pages.image', { kb, path: 'wiki/scans/english.png', page: 1 });
    expect(image).toMatchObject({ width: drawn.english!.width, height: drawn.english!.height });
    await expect(call(sift, 'pages.image', { kb, path: 'wiki/notes.md', page: 1 })).rejects.toThrow(/not a PDF or an image/);
    await expect(call(sift, 'pages.image', { kb, path: 'wiki/scans/contract.pdf', page: 3 })).rejects.toThrow(/has 2 page/);
  });

  it('never reads unchanged bytes twice: a copy of a scan comes from the cache', async () => {
    fs.copyFileSync(path.join(root, 'scans/english.png'), path.join(root, 'scans/copy.png'));
    const again = await sift.ingest(kb);
    expect(again).toMatchObject({ state: 'done', filesIndexed: 1 });
    expect(again.ocr).toMatchObject({ pagesRead: 0, pagesCached: 1 });
    expect((await page('wiki/scans/copy.png')).text).toBe((await page('wiki/scans/english.png')).text);
    const third = await sift.ingest(kb);
    expect(third.ocr ?? null).toBeNull();
  }, 60_000);

  it('keeps the cache bounded: a result no file has needed for 30 days goes at the end of a full run', async () => {
    const Database = (await import('better-sqlite3')).default;
    const kbFile = fs.readdirSync(path.join(data, 'kbs')).find((f) => f.endsWith('.sqlite'))!;
    const db = new Database(path.join(data, 'kbs', kbFile));
    try {
      const model = db.prepare(`SELECT model FROM ocr_cache LIMIT 1`).pluck().get() as string;
      const held = db.prepare(`SELECT sha256 FROM documents WHERE rel_path = 'scans/english.png'`).pluck().get() as string;
      const old = new Date(Date.now() - 31 * 86_400_000).toISOString();
      const recent = new Date(Date.now() - 29 * 86_400_000).toISOString();
      const put = db.prepare(`INSERT OR REPLACE INTO ocr_cache (sha256, model, page, result, seconds, created_at, seen_at) VALUES (?, ?, ?, '{}', 1, ?, ?)`);
      put.run('a-file-deleted-long-ago', model, 1, old, old);
      put.run('a-file-moved-out-last-month', model, 1, recent, recent);
      put.run(held, 'an-earlier-model', 1, old, old);
      db.prepare(`UPDATE ocr_cache SET seen_at = ? WHERE sha256 = ? AND model = ?`).run(old, held, model);
      const again = await sift.ingest(kb);
      expect(again).toMatchObject({ state: 'done', filesIndexed: 0 });
      const rows = db.prepare(`SELECT sha256, model, seen_at FROM ocr_cache`).all() as { sha256: string; model: string; seen_at: string }[];
      const kept = new Set(rows.map((r) => `${r.sha256 === held ? 'english.png' : r.sha256} ${r.model === model ? 'current' : r.model}`));
      expect(kept.has('a-file-deleted-long-ago current')).toBe(false);
      expect(kept.has('english.png an-earlier-model')).toBe(false);
      expect(kept.has('a-file-moved-out-last-month current')).toBe(true);
      // the file's own result stays, seen again by this run, and so does every other page the folder holds
      expect(kept.has('english.png current')).toBe(true);
      expect(rows.find((r) => r.sha256 === held && r.model === model)!.seen_at > recent).toBe(true);
      // english.png (and its copy, the same bytes), 中文.png, the PDF's two pages
      expect(rows.filter((r) => r.model === model && !r.sha256.startsWith('a-file'))).toHaveLength(4);
      expect((await page('wiki/scans/english.png')).text).toContain('quarterly');
    } finally {
      db.close();
    }
  }, 60_000);
});

describe('OCR turned off', () => {
  it('skips an image, "OCR is off", and reads it once OCR is turned on again', async () => {
    const data = tempDir();
    const folder = tempDir();
    writeFiles(folder, { 'receipt.png': drawPage(ENGLISH_LINES.slice(0, 1), { family: FONTS.serif.family, width: 900, height: 300 }).bytes });
    const core = openCore(data);
    try {
      const id = await makeKb(core, 'Off', [folder]);
      await call(core, 'settings.set', { patch: { ocr: false } });
      const off = await core.ingest(id);
      expect(off.problems).toEqual([expect.objectContaining({ relPath: 'receipt.png', status: 'skipped', reason: 'OCR is off' })]);
      await call(core, 'settings.set', { patch: { ocr: true } });
      const on = await core.ingest(id);
      expect(on).toMatchObject({ filesIndexed: 1, problems: [] });
      const found = await call(core, 'search.query', { kb: id, query: 'quarterly revenue', mode: 'keyword' });
      expect(found.passages[0]?.pagePath).toBe('wiki/receipt.png');
    } finally {
      await core.close();
    }
  }, 90_000);
});

describe('cancelling OCR', () => {
  it('stops between pages, writes nothing of the file, and the next run goes on from the cached pages', async () => {
    const data = tempDir();
    const folder = tempDir();
    const pages = [0, 1, 2, 3].map((i) => drawPage(ENGLISH_LINES.slice(i, i + 2), { family: FONTS.serif.family, format: 'jpeg' }));
    writeFiles(folder, { 'long-scan.pdf': imagePdf(pages.map((p) => ({ jpeg: p.bytes, width: p.width, height: p.height }))) });
    const core = openCore(data);
    try {
      const id = await makeKb(core, 'Long', [folder]);
      let cancelled = false;
      const stop = core.onEvent((name, payload) => {
        const s = payload as IngestStatus;
        if (name === 'ingest.progress' && s.kbId === id && s.ocr?.page === 1 && !cancelled) {
          cancelled = true;
          void call(core, 'ingest.cancel', { kb: id });
        }
      });
      const first = await core.ingest(id);
      stop();
      expect(first).toMatchObject({ state: 'cancelled', error: expect.stringMatching(/^indexing was cancelled/), filesIndexed: 0 });
      expect(first.ocr!.pagesRead).toBeLessThan(4);
      await expect(call(core, 'pages.get', { kb: id, path: 'wiki/long-scan.pdf' })).rejects.toThrow(/no page/);
      const second = await core.ingest(id);
      expect(second).toMatchObject({ state: 'done', filesIndexed: 1 });
      expect(second.ocr!.pagesCached).toBe(first.ocr!.pagesRead);
      expect(second.ocr!.pagesRead + second.ocr!.pagesCached).toBe(4);
    } finally {
      await core.close();
    }
  }, 120_000);
});
