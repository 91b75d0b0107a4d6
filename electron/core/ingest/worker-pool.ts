/**
 * The pool of ingest worker threads, and the per-file time limit that really stops. A parser stuck in
 * synchronous work cannot be interrupted from its own thread (a Promise.race never gets to run), so
 * the pool watches each worker: the worker names every file as it starts reading it and says when a
 * batch starts writing; a worker still on one file past that file's time limit is terminated and
 * replaced. It has written nothing of its batches (a batch writes all its files in one transaction at
 * its end, and writing is never cut off), so every batch it held is given to another worker again,
 * without the file that stalled, which is reported to the caller and counted as failed.
 */
import type { WorkerClient } from '../workers/rpc';
import type { FileResult } from './batch';
import type { IngestNote, IngestRequest } from './ingest-worker';
import type { OcrProgress } from '../ocr/reader';
import { FILE_TIME_LIMIT_MS, type FileJob } from './prepare';

type Client = WorkerClient<IngestRequest, FileResult[], IngestNote>;

/** One worker and what the watchdog knows of it. */
interface Slot {
  client: Client;
  /** Calls in flight, each with the file it last started and when (null while it writes or waits its turn). */
  calls: Set<CallState>;
  /** Set when the watchdog gave up on the worker: the page address of the file it stalled on. */
  stalledOn: string | null;
}

interface CallState {
  file: string | null;
  since: number;
  limitMs: number;
  writing: boolean;
}

/** The caller's part in a batch: hear each file as it starts, and each file given up on. */
export interface BatchHooks {
  onFile: (pagePath: string) => void;
  /** A file whose reading or parsing outlasted its time limit: the worker was stopped. */
  onStalled: (job: FileJob, limitMs: number) => void;
  /** Each page OCR read (the time limit counts again from each). Default none. */
  onOcrPage?: (pagePath: string, progress: OcrProgress) => void;
  /** The run's cancel flag (shared memory, 1 = cancelled): OCR stops between pages. Default none. */
  cancel?: SharedArrayBuffer;
}

/** How often the watchdog looks, ms. */
const WATCH_EVERY_MS = 250;

/** Ingest workers shared by every knowledge base of a core. */
export class IngestPool {
  private slots: Slot[] = [];
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly spawn: (n: number) => Client,
    private readonly lock: SharedArrayBuffer,
  ) {}

  /** Start the workers now rather than at the first file. */
  warm(): void {
    if (!this.closed) this.fill();
  }

  /**
   * Index a batch on the least busy worker; one result per job, in order. A file that stalls its
   * worker comes back `failed` (after `hooks.onStalled`); the rest of its batch is indexed elsewhere.
   */
  async index(dbFile: string, jobs: FileJob[], hooks: BatchHooks): Promise<FileResult[]> {
    const results = new Map<FileJob, FileResult>();
    let todo = jobs;
    while (todo.length > 0) {
      const slot = this.fill().reduce((a, b) => (b.calls.size < a.calls.size ? b : a));
      const call: CallState = { file: null, since: Date.now(), limitMs: FILE_TIME_LIMIT_MS, writing: false };
      slot.calls.add(call);
      this.watch();
      try {
        const request: IngestRequest = { kind: 'batch', dbFile, jobs: todo, lock: this.lock, ...(hooks.cancel ? { cancel: hooks.cancel } : {}) };
        const done = await slot.client.call(request, [], (note) => {
          call.since = Date.now();
          if ('writing' in note) call.writing = true;
          else if ('ocr' in note) {
            const { file, ...progress } = note.ocr;
            hooks.onOcrPage?.(file, progress);
          } else {
            call.file = note.reading;
            call.limitMs = todo.find((j) => j.pagePath === note.reading)?.timeLimitMs ?? FILE_TIME_LIMIT_MS;
            hooks.onFile(note.reading);
          }
        });
        todo.forEach((job, i) => results.set(job, done[i]!));
        todo = [];
      } catch (err) {
        if (slot.stalledOn === null || this.closed) throw err;
        const stalled = todo.find((j) => j.pagePath === slot.stalledOn && j.pagePath === call.file);
        if (stalled) {
          hooks.onStalled(stalled, call.limitMs);
          results.set(stalled, 'failed');
        }
        todo = todo.filter((j) => j !== stalled);
      } finally {
        slot.calls.delete(call);
      }
    }
    return jobs.map((job) => results.get(job)!);
  }

  /** Let every worker close its connection to a knowledge base's file (after a run). */
  async release(dbFile: string): Promise<void> {
    await Promise.allSettled(this.slots.map((s) => s.client.call({ kind: 'release', dbFile })));
  }

  /** Stop the watchdog and every worker; batches in flight are rejected. */
  async close(settle: (work: Promise<unknown>) => Promise<void>): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await Promise.all(this.slots.map((s) => settle(s.client.close())));
    this.slots = [];
  }

  private fill(): Slot[] {
    while (this.slots.length < this.size) {
      this.slots.push({ client: this.spawn(this.slots.length + 1), calls: new Set(), stalledOn: null });
    }
    return this.slots;
  }

  /** Look at the workers every WATCH_EVERY_MS while any batch is in flight. */
  private watch(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), WATCH_EVERY_MS);
    this.timer.unref();
  }

  /** Replace each worker whose latest file has outlasted its limit (never one that is writing). */
  private check(): void {
    const now = Date.now();
    let busy = false;
    for (const slot of [...this.slots]) {
      const calls = [...slot.calls];
      busy ||= calls.length > 0;
      if (calls.some((c) => c.writing)) continue;
      const latest = calls.filter((c) => c.file !== null).sort((a, b) => b.since - a.since)[0];
      if (!latest || now - latest.since <= latest.limitMs) continue;
      slot.stalledOn = latest.file;
      this.slots = this.slots.filter((s) => s !== slot);
      void slot.client.close();
    }
    if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }
}
