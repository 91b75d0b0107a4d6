/**
 * Scheduling indexing runs: at most one run per knowledge base at a time (a request during a run
 * queues exactly one more), a pool of ingest worker threads shared by all knowledge bases that
 * prepare and write batches of files, progress events throttled to a few per second, and a clean
 * stop that aborts runs between batches.
 */
import fs from 'node:fs';
import os from 'node:os';
import type { IngestStatus } from '../../../shared/models';
import type { CoreContext } from '../store/context';
import { now } from '../store/context';
import { listFolders } from '../kb/folders';
import { WorkerClient, spawnWorker } from '../workers/rpc';
import type { Embedder } from '../embed/embedder';
import { newWriteLock, type FileResult } from './batch';
import type { IngestNote, IngestRequest } from './ingest-worker';
import type { FileJob } from './prepare';
import { writeProblem } from './page-store';
import { IngestPool } from './worker-pool';
import { runFiles, runFull, type RunDeps, type RunOptions } from './run';
import { ocrModelId } from './ocr-reading';
import { idleCounters, snapshot, storelessSnapshot, type RunCounters } from './status';

/** How long close() waits for runs to stop, then for workers to exit, in ms. */
const CLOSE_GRACE_MS = 5000;

/** Wait for `work` to settle, but no longer than `ms`. */
async function settleWithin(work: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)));
  await Promise.race([work.then(() => undefined, () => undefined), limit]);
  clearTimeout(timer);
}

/** Options of the indexer. */
export interface IndexerOptions extends Partial<RunOptions> {
  /** Least time between two progress events of one knowledge base, in ms. Default 150 (0–2000). */
  progressIntervalMs?: number;
  /** The file-size cap in force for the next run (the setting); `maxFileBytes`, when given, wins. */
  maxFileBytesNow?: () => number;
  /** Whether OCR is on for the next run (the setting); `ocr`, when given, wins. Default: on. */
  ocrNow?: () => boolean;
  /** Ingest worker threads. Default: one per CPU core, at most 4 (1–16). Writes take turns; reading,
   *  parsing and tokenizing run side by side. */
  workers?: number;
}

interface KbRun {
  counters: RunCounters;
  running: Promise<void> | null;
  /** A full run is wanted (set by start; a start during a run queues exactly one more). */
  wantFull: boolean;
  pendingFiles: Map<string, Set<string>>;
  lastEmit: number;
  /** Aborted when the knowledge base is deleted: its run stops for good and never touches its file again. */
  stop: AbortController;
  /** Aborted by `cancel`: the run in progress stops at its next batch (OCR at its next page). */
  cancel: AbortController;
}

/** Why a run stopped by `cancel` ended as `cancelled`. */
const CANCELLED = 'indexing was cancelled; the next run goes on from where it stopped';

/** Why a run ended as `cancelled`. */
const DELETED = 'the knowledge base was deleted while it was being indexed; nothing of it was kept';

/** Runs and tracks indexing for every knowledge base of one core. */
export class Indexer {
  private readonly runs = new Map<string, KbRun>();
  private readonly abort = new AbortController();
  private readonly workers: IngestPool;
  private readonly options: RunOptions & { progressIntervalMs: number; maxFileBytesNow?: () => number; ocrNow?: () => boolean };

  /**
   * `workerModule`: the ingest worker's entry module when running from sources (the facade's, which
   * names the page features; bundled builds start `ingest-worker.cjs`).
   */
  constructor(
    private readonly ctx: CoreContext,
    private readonly embedder: () => Promise<Embedder | string>,
    private readonly workerModule: () => URL,
    options: IndexerOptions = {},
  ) {
    const workerCount = options.workers ?? Math.min(4, Math.max(1, os.availableParallelism?.() ?? os.cpus().length));
    const spawn = (n: number) =>
      new WorkerClient<IngestRequest, FileResult[], IngestNote>(spawnWorker(this.workerModule, 'ingest-worker.cjs'), `ingest worker ${n}`);
    this.workers = new IngestPool(workerCount, spawn, newWriteLock());
    this.options = {
      maxFileBytes: options.maxFileBytes ?? 50 * 1024 * 1024,
      maxFileBytesNow: options.maxFileBytes === undefined ? options.maxFileBytesNow : undefined,
      concurrency: options.concurrency ?? 2 * workerCount,
      batchFiles: options.batchFiles ?? 128,
      embedBatch: options.embedBatch ?? 32,
      progressIntervalMs: options.progressIntervalMs ?? 150,
      ...(options.fileTimeLimitMs !== undefined ? { fileTimeLimitMs: options.fileTimeLimitMs } : {}),
      ...(options.ocr !== undefined ? { ocr: options.ocr } : { ocrNow: options.ocrNow }),
    };
  }

