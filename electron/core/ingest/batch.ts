/**
 * Indexing a batch of files, start to finish, inside an ingest worker: prepare each file (read,
 * parse, chunk, tokenize), then write every outcome in ONE transaction. A crash leaves each file
 * either as it was or wholly new (never half a file); a store failure rolls the whole batch back.
 * Workers write one at a time: a process-wide lock in shared memory hands the database over
 * exactly when the previous batch commits, instead of SQLite's sleep-and-retry.
 */
import type Database from 'better-sqlite3';
import { cached } from '../store/statements';
import { settleKeywordTotals } from '../store/keyword-totals';
import {
  documentAt, heldRows, removeDocument, touchDocument, writeKeywordRows, writePage, writeProblem, type WriteOptions,
} from './page-store';
import { NO_PAGE_FEATURES, type PageFeature } from './page-features';
import { prepareFile, type FileJob, type FileOutcome } from './prepare';
import { ocrReaderFor } from './ocr-reading';
import type { OcrProgress } from '../ocr/reader';

/** What became of one file of a batch, for the run's counters. */
export type FileResult = 'indexed' | 'failed' | 'skipped' | 'unchanged' | 'removed' | 'absent';

/** A lock shared by every ingest worker of the process (an Int32Array over a SharedArrayBuffer). */
export function newWriteLock(): SharedArrayBuffer {
  return new SharedArrayBuffer(4);
}

function withLock<T>(lock: SharedArrayBuffer | null, fn: () => T): T {
  if (!lock) return fn();
  const cell = new Int32Array(lock);
  while (Atomics.compareExchange(cell, 0, 0, 1) !== 0) Atomics.wait(cell, 0, 1);
  try {
    return fn();
  } finally {
    Atomics.store(cell, 0, 0);
    Atomics.notify(cell, 0, 1);
  }
}

/** How a batch is indexed. */
export interface BatchOptions {
  /** The process-wide write lock (newWriteLock) the workers share. Default none: this connection writes alone. */
  lock?: SharedArrayBuffer | null;
  /** Hears the page address of each file as its reading starts. Default none. */
  onFile?: (pagePath: string) => void;
  /** Hears that every file is prepared and the batch is about to be written (waiting for the lock first). Default none. */
  onWrite?: () => void;
  /** Page features every page is written to (see page-features.ts). Default none. */
  features?: readonly PageFeature[];
  /** Hears each page OCR reads, with the file's page address. Default none. */
  onOcrPage?: (pagePath: string, progress: OcrProgress) => void;
  /** The run's cancel flag (shared memory, 1 = cancelled): OCR stops between pages. Default none. */
  cancel?: SharedArrayBuffer | null;
}

/**
 * Prepare and store `jobs`. Returns one result per job, in order. A store failure (disk full, a
 * broken database) throws and nothing of the batch is kept.
 */
export async function indexBatch(db: Database.Database, jobs: FileJob[], options: BatchOptions = {}): Promise<FileResult[]> {
  const outcomes: FileOutcome[] = [];
  const lock = options.lock ?? null;
  const ocrReader = ocrReaderFor({ db, withLock: (write) => withLock(lock, write), onPage: options.onOcrPage, cancel: options.cancel });
  for (const job of jobs) {
    options.onFile?.(job.pagePath);
    outcomes.push(await prepareFile(job, { ocrReader }));
  }
  options.onWrite?.();
  return withLock(options.lock ?? null, () => writeBatch(db, jobs, outcomes, options.features));
}

/**
 * Write prepared outcomes (one per job) in one transaction. The keyword rows of every page are held
 * back and written last, so the whole batch makes one keyword-index segment (see page-store.ts).
 */
export function writeBatch(
  db: Database.Database,
  jobs: FileJob[],
  outcomes: FileOutcome[],
  features: readonly PageFeature[] = NO_PAGE_FEATURES,
): FileResult[] {
  const results = db
    .transaction(() => {
      const held = heldRows();
      const results = jobs.map((job, i) => applyOrFail(db, job, outcomes[i]!, { features, held }));
      writeKeywordRows(db, held);
      return results;
    })
    .immediate();
  // The keyword rows of the pages it replaced come off the index's totals (store/keyword-totals.ts).
  settleKeywordTotals(db);
  return results;
}

/**
 * Write one outcome. A page whose `wiki/` address is already taken by a file of another folder
 * fails that file alone instead of the batch; it is recorded without a fingerprint, so every run
 * retries it until the clash is gone. Checked before writing: inside the batch's transaction there
 * is no savepoint per file to roll back to.
 */
function applyOrFail(db: Database.Database, job: FileJob, outcome: FileOutcome, write: WriteOptions): FileResult {
  if (outcome.kind === 'page' && addressTaken(db, job)) {
    const reason = `its page address ${job.pagePath} is already used by another file; rename one of them`;
    writeProblem(db, { folder: job.folder, relPath: job.relPath, size: 0, mtimeMs: 0, sha256: null, status: 'failed', reason });
    return 'failed';
  }
  return apply(db, job, outcome, write);
}

/** True when another file's page has this job's address. */
function addressTaken(db: Database.Database, job: FileJob): boolean {
  const owner = cached(db, `SELECT d.folder, d.rel_path AS relPath FROM pages p JOIN documents d ON d.id = p.document_id WHERE p.path = ?`).get(job.pagePath) as
    | { folder: string; relPath: string }
    | undefined;
  return owner !== undefined && (owner.folder !== job.folder || owner.relPath !== job.relPath);
}

function apply(db: Database.Database, job: FileJob, outcome: FileOutcome, write: WriteOptions): FileResult {
  switch (outcome.kind) {
    case 'page':
      writePage(db, outcome.page, write);
      return 'indexed';
    case 'problem':
      writeProblem(db, outcome.problem);
      return outcome.problem.status;
    case 'unchanged': {
      const known = documentAt(db, job.folder, job.relPath);
      if (!known) return 'absent';
      touchDocument(db, known.id, outcome.size, outcome.mtimeMs);
      // Same bytes, same verdict: a file that failed or was skipped still counts as such in this run.
      return known.status === 'indexed' ? 'unchanged' : known.status;
    }
    case 'gone': {
      const known = documentAt(db, job.folder, job.relPath);
      if (!known) return 'absent';
      removeDocument(db, known.id);
      return 'removed';
    }
    case 'cancelled':
      return 'absent';
  }
}
