/** The CLI's indexing and page commands: `ingest`, `pages`, `page`, `manifest`. */
import type { IngestStatus, ManifestRow } from '../../shared/models';
import { call, need, printJson, table, type Command } from './command';
import { emptyKbLine } from './hints';

/** The summary printed when a run ends. */
export function formatSummary(s: IngestStatus): string {
  const lines = [
    `files     ${s.filesTotal} (${s.filesFailed} failed, ${s.filesSkipped} skipped)`,
    `pages     ${s.pages}`,
    `chunks    ${s.chunks}`,
    `embedded  ${s.chunksEmbedded} (${s.chunksEmbeddedThisRun} this run)${s.embeddingModel ? ` with ${s.embeddingModel}` : ''}`,
    `elapsed   ${(s.elapsedMs / 1000).toFixed(1)} s`,
  ];
  if (s.ocr) {
    const rate = s.ocr.secondsPerPage === null ? '' : ` (${s.ocr.secondsPerPage.toFixed(2)} s/page)`;
    lines.push(`ocr       ${s.ocr.pagesRead} page(s) read${rate}, ${s.ocr.pagesCached} from the cache`);
  }
  if (s.keywordOnly) lines.push(`keyword-only: ${s.keywordOnly}`);
  if (s.error) lines.push(`${s.state === 'cancelled' ? 'cancelled' : 'error'}: ${s.error}`);
  for (const p of s.problems) lines.push(`${p.status.padEnd(7)} ${p.relPath}: ${p.reason}`);
  return lines.join('\n');
}

/** A one-line progress report for a terminal. */
function progressLine(s: IngestStatus): string {
  const files = `${s.filesDone}/${s.filesTotal} files`;
  const embed = s.state === 'embedding' ? `, ${s.chunksEmbedded}/${s.chunks} chunks embedded` : '';
  const ocr = s.ocr && s.ocr.page < s.ocr.pages ? `, OCR page ${s.ocr.page}/${s.ocr.pages}${left(s.ocr.remainingSeconds)}` : '';
  return `${s.state}… ${files}${embed}${ocr}${s.currentFile ? ` — ${s.currentFile}` : ''}`;
}

function left(seconds: number | null): string {
  return seconds === null ? '' : `, about ${seconds} s left`;
}

/**
 * Say how long OCR of a file will take, once its first page is measured: its pages × the seconds per page (on
 * stderr, terminal or not, for every file of more than one page, and for the first file OCR reads at all).
 */
function announceOcr(subscribe: (fn: (s: IngestStatus) => void) => () => void, kbId: string, err: (line: string) => void): () => void {
  let told = new Set<string>();
  let first = true;
  return subscribe((s) => {
    const o = s.kbId === kbId ? s.ocr : null;
    if (!o || o.secondsPerPage === null || o.remainingSeconds === null || told.has(o.file) || (!first && o.pages < 2)) return;
    told = told.add(o.file);
    first = false;
    const total = Math.round(o.pages * o.secondsPerPage);
    err(`OCR: ${o.file}: ${o.pages} page(s) × ${o.secondsPerPage.toFixed(2)} s/page measured ≈ ${total} s (about ${o.remainingSeconds} s left)`);
  });
}

/** Print progress to stderr while `kbId` indexes: an updating line on a terminal, nothing otherwise. */
function showProgress(subscribe: (fn: (s: IngestStatus) => void) => () => void, kbId: string): () => void {
  if (!process.stderr.isTTY) return () => undefined;
  const stop = subscribe((s) => {
    if (s.kbId === kbId) process.stderr.write(`\r\x1b[2K${progressLine(s).slice(0, (process.stderr.columns || 80) - 1)}`);
  });
  return () => {
    stop();
    process.stderr.write('\r\x1b[2K');
  };
}