  /**
   * Cancel the knowledge base's run in progress and what is queued after it: it stops at its next batch, and OCR
   * at its next page (the pages read so far stay cached, so the next run goes on from there). Returns the status.
   */
  cancel(kbId: string): IngestStatus {
    const run = this.runs.get(kbId);
    if (run?.running) {
      run.wantFull = false;
      run.pendingFiles = new Map();
      run.cancel.abort();
    }
    return this.status(kbId);
  }

  /** The status of one knowledge base now; of a deleted one, its last run's counters (the file is not reopened). */
  status(kbId: string): IngestStatus {
    const run = this.runs.get(kbId);
    if (!this.kbExists(kbId)) return storelessSnapshot(kbId, run?.counters ?? idleCounters());
    return snapshot(this.ctx.kbFiles.get(kbId), kbId, this.kb(kbId).counters);
  }

  /** Start a full run in the background (or queue one after the current run). */
  start(kbId: string): IngestStatus {
    const run = this.kb(kbId);
    run.wantFull = true;
    run.running ??= this.loop(kbId, run);
    return this.status(kbId);
  }

  /** Run a full index of the knowledge base and resolve when it (and any queued run) is done. */
  async run(kbId: string): Promise<IngestStatus> {
    this.start(kbId);
    const run = this.kb(kbId);
    while (run.running) await run.running;
    return this.kbExists(kbId) ? this.status(kbId) : storelessSnapshot(kbId, run.counters);
  }

  /** Re-index these files of one folder (from the watcher). */
  update(kbId: string, folder: string, relPaths: string[]): void {
    const run = this.kb(kbId);
    let set = run.pendingFiles.get(folder);
    if (!set) run.pendingFiles.set(folder, (set = new Set()));
    for (const rel of relPaths) set.add(rel);
    run.running ??= this.loop(kbId, run);
  }

  /** Resolve when the knowledge base has no run in progress or queued. */
  async idle(kbId: string): Promise<void> {
    while (this.kb(kbId).running) await this.kb(kbId).running;
  }

  /** Forget a deleted knowledge base (its run is aborted at the next file). */
  forget(kbId: string): void {
    this.runs.get(kbId)?.stop.abort();
    this.runs.delete(kbId);
  }

  /**
   * Stop a knowledge base's run for good, before its file is deleted: abort it at its next batch and
   * wait (a bounded time) until it has let go of the file, so nothing writes into it or creates it again.
   */
  async stop(kbId: string): Promise<void> {
    const run = this.runs.get(kbId);
    if (!run) return;
    run.stop.abort();
    if (run.running) await settleWithin(run.running, CLOSE_GRACE_MS);
    if (this.runs.get(kbId) === run) this.runs.delete(kbId);
  }

  /** True while the knowledge base exists in the app database (another process may have deleted it). */
  private kbExists(kbId: string): boolean {
    return this.ctx.appDb.prepare(`SELECT 1 FROM knowledge_bases WHERE id = ?`).get(kbId) !== undefined;
  }

  /**
   * Abort every run between files, wait for them, and stop the workers. Always returns: a worker
   * stuck in a read the OS will not interrupt (a hung network share) is given up on after a grace
   * period instead of holding the host open past a SIGTERM.
   */
  async close(): Promise<void> {
    this.abort.abort();
    const runs = Promise.allSettled([...this.runs.values()].map((r) => r.running));
    await settleWithin(runs, CLOSE_GRACE_MS);
    await this.workers.close((work) => settleWithin(work, CLOSE_GRACE_MS));
    await settleWithin(runs, CLOSE_GRACE_MS); // closing the workers failed their batches, ending the runs
  }

  private kb(kbId: string): KbRun {
    let run = this.runs.get(kbId);
    if (!run) {
      const stop = new AbortController();
      run = { counters: idleCounters(), running: null, wantFull: false, pendingFiles: new Map(), lastEmit: 0, stop, cancel: new AbortController() };
      this.runs.set(kbId, run);
    }
    return run;
  }

  /**
   * Start the workers now rather than at the first file. Watching calls this: a worker's start-up
   * (loading the parsers, over a second) would otherwise delay the first change a watcher reports
   * past the two seconds in which a saved change should be searchable.
   */
  warm(): void {
    if (!this.abort.signal.aborted) this.workers.warm();
  }

