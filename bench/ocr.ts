/**
 * `npm run bench:ocr` — OCR speed and accuracy (issue #26 item 1), on pages drawn here with real fonts:
 *   1. seconds per A4 page rendered at 150 dpi (a one-page image-only PDF: pdf.js render + the PP-OCRv4 models),
 *      for dense English and Chinese pages, and the character error rate (CER) per language;
 *   2. `sift ingest` of a folder of 50 scanned pages (one-page image-only PDFs) through the real ingest workers:
 *      total seconds, pages per second, and the process's peak RSS meanwhile.
 * Targets: ≤ 2 s per page on 2 cores; CER ≤ 3 % per language.
 *
 * Usage: tsx bench/ocr.ts [--pages N (per language, default 4; 0 skips)] [--folder N (default 50)]
 *                         [--threads N (default 2)]
 *                         [--fuse on|off (the models' graph rewrite, electron/core/ocr/graph.ts; default on)]
 *                         [--line-workers N (threads reading a page's lines, electron/core/ocr/lines.ts; default
 *                          the engine's: --threads when 2 or more; 0 reads them on one thread's intra-op pool)]
 *                         [--strip-rows N (rows detection reads at a time, electron/core/ocr/detect.ts; default
 *                          DETECT_STRIP_ROWS; 0 reads the page whole; part 1 only)]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createOcrEngine } from '../electron/core/ocr/engine';
import { DETECT_STRIP_ROWS } from '../electron/core/ocr/detect';
import { FONTS, characterErrorRate, drawPage, imagePdf } from '../electron/core/ocr/testing/scans';
import { loadPdfJs, openPdf } from '../electron/core/ingest/parse/pdf';
import { renderPagePixels } from '../electron/core/ingest/parse/pdf-render';
import { createSift } from '../electron/core/sift';
import { fmt, machineLine, mb, RssSampler } from './measure';
import { Random } from './random';

interface Args {
  pages: number;
  folder: number;
  threads: number;
  fuse: boolean;
  lineWorkers?: number;
  stripRows?: number;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { pages: 4, folder: 50, threads: 2, fuse: true };
  for (let i = 0; i < argv.length; i++) {
    const value = Number(argv[i + 1]);
    if (argv[i] === '--fuse' && (argv[i + 1] === 'on' || argv[i + 1] === 'off')) args.fuse = argv[i + 1] === 'on';
    else if (argv[i] === '--pages') args.pages = value;
    else if (argv[i] === '--folder') args.folder = value;
    else if (argv[i] === '--threads') args.threads = value;
    else if (argv[i] === '--line-workers') args.lineWorkers = value;
    else if (argv[i] === '--strip-rows') args.stripRows = value;
    else throw new Error(`bench:ocr: unknown argument "${argv[i]}" (see the usage at the top of bench/ocr.ts)`);
    i++;
  }
  return args;
}

const WORDS = ('the report contract invoice delivery warehouse payment quarter revenue shipping customer order price ' +
  'signed before after March June total amount balance account service period notice terms agreed parts ' +
  'inspection schedule 2024 117 4.2 twelve percent holiday office manager review').split(' ');
const HANZI = '本合同自双方签字之日起生效季度报告显示收入增长了百分之十二请在六月底之前完成付款仓库将在国庆节期间暂停发货所有零件在交付前必须经过检验会议纪要已经发送给各部门负责人';

/** A dense A4 page of text in one language: 36 lines (all that fit at 24 px) of about 60 characters (English) or 31 (Chinese). */
function pageLines(language: 'en' | 'zh', seed: number): string[] {
  const stream = new Random(seed);
  const random = () => stream.next();
  return Array.from({ length: 36 }, () => {
    if (language === 'zh') return Array.from({ length: 30 }, () => HANZI[Math.floor(random() * HANZI.length)]).join('') + '。';
    let line = '';
    while (line.length < 58) line += `${line ? ' ' : ''}${WORDS[Math.floor(random() * WORDS.length)]}`;
    return `${line[0]!.toUpperCase()}${line.slice(1)}.`;
  });
}

/** One scanned page as an image-only PDF, with its text. */
function scannedPage(language: 'en' | 'zh', seed: number): { pdf: Buffer; text: string } {
  const lines = pageLines(language, seed);
  const family = language === 'zh' ? FONTS.sans.family : FONTS.serif.family;
  const drawn = drawPage(lines, { family, size: 24, format: 'jpeg' });
  return { pdf: imagePdf([{ jpeg: drawn.bytes, width: drawn.width, height: drawn.height }]), text: lines.join('\n') };
}

