/**
 * One indexing run of a knowledge base: scan its folders, drop what vanished, hand what changed to
 * the ingest workers in batches (they prepare and write; see batch.ts), then embed the chunks still
 * without vectors. Unchanged files cost a stat: size + mtime first, sha256 only when those moved.
 * The main thread only scans and counts, so the app stays responsive during a large ingest.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { Folder } from '../../../shared/models';
import type { Embedder } from '../embed/embedder';
import type { FileResult } from './batch';
import { documentAt, documentsOf, removeDocument, storedFolders, writeProblem, type StoredDocument } from './page-store';
import { kindOf } from './parse/kinds';
import { PAGE_FORMAT, PARSER_FIXES, pagePathOf, type FileJob } from './prepare';
import { folderRules, isExcludedPath } from './rules';
import { scanFolder } from './scan';
import { countOcrPage, type RunCounters } from './status';
import type { OcrProgress } from '../ocr/reader';
import { ocrModelId, pruneOcrCache } from './ocr-reading';
import { say } from '../../../shared/said';
import type { DocumentKind } from '../store/page-model';
import { chunksToEmbed, setKeywordOnly, useModel, writeVectors } from '../store/vectors';
import { DIGEST_FOLDER } from '../store/page-model';
import { settleKeywordTotals } from '../store/keyword-totals';

/** Tunables of a run. */
export interface RunOptions {
  /** Files over this size are skipped as too large. Default 50 MB. */
  maxFileBytes: number;
  /** Batches handed to the ingest workers at once. Default two per worker, so each has the next batch
   *  queued when it finishes one (1–64). */
  concurrency: number;
  /** Files per batch (one transaction each). Default 128 (1–1,000); a batch also ends at 4 MB of files
   *  (PDF and Word bytes weigh more), and a run of few files is cut into smaller batches so that
   *  every lane gets one. */
  batchFiles: number;
  /** Chunks per embedding call. Default 32 (1–256). */
  embedBatch: number;
  /** Longest time reading and parsing one file may take before its worker is stopped, ms. Default
   *  FILE_TIME_LIMIT_MS, 60 s (1,000–600,000; tests use less). With OCR, the limit counts per page read. */
  fileTimeLimitMs?: number;
  /** Read images and PDF pages without a text layer with OCR (the setting). Default true. */
  ocr?: boolean;
  /** The OCR model in force: pages OCR read with another model are read again. Default: none known. */
  ocrModel?: string;
}

/** What a run needs from its surroundings. */
export interface RunDeps {
  db: Database.Database;
  folders: Folder[];
  /** Prepare and write a batch of files (in an ingest worker); one result per job, in order.
   *  `onFile` hears the page address of each file as the worker starts reading it. */
  indexBatch(jobs: FileJob[], onFile: (pagePath: string) => void, onOcrPage: (pagePath: string, progress: OcrProgress) => void): Promise<FileResult[]>;
  /** The embedder, or the reason none can be had. */
  embedder(): Promise<Embedder | string>;
  counters: RunCounters;
  /** Report progress (the caller throttles). */
  progress(force?: boolean): void;
  signal: AbortSignal;
  options: RunOptions;
  /** True once the knowledge base is deleted (by another process too): the run stops at its next batch.
   *  Default: never. */
  kbGone?: () => boolean;
  /** Folders the scan never enters: Sift's data folder, when a folder of the knowledge base holds it. Default []. */
  skipFolders?: string[];
}

/**
 * True when the knowledge base's pages were made by this version of preparing (see PAGE_FORMAT).
 * One with no documents yet is current at once, so an interrupted first run resumes, not restarts.
 */
function pagesCurrent(db: Database.Database): boolean {
  if (metaIs(db, 'page_format', PAGE_FORMAT)) return true;
  if (db.prepare(`SELECT 1 FROM documents LIMIT 1`).get() !== undefined) return false;
  recordPageFormat(db);
  return true;
}

function recordPageFormat(db: Database.Database): void {
  recordMeta(db, 'page_format', PAGE_FORMAT);
}

/** True when the knowledge base records `value` under `key`. */
function metaIs(db: Database.Database, key: string, value: number): boolean {
  return db.prepare(`SELECT value FROM kb_meta WHERE key = ?`).pluck().get(key) === String(value);
}

function recordMeta(db: Database.Database, key: string, value: number): void {
  const upsert = `INSERT INTO kb_meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`;
  db.prepare(upsert).run(key, String(value));
}