  /** Run until nothing is queued: full runs first (they cover any watched file), then watched files. */
  private async loop(kbId: string, run: KbRun): Promise<void> {
    await Promise.resolve(); // so `running` is assigned before this can finish
    try {
      while (!this.abort.signal.aborted && !run.stop.signal.aborted && this.runs.get(kbId) === run) {
        if (run.wantFull) {
          run.wantFull = false;
          run.pendingFiles = new Map();
          await this.once(kbId, run, null);
        } else if (run.pendingFiles.size) {
          const files = run.pendingFiles;
          run.pendingFiles = new Map();
          await this.once(kbId, run, files);
        } else break;
      }
    } finally {
      run.running = null;
    }
  }

  private async once(kbId: string, run: KbRun, files: Map<string, Set<string>> | null): Promise<void> {
    if (!this.kbExists(kbId)) return; // deleted before this run began: opening its file would create it again
    const c: RunCounters = { ...idleCounters(), startedAt: now(), startedMs: Date.now() };
    const dbFile = this.ctx.kbFiles.file(kbId);
    run.counters = c;
    const gone = () => run.stop.signal.aborted || !this.kbExists(kbId);
    run.cancel = new AbortController();
    const signal = AbortSignal.any([this.abort.signal, run.stop.signal, run.cancel.signal]);
    // OCR in the workers looks at this flag between pages
    const cancel = new SharedArrayBuffer(4);
    signal.addEventListener('abort', () => Atomics.store(new Int32Array(cancel), 0, 1), { once: true });
    const onStalled = (job: FileJob, ms: number) => stalled(deps.db, job, ms);
    const deps: RunDeps = {
      db: this.ctx.kbFiles.get(kbId),
      folders: listFolders(this.ctx, kbId),
      indexBatch: (jobs, onFile, onOcrPage) => this.workers.index(dbFile, jobs, { onFile, onStalled, onOcrPage, cancel }),
      embedder: this.embedder,
      counters: c,
      progress: (force) => this.emit(kbId, run, force),
      signal,
      options: {
        ...this.options,
        maxFileBytes: this.options.maxFileBytesNow?.() ?? this.options.maxFileBytes,
        ocr: this.options.ocr ?? this.options.ocrNow?.() ?? true,
        ocrModel: ocrModelId(),
      },
      skipFolders: [this.ctx.dataDir],
      kbGone: gone,
    };
    try {
      if (!files) await runFull(deps);
      for (const [folderPath, rels] of files ?? []) {
        const folder = deps.folders.find((f) => f.path === folderPath);
        if (folder) await runFiles(deps, folder, [...rels]);
      }
      // Stopped by close(): not done — the next start resumes where this run left off.
      c.state = this.abort.signal.aborted ? 'idle' : run.cancel.signal.aborted ? 'cancelled' : 'done';
      if (run.cancel.signal.aborted && !this.abort.signal.aborted) c.error = CANCELLED;
    } catch (err) {
      c.state = 'error';
      c.error = err instanceof Error ? err.message : String(err);
      if (!gone()) console.error(`[sift] indexing ${kbId} failed:`, err);
    }
    await this.workers.release(dbFile);
    c.finishedAt = now();
    c.currentFile = null;
    if (gone()) return this.cancelled(kbId, c);
    if (this.runs.get(kbId) === run) this.emit(kbId, run, true);
  }

  /**
   * End a run whose knowledge base was deleted. Deleted by another process (a CLI ingest while the
   * app deletes), this one's writers may have created the file again after it went: remove it.
   */
  private cancelled(kbId: string, c: RunCounters): void {
    c.state = 'cancelled';
    c.error = DELETED;
    if (!this.kbExists(kbId)) this.ctx.kbFiles.remove(kbId);
  }

  private emit(kbId: string, run: KbRun, force = false): void {
    if (run.stop.signal.aborted) return; // its file is being deleted: a snapshot would open it again
    const t = Date.now();
    if (!force && t - run.lastEmit < this.options.progressIntervalMs) return;
    run.lastEmit = t;
    this.ctx.events.emit('ingest.progress', snapshot(this.ctx.kbFiles.get(kbId), kbId, run.counters));
  }
}

/**
 * Record a file whose reading or parsing outlasted its time limit as failed, with its size and time,
 * so the next run does not try it again until it changes.
 */
function stalled(db: import('better-sqlite3').Database, job: FileJob, limitMs: number): void {
  let stat = { size: 0, mtimeMs: 0 };
  try {
    const s = fs.statSync(job.absPath);
    stat = { size: s.size, mtimeMs: Math.trunc(s.mtimeMs) };
  } catch {
    // gone meanwhile: the next run drops it
  }
  const reason = `took longer than ${Math.round(limitMs / 1000)} s to read and was stopped; the rest of the folder was indexed`;
  writeProblem(db, { folder: job.folder, relPath: job.relPath, ...stat, sha256: null, status: 'failed', reason });
}