async function pageSpeed({ pages, threads, fuse, lineWorkers, stripRows }: Args): Promise<void> {
  const rss = new RssSampler(20);
  rss.start();
  const engine = await createOcrEngine(undefined, { threads, fuse, lineWorkers, stripRows });
  const pdfjs = await loadPdfJs();
  const lines = lineWorkers ?? (threads >= 2 ? threads : 0);
  console.log(`\n  1. one A4 page at 150 dpi (1240 × 1754 px, 36 lines), ${threads} thread(s) for detection, lines read by `
    + `${lines ? `${lines} line workers of one thread` : `one thread's session on ${threads} thread(s)`}, graph rewrite ${fuse ? 'on' : 'off'}, `
    + `detection in bands of ${stripRows === 0 ? 'the whole page' : `${stripRows ?? DETECT_STRIP_ROWS} rows`}`);
  console.log(`     ${'language'.padEnd(10)}${'render s'.padStart(10)}${'OCR s'.padStart(10)}${'s/page'.padStart(10)}${'CER'.padStart(10)}`);
  for (const language of ['en', 'zh'] as const) {
    const warm = scannedPage(language, 999);
    const warmDoc = await openPdf(pdfjs, warm.pdf);
    await engine.read(await renderPagePixels(await warmDoc.getPage(1))); // warm-up: the first run sizes the session's buffers
    let render = 0;
    let ocr = 0;
    let errors = 0;
    let characters = 0;
    for (let i = 0; i < pages; i++) {
      const { pdf, text } = scannedPage(language, i + 1);
      const t0 = performance.now();
      const doc = await openPdf(pdfjs, pdf);
      const pixels = await renderPagePixels(await doc.getPage(1));
      const t1 = performance.now();
      const read = await engine.read(pixels);
      const t2 = performance.now();
      await doc.destroy();
      render += (t1 - t0) / 1000;
      ocr += (t2 - t1) / 1000;
      const length = text.replace(/\s+/g, '').length;
      errors += characterErrorRate(text, read.text) * length;
      characters += length;
    }
    const perPage = (render + ocr) / pages;
    const cer = errors / characters;
    const verdict = `${perPage <= 2 ? '' : '  ✗ over 2 s'}${cer <= 0.03 ? '' : '  ✗ CER over 3 %'}`;
    console.log(`     ${language.padEnd(10)}${fmt(render / pages, 2).padStart(10)}${fmt(ocr / pages, 2).padStart(10)}${fmt(perPage, 2).padStart(10)}${`${fmt(cer * 100, 2)} %`.padStart(10)}${verdict}`);
  }
  console.log(`     peak RSS of the process meanwhile: ${mb(rss.peak())}`);
  rss.stop();
  await engine.close();
}

async function folderIngest(count: number): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-bench-ocr-'));
  const data = fs.mkdtempSync(path.join(os.tmpdir(), 'sift-bench-ocr-data-'));
  try {
    for (let i = 0; i < count; i++) fs.writeFileSync(path.join(root, `scan-${String(i + 1).padStart(3, '0')}.pdf`), scannedPage(i % 2 ? 'zh' : 'en', 100 + i).pdf);
    const sift = createSift({ dataDir: data, embedding: { provider: 'none' } });
    try {
      const created = await sift.invoke('kb.create', { name: 'Scans' });
      if (!created.ok) throw new Error(created.error.message);
      const kb = (created.value as { id: string }).id;
      await sift.invoke('folder.add', { kb, path: root });
      const rss = new RssSampler(20); // the ingest workers and their OCR engines included
      rss.start();
      const t0 = performance.now();
      const status = await sift.ingest(kb);
      const seconds = (performance.now() - t0) / 1000;
      const peak = rss.peak();
      rss.stop();
      const again = performance.now();
      await sift.ingest(kb);
      const rerun = (performance.now() - again) / 1000;
      console.log(`\n  2. sift ingest of ${count} scanned pages (one-page image-only PDFs, half English, half Chinese)`);
      console.log(`     ${status.filesIndexed} indexed, ${status.filesFailed} failed; ${fmt(seconds, 1)} s total, ${fmt(count / seconds, 2)} pages/s`
        + ` (${status.ocr?.pagesRead ?? 0} pages OCR'd at ${fmt(status.ocr?.secondsPerPage ?? 0, 2)} s/page in each worker)`);
      console.log(`     peak RSS of the process meanwhile: ${mb(peak)} (each ingest worker holds an OCR engine of its own)`);
      console.log(`     again, unchanged: ${fmt(rerun, 2)} s (nothing read twice)`);
    } finally {
      await sift.close();
    }
  } finally {
    for (const dir of [root, data]) fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  console.log(`bench:ocr — ${new Date().toISOString()}\n  ${machineLine()}`);
  if (args.pages > 0) await pageSpeed(args);
  if (args.folder > 0) await folderIngest(args.folder);
  console.log(`\n  ${machineLine()}`);
}

await main();