/** Indexing and page commands, keyed by their words. */
export const ingestCommands: Record<string, Command> = {
  ingest: {
    words: 1,
    core: (flags) => ({ watch: flags.watch ?? false }),
    keepsRunning: false,
    async run({ sift, args, flags, io }) {
      const [kbRef] = need(args, ['kb']);
      const kb = (await call(sift, 'kb.list', {})).find((k) => k.id === kbRef || k.name === kbRef);
      const subscribe = (fn: (s: IngestStatus) => void) => sift.onEvent((e, p) => e === 'ingest.progress' && fn(p as IngestStatus));
      const stopProgress = kb ? showProgress(subscribe, kb.id) : () => undefined;
      const stopOcr = kb ? announceOcr(subscribe, kb.id, (line) => io.err(line)) : () => undefined;
      const status = await sift.ingest(kbRef!);
      stopOcr();
      stopProgress();
      io.out(flags.json ? JSON.stringify(status, null, 2) : formatSummary(status));
      const empty = !flags.json && kb?.folderCount === 0 ? await emptyKbLine(sift, kbRef!) : null;
      if (empty) io.err(`sift: ${empty}`);
      if (!flags.watch) return status.state === 'error' || status.state === 'cancelled' ? 1 : 0;
      io.out('watching for changes; press Ctrl+C to stop');
      subscribe((s) => {
        if (s.kbId === status.kbId && (s.state === 'done' || s.state === 'error')) io.out(flags.json ? JSON.stringify(s) : `${s.finishedAt}: ${progressLine(s)}`);
      });
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      return 0;
    },
  },
  pages: {
    words: 1,
    async run({ sift, args, flags, io }) {
      const [kb] = need(args, ['kb']);
      const pages = await call(sift, 'pages.list', { kb: kb! });
      if (flags.json) return printJson(io, pages);
      if (pages.length === 0) io.out('No pages yet. Add a folder and run: sift ingest KB');
      else io.out(table([['PATH', 'TITLE', 'KIND', 'CHUNKS'], ...pages.map((p) => [p.path, p.title, kindCell(p.kind, p.ocr), String(p.chunks)])]));
      return 0;
    },
  },
  manifest: {
    words: 1,
    async run({ sift, args, flags, io }) {
      const [kb] = need(args, ['kb']);
      const rows = await call(sift, 'pages.manifest', { kb: kb! });
      if (flags.json) return printJson(io, rows);
      if (rows.length === 0) io.out('No files yet. Add a folder and run: sift ingest KB');
      else io.out(table([MANIFEST_HEAD, ...rows.map(manifestLine)]));
      return 0;
    },
  },
  page: {
    words: 1,
    async run({ sift, args, flags, io }) {
      const [kb, path] = need(args, ['kb', 'wiki/path']);
      const page = await call(sift, 'pages.get', { kb: kb!, path: path! });
      if (flags.json) return printJson(io, page);
      io.out(`# ${page.title}  (${page.path}, ${page.kind})\n`);
      io.out(page.text);
      io.out(`\n--- ${page.sections.length} sections, ${page.chunkSpans.length} chunks`);
      for (const c of page.chunkSpans) io.out(`chunk ${c.index}: [${c.start}, ${c.end}) sha256 ${c.hash.slice(0, 12)}${c.embedded ? ' embedded' : ''}`);
      return 0;
    },
  },
};

/** A page's kind, with its OCR confidence when OCR read it (`image, ocr 0.97`; `pdf, ocr 0.62 low-confidence`). */
function kindCell(kind: string, ocr: { confidence: number; lowConfidence: boolean } | null | undefined): string {
  return ocr ? `${kind}, ocr ${ocr.confidence.toFixed(2)}${ocr.lowConfidence ? ' low-confidence' : ''}` : kind;
}

const MANIFEST_HEAD = ['SOURCE', 'PAGE', 'STATUS', 'PARSER', 'ENCODING', 'BYTES', 'MODIFIED', 'SHA256', 'CHUNKS', 'VECTORS', 'VERSION'];

/** The parser, and for OCR its model and confidence (`ocr pp-ocrv4-ch@1.4.2 0.97`). */
function parserCell(r: ManifestRow): string {
  if (!r.ocr) return r.parser ?? '-';
  return `${r.parser} ${r.ocr.model} ${r.ocr.confidence.toFixed(2)}${r.ocr.lowConfidence ? ' low-confidence' : ''}`;
}

/** One manifest row as table cells; the hash is shortened (the JSON has it whole). */
function manifestLine(r: ManifestRow): string[] {
  return [
    r.sourcePath, r.page ?? '-', r.status === 'indexed' ? r.status : `${r.status}: ${r.reason ?? ''}`, parserCell(r),
    r.encoding ?? '-', String(r.size), r.mtime.slice(0, 19).replace('T', ' '), r.sha256?.slice(0, 12) ?? '-',
    String(r.chunks), r.vectors === 'pending' ? `pending ${r.embeddedChunks}/${r.chunks}` : r.vectors,
    [r.version ?? '-', r.versionLabel].filter(Boolean).join(' '),
  ];
}