/** True when the knowledge base's failed files were last read with every parser fix there is (see PARSER_FIXES). */
function failuresCurrent(db: Database.Database): boolean {
  return metaIs(db, 'parser_fixes', PARSER_FIXES);
}

/**
 * Index every folder of the knowledge base, then embed. Pages made by an older PAGE_FORMAT are all
 * prepared again, unchanged files too; the new format is recorded once every file has been.
 */
export async function runFull(deps: RunDeps): Promise<void> {
  const { db, counters: c } = deps;
  const current = pagesCurrent(db);
  const failuresRead = failuresCurrent(db);
  c.state = 'scanning';
  deps.progress(true);
  const folderPaths = new Set(deps.folders.map((f) => f.path));
  for (const folder of storedFolders(db)) {
    // Digests are pages Sift wrote, in a folder of their own that is no path on disk (see digests/store.ts).
    if (!folderPaths.has(folder) && folder !== DIGEST_FOLDER) removeAll(db, [...documentsOf(db, folder).values()].map((d) => d.id), c);
  }
  const jobs: FileJob[] = [];
  for (const folder of deps.folders) {
    let scanned: Awaited<ReturnType<typeof scanFolder>>;
    try {
      scanned = await scanFolder(folder.path, {
        excludeGlobs: folder.excludeGlobs,
        maxFileBytes: deps.options.maxFileBytes,
        followExternalLinks: folder.followExternalLinks,
        skipFolders: deps.skipFolders,
      });
    } catch (err) {
      // A folder gone or unreadable (unplugged disk, removed while watching): keep its pages, say so.
      c.error = [c.error, `folder ${folder.path}: ${(err as Error).message}`].filter(Boolean).join('; ');
      continue;
    }
    const { files, skipped } = scanned;
    const stored = documentsOf(db, folder.path);
    const reread = new Set([...ocrRereads(db, folder.path, deps.options), ...(failuresRead ? [] : failedFiles(db, folder.path))]);
    const seen = new Set<string>();
    for (const s of skipped) {
      seen.add(s.relPath);
      writeProblem(db, { folder: folder.path, relPath: s.relPath, size: 0, mtimeMs: 0, sha256: null, status: 'skipped', reason: s.reason });
      c.filesSkipped++;
      c.filesDone++;
    }
    for (const file of files) {
      seen.add(file.relPath);
      const known = stored.get(file.relPath);
      const untouched = known && known.size === file.size && known.mtimeMs === Math.trunc(file.mtimeMs);
      const again = reread.has(file.relPath);
      if (current && untouched && !again) countUnchanged(c, known);
      else jobs.push(jobFor(folder, file.relPath, deps.options, current && !again ? known : undefined, file.size));
    }
    removeAll(db, [...stored].flatMap(([relPath, doc]) => (seen.has(relPath) ? [] : [doc.id])), c);
    c.filesTotal += files.length + skipped.length;
  }
  if (deps.kbGone?.()) return;
  await indexAll(deps, jobs);
  if (deps.kbGone?.()) return;
  if (!current && !deps.signal.aborted && c.error === null) recordPageFormat(db);
  if (!failuresRead && !deps.signal.aborted && c.error === null) recordMeta(db, 'parser_fixes', PARSER_FIXES);
  // Only a run that saw every folder knows which bytes the knowledge base holds.
  if (!deps.signal.aborted && c.error === null) pruneOcrCache(db, ocrModelId());
  await embedPending(deps);
}

/** Index just these files of one folder (from the watcher), then embed. */
export async function runFiles(deps: RunDeps, folder: Folder, relPaths: string[]): Promise<void> {
  // The whole folder gone (unmounted, removed while watched): keep its pages, as a full run does.
  if (!fs.existsSync(folder.path)) {
    deps.counters.error = `folder ${folder.path}: the folder ${folder.path} does not exist`;
    return;
  }
  // The scan's rule decides here too: a file the folder excludes is never read, and leaves the index if it was in it.
  const rules = folderRules(folder.path, folder.excludeGlobs);
  const wanted: string[] = [];
  const excluded: number[] = [];
  for (const rel of relPaths) {
    if (!isExcludedPath(folder.path, rules, rel)) {
      wanted.push(rel);
      continue;
    }
    const doc = documentAt(deps.db, folder.path, rel);
    if (doc) excluded.push(doc.id);
  }
  removeAll(deps.db, excluded, deps.counters);
  deps.counters.filesTotal += wanted.length;
  // Under an older page format, even bytes that hash as before are prepared again.
  const current = pagesCurrent(deps.db);
  const known = (rel: string) => (current ? documentAt(deps.db, folder.path, rel) : undefined);
  await indexAll(deps, wanted.map((rel) => jobFor(folder, rel, deps.options, known(rel), 0)));
  await embedPending(deps);
}

