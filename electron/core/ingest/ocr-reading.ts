/**
 * OCR inside an ingest worker: one engine per worker thread (loaded at the first page that is not cached), the
 * knowledge base's `ocr_cache` as the cache (written at once, page by page, under the workers' write lock, so a
 * cancelled or stopped run keeps what it read), a note per page for progress, and the run's cancel flag.
 */
import os from 'node:os';
import type Database from 'better-sqlite3';
import { cached } from '../store/statements';
import { now } from '../store/context';
import { createOcrEngine, defaultModels, type OcrEngine, type OcrPage } from '../ocr/engine';
import { pageReader, type OcrCache, type OcrProgress, type PageReader } from '../ocr/reader';
import type { FileJob } from './prepare';

let engine: Promise<OcrEngine> | null = null;
let modelId: string | null = null;

/** The id of the OCR models this installation reads with (what the cache and `pages.ocr` are keyed by). */
export function ocrModelId(): string {
  try {
    modelId ??= defaultModels().id;
  } catch {
    return 'unavailable'; // the models package is missing: reading fails with its reason, file by file
  }
  return modelId;
}

/** This thread's engine. Threads per model: the machine's cores shared by the (up to four) ingest workers. */
function threadEngine(): Promise<OcrEngine> {
  const cores = os.availableParallelism?.() ?? os.cpus().length;
  engine ??= createOcrEngine(defaultModels(), { threads: Math.max(1, Math.min(4, Math.floor(cores / 2))) });
  engine.catch(() => (engine = null)); // a failed load is tried again at the next file
  return engine;
}

/** The `ocr_cache` rows of one file's bytes; writes take `withLock` (the workers' write lock). */
export function ocrCacheOf(
  db: Database.Database, sha256: string, model: string, withLock: (write: () => void) => void,
): OcrCache {
  return {
    get(page) {
      const row = cached(db, `SELECT result FROM ocr_cache WHERE sha256 = ? AND model = ? AND page = ?`).pluck().get(sha256, model, page);
      return typeof row === 'string' ? (JSON.parse(row) as OcrPage) : null;
    },
    put(page, result, seconds) {
      const sql = `INSERT OR REPLACE INTO ocr_cache (sha256, model, page, result, seconds, created_at, seen_at) VALUES (?, ?, ?, ?, ?, ?, ?)`;
      const at = now();
      withLock(() => cached(db, sql).run(sha256, model, page, JSON.stringify(result), seconds, at, at));
    },
  };
}

/**
 * Days an OCR result stays after no file of the knowledge base holds its bytes (the file deleted, changed or moved
 * out) or the models changed: long enough for a file moved out and back in, or a model tried and given up, not to
 * be read again; short enough that a folder of scans removed does not keep its OCR text for ever.
 */
export const OCR_CACHE_KEEP_DAYS = 30;

/**
 * After a full run: mark the cache rows the knowledge base's files still need (their bytes, the current model) as
 * seen now, and delete those not seen for OCR_CACHE_KEEP_DAYS. Returns how many rows went.
 */
export function pruneOcrCache(db: Database.Database, model: string, at = new Date()): number {
  const held = `SELECT sha256 FROM documents WHERE sha256 IS NOT NULL`;
  const cutoff = new Date(at.getTime() - OCR_CACHE_KEEP_DAYS * 86_400_000).toISOString();
  return db.transaction(() => {
    db.prepare(`UPDATE ocr_cache SET seen_at = ? WHERE model = ? AND sha256 IN (${held})`).run(at.toISOString(), model);
    return db.prepare(`DELETE FROM ocr_cache WHERE seen_at < ?`).run(cutoff).changes;
  })();
}

/** What a worker's OCR needs from its batch. */
export interface OcrHooks {
  db: Database.Database;
  withLock: (write: () => void) => void;
  /** Hears every page read, with the file's page address. */
  onPage?: (pagePath: string, progress: OcrProgress) => void;
  /** The run's cancel flag (an Int32Array cell over shared memory; 1 = cancelled). Default none. */
  cancel?: SharedArrayBuffer | null;
}

/** The reader for one file of a batch (see PrepareContext.ocrReader). */
export function ocrReaderFor(hooks: OcrHooks): (job: FileJob, sha256: string, onPage: () => void) => PageReader {
  const flag = hooks.cancel ? new Int32Array(hooks.cancel) : null;
  return (job, sha256, extend) => {
    const model = ocrModelId();
    return pageReader(model, threadEngine, ocrCacheOf(hooks.db, sha256, model, hooks.withLock), {
      cancelled: () => flag !== null && Atomics.load(flag, 0) === 1,
      onPage: (progress) => {
        extend();
        hooks.onPage?.(job.pagePath, progress);
      },
    });
  };
}
