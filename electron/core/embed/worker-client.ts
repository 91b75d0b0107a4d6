/**
 * The main thread's side of the embedding worker: a queue that sends one batch at a time, matches
 * each reply to its request, and turns every way a worker can fail into a rejected promise — a
 * failed batch rejects that batch only; a crash or exit rejects everything waiting and every later
 * call, so nothing hangs on a dead worker.
 */
import type { Worker } from 'node:worker_threads';
import { SiftError } from '../../../shared/errors';
import { askToExit, CLOSE_GRACE_MS } from '../workers/rpc';
import type { CloseRequest, EmbedRequest, ProgressReply, ReadyReply, WorkerReply } from './worker-protocol';

/** Options for {@link EmbedWorkerClient}. */
export interface EmbedWorkerClientOptions {
  /** What the worker runs, for error messages, e.g. `embedding model "Xenova/multilingual-e5-small"`. */
  label: string;
  /** Called for each progress message while the model loads. Default: ignored. */
  onProgress?: (progress: ProgressReply) => void;
}

/** The model could not be loaded; the worker's own reason is the message. */
export class ModelLoadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelLoadError';
  }
}

interface Job {
  texts: string[];
  resolve: (vectors: Float32Array[]) => void;
  reject: (error: Error) => void;
}

/** Talks to one embedding worker; see the file comment for its failure rules. */
export class EmbedWorkerClient {
  /** Resolves when the model has loaded; rejects with {@link ModelLoadError} or a crash SiftError. */
  readonly ready: Promise<ReadyReply>;
  private readonly worker: Worker;
  private readonly options: EmbedWorkerClientOptions;
  private readonly queue: Job[] = [];
  private current: { id: number; job: Job } | null = null;
  private nextId = 1;
  private loading = true;
  private broken: Error | null = null;
  private exited: number | null = null;
  private settleReady!: { resolve: (reply: ReadyReply) => void; reject: (error: Error) => void };

  /** Wrap a freshly started worker; listens to it at once so no early message is missed. */
  constructor(worker: Worker, options: EmbedWorkerClientOptions) {
    this.worker = worker;
    this.options = options;
    this.ready = new Promise((resolve, reject) => (this.settleReady = { resolve, reject }));
    worker.on('message', (reply: WorkerReply) => this.onReply(reply));
    worker.on('error', (error: Error) => this.breakDown(this.crash(`it threw: ${error.message}`)));
    worker.on('messageerror', (error: Error) => this.breakDown(this.crash(`a reply could not be read: ${error.message}`)));
    worker.on('exit', (code: number) => {
      this.exited = code;
      this.breakDown(this.crash(`it exited with code ${code}`));
    });
  }

  /** Embed one batch. Batches run one after another in call order. */
  embed(texts: string[]): Promise<Float32Array[]> {
    if (this.broken) return Promise.reject(this.broken);
    return new Promise((resolve, reject) => {
      this.queue.push({ texts, resolve, reject });
      this.pump();
    });
  }

  /**
   * Stop the worker; batches still waiting reject with SiftError('cancelled'). The worker is asked to
   * finish the batch in hand and exit (see CloseRequest); one that has not exited after `graceMs`
   * (default CLOSE_GRACE_MS, 5 s: a batch takes well under a second), or is still loading its model,
   * is terminated. Resolves once it has stopped. Safe to call twice.
   */
  async close(graceMs = CLOSE_GRACE_MS): Promise<void> {
    // A worker still loading runs no batch, and may be downloading for minutes: stop it now.
    const grace = this.loading ? 0 : graceMs;
    if (!this.broken) {
      this.breakDown(new SiftError('cancelled', `The ${this.options.label} was closed; create a new embedder to embed again.`));
    }
    if (this.exitCode !== null) return;
    const request: CloseRequest = { type: 'close' };
    if (grace === 0) await this.worker.terminate();
    else await askToExit(this.worker, request, grace);
  }

  /** The worker's exit code once it has stopped (0 when it ended on its own), else null. */
  get exitCode(): number | null {
    return this.exited;
  }

  private crash(how: string): SiftError {
    return new SiftError(
      'internal',
      `The worker running the ${this.options.label} stopped unexpectedly (${how}). ` +
        'Its model files may be damaged or memory ran out; restart Sift, and delete and re-download the model if it happens again.',
    );
  }

  private onReply(reply: WorkerReply): void {
    switch (reply.type) {
      case 'progress':
        this.options.onProgress?.(reply);
        return;
      case 'ready':
        this.loading = false;
        this.settleReady.resolve(reply);
        this.pump();
        return;
      case 'load-failed':
        this.breakDown(new ModelLoadError(reply.message));
        return;
      case 'embedded':
      case 'failed':
        this.finish(reply);
        return;
    }
  }

  private finish(reply: Extract<WorkerReply, { type: 'embedded' | 'failed' }>): void {
    if (!this.current || this.current.id !== reply.id) return; // a reply to a request already given up on
    const { job } = this.current;
    this.current = null;
    if (reply.type === 'embedded') job.resolve(reply.vectors);
    else job.reject(new SiftError('internal', `Embedding a batch with the ${this.options.label} failed: ${reply.message}`));
    this.pump();
  }

  private pump(): void {
    const job = this.loading || this.current || this.broken ? undefined : this.queue.shift();
    if (job) {
      const id = this.nextId++;
      this.current = { id, job };
      const request: EmbedRequest = { type: 'embed', id, texts: job.texts };
      this.worker.postMessage(request);
    }
    // An idle worker must not keep the process alive (a CLI run that forgets close() still exits).
    if (this.loading || this.current) this.worker.ref();
    else this.worker.unref();
  }

  /** The first failure wins: later ones (the exit after an error) add nothing. */
  private breakDown(error: Error): void {
    if (this.broken) return;
    this.broken = error;
    this.settleReady.reject(error);
    this.ready.catch(() => undefined); // the creator awaits `ready`; later rejections are reported per call
    const waiting = [...(this.current ? [this.current.job] : []), ...this.queue.splice(0)];
    this.current = null;
    for (const job of waiting) job.reject(error);
  }
}