/** Files of a folder that failed, to read again once a parser can read what it could not (see PARSER_FIXES). */
function failedFiles(db: Database.Database, folder: string): string[] {
  return db.prepare(`SELECT rel_path FROM documents WHERE folder = ? AND status = 'failed'`).pluck().all(folder) as string[];
}

/**
 * Files of a folder to read again although their bytes are unchanged: with OCR on, those skipped because it was
 * off (or a scanned PDF without text then); pages OCR read with a model other than the one in force.
 */
function ocrRereads(db: Database.Database, folder: string, options: RunOptions): Set<string> {
  if (options.ocr === false) return new Set();
  const skipped = db
    .prepare(`SELECT rel_path FROM documents WHERE folder = ? AND status = 'skipped' AND reason IN (?, ?)`)
    .pluck()
    .all(folder, say('file.ocrOff').text, say('file.pdfNoText').text) as string[];
  const otherModel = options.ocrModel
    ? (db
        .prepare(`SELECT d.rel_path FROM pages p JOIN documents d ON d.id = p.document_id
                  WHERE d.folder = ? AND p.ocr IS NOT NULL AND json_extract(p.ocr, '$.model') != ?`)
        .pluck()
        .all(folder, options.ocrModel) as string[])
    : [];
  return new Set([...skipped, ...otherModel]);
}

function jobFor(folder: Folder, relPath: string, options: RunOptions, known: StoredDocument | undefined, size: number): FileJob {
  return {
    size,
    folder: folder.path,
    relPath,
    absPath: path.join(folder.path, relPath),
    pagePath: pagePathOf(folder.pagePrefix, relPath),
    maxFileBytes: options.maxFileBytes,
    knownSha256: known?.sha256 ?? null,
    followExternalLinks: folder.followExternalLinks,
    ...(options.fileTimeLimitMs !== undefined ? { timeLimitMs: options.fileTimeLimitMs } : {}),
    ...(options.ocr === false ? { ocr: false } : {}),
  };
}

/** Files removed from the index together, per transaction. */
const REMOVE_BATCH = 256;

/**
 * Remove documents in transactions of REMOVE_BATCH, each settling the keyword totals once
 * (store/keyword-totals.ts): one transaction and one settle per file tripled the time a folder takes
 * to leave (3,000 notes: 0.7 s → 1.7 s CPU).
 */
function removeAll(db: Database.Database, ids: number[], c: RunCounters): void {
  for (let i = 0; i < ids.length; i += REMOVE_BATCH) {
    const part = ids.slice(i, i + REMOVE_BATCH);
    db.transaction(() => part.forEach((id) => removeDocument(db, id)))();
    settleKeywordTotals(db);
    c.filesRemoved += part.length;
  }
}

function countUnchanged(c: RunCounters, known: StoredDocument): void {
  c.filesDone++;
  if (known.status === 'failed') c.filesFailed++;
  if (known.status === 'skipped') c.filesSkipped++;
}

// Reading a PDF or Word file costs far more per byte than text (measured on the test fixtures:
// PDF 0.44 MB/s, DOCX 1.6 MB/s, Markdown 9 MB/s of file bytes), so their bytes weigh more toward a
// batch's bound, and a folder of PDFs still shows progress every second or so.
// An image is OCR'd (about a second a page): one weighs as much as a megabyte-sized batch bound allows, so
// images spread over the workers instead of queueing in one batch.
const BYTE_WEIGHT: Partial<Record<DocumentKind, number>> = { pdf: 16, docx: 4, sheet: 8, slides: 4, epub: 4, image: 64 };

function weightOf(job: FileJob): number {
  const kind = kindOf(job.relPath)?.kind;
  return job.size * ((kind && BYTE_WEIGHT[kind]) || 1);
}

/**
 * Cut jobs into batches of at most `files` files and about `bytes` bytes (PDF and Word bytes
 * weighing more), and at most an even share of the jobs per lane, so a small run still keeps every
 * worker busy.
 */
export function batchesOf(jobs: FileJob[], files: number, bytes: number, lanes: number): FileJob[][] {
  files = Math.max(1, Math.min(files, Math.ceil(jobs.length / lanes)));
  const out: FileJob[][] = [];
  let batch: FileJob[] = [];
  let size = 0;
  for (const job of jobs) {
    const weight = weightOf(job);
    if (batch.length > 0 && (batch.length >= files || size + weight > bytes)) {
      out.push(batch);
      batch = [];
      size = 0;
    }
    batch.push(job);
    size += weight;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}

// Big batches make few, large keyword-index segments (see page-store.ts and migration 005): 128
// files per batch wrote 2,000 notes in 1.36 s, 24 files in 1.78 s. A batch's prepared pages are
// held in memory until it is written, hence the byte bound.
export const BATCH_BYTES = 4 << 20;

/** Hand the jobs to the ingest workers in batches, `concurrency` batches at a time, counting results. */
async function indexAll(deps: RunDeps, jobs: FileJob[]): Promise<void> {
  const { counters: c } = deps;
  c.state = 'indexing';
  deps.progress(true);
  const batches = batchesOf(jobs, deps.options.batchFiles, BATCH_BYTES, deps.options.concurrency);
  let next = 0;
  // A store failure (disk full, a broken file) ends the run: the other lanes stop at their next batch
  // instead of writing on after the run has been reported as failed.
  let failure: unknown = null;
  const lane = async (): Promise<void> => {
    while (next < batches.length && !deps.signal.aborted && failure === null && !deps.kbGone?.()) {
      const batch = batches[next++]!;
      try {
        const onFile = (file: string) => {
          c.currentFile = file;
          deps.progress();
        };
        const onOcrPage = (file: string, progress: OcrProgress) => {
          countOcrPage(c, file, progress);
          deps.progress();
        };
        const results = await deps.indexBatch(batch, onFile, onOcrPage);
        for (const r of results) count(c, r);
      } catch (err) {
        failure ??= err;
        return;
      }
      deps.progress();
    }
  };
  await Promise.all(Array.from({ length: Math.min(deps.options.concurrency, batches.length) }, lane));
  if (failure !== null) throw failure;
  c.currentFile = null;
}

function count(c: RunCounters, result: FileResult): void {
  c.filesDone++;
  if (result === 'indexed') c.filesIndexed++;
  else if (result === 'failed') c.filesFailed++;
  else if (result === 'skipped') c.filesSkipped++;
  else if (result === 'removed') c.filesRemoved++;
}

/** Embed every chunk without a vector, two batches in flight so the model never waits on SQLite. */
async function embedPending(deps: RunDeps): Promise<void> {
  const { db, counters: c } = deps;
  const pendingBefore = db.prepare(`SELECT 1 FROM chunks WHERE embedded = 0 LIMIT 1`).get();
  const embedder = await deps.embedder();
  if (typeof embedder === 'string') {
    setKeywordOnly(db, embedder);
    return;
  }
  setKeywordOnly(db, null);
  useModel(db, { id: embedder.id, dimension: embedder.dimension });
  if (!pendingBefore && !db.prepare(`SELECT 1 FROM chunks WHERE embedded = 0 LIMIT 1`).get()) return;
  c.state = 'embedding';
  deps.progress(true);
  const size = deps.options.embedBatch;
  while (!deps.signal.aborted && !deps.kbGone?.()) {
    const todo = chunksToEmbed(db, size * 8);
    if (todo.length === 0) return;
    const inFlight: Promise<void>[] = [];
    for (let i = 0; i < todo.length && !deps.signal.aborted; i += size) {
      const batch = todo.slice(i, i + size);
      const job = embedder.embedPassages(batch.map((t) => t.text)).then((vectors) => {
        if (deps.signal.aborted) return;
        c.chunksEmbeddedThisRun += writeVectors(db, batch.map((t, j) => ({ chunkId: t.chunkId, hash: t.hash, vector: vectors[j]! })));
        deps.progress();
      });
      job.catch(() => undefined); // awaited below; this only keeps Node from calling it unhandled meanwhile
      inFlight.push(job);
      if (inFlight.length >= 2) await inFlight.shift();
    }
    await Promise.all(inFlight);
  }
}
