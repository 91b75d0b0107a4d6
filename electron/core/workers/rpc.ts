/**
 * Request/response over a worker thread: each request gets an id, results come back in any
 * order, large results are transferred rather than copied, and a worker that crashes rejects
 * everything in flight with a clear error instead of leaving callers hanging. While it works on a
 * request, a worker may send notes about it (e.g. the file it is reading) to the caller.
 */
import { parentPort, Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

/**
 * How long a worker asked to close (see WorkerClient.closeGracefully) may take to finish what it has in
 * hand and exit before it is terminated. Default 5 s.
 */
export const CLOSE_GRACE_MS = 5_000;

/** Main thread → worker: finish the requests in hand, run the worker's own clean-up, and exit. */
const CLOSE = { close: true } as const;

/**
 * Send a running `worker` the message that asks it to exit, and wait until it has; terminate it if it
 * has not after `graceMs`. Keeps the process alive meanwhile. The embedding worker (its own protocol)
 * and WorkerClient.closeGracefully both stop this way.
 */
export async function askToExit(worker: Worker, request: unknown, graceMs: number): Promise<void> {
  const exited = new Promise<'exited'>((resolve) => worker.once('exit', () => resolve('exited')));
  worker.postMessage(request);
  worker.ref();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), graceMs)));
  if ((await Promise.race([exited, late])) === 'late') await worker.terminate();
  clearTimeout(timer);
}

/** The answer to request `id`, or a note about it (`note` set, `ok` absent). */
interface Envelope<T, N> {
  id: number;
  ok?: boolean;
  value?: T;
  error?: string;
  note?: N;
}

/** Set by the Electron bundle (esbuild `define`): workers are compiled `.cjs` files beside main.cjs. */
declare const __SIFT_BUNDLED__: boolean | undefined;

/**
 * Start a worker. From sources, `moduleUrl()` names its `.ts` implementation (a thunk, because
 * `import.meta.url` is empty in the CommonJS bundle); in the Electron bundle, `bundledName` names
 * its compiled file beside the main bundle (e.g. `ingest-worker.cjs`).
 */
export function spawnWorker(moduleUrl: () => URL, bundledName: string): Worker {
  if (typeof __SIFT_BUNDLED__ !== 'undefined' && __SIFT_BUNDLED__) {
    return new Worker(path.join(__dirname, bundledName));
  }
  const entry = fileURLToPath(new URL('./entry.mjs', import.meta.url));
  return new Worker(entry, { workerData: { siftWorkerModule: moduleUrl().href } });
}

/** The calling side of a worker: `call(request)` resolves with the worker's answer. */
export class WorkerClient<Req, Res, Note = never> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (v: Res) => void; reject: (e: Error) => void; onNote?: (note: Note) => void }>();
  private failure: Error | null = null;
  private exited: number | null = null;

  constructor(
    private readonly worker: Worker,
    /** Names the worker in error messages, e.g. `the ingest worker`. */
    private readonly label: string,
  ) {
    worker.on('message', (msg: Envelope<Res, Note>) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      if (msg.ok === undefined) return p.onNote?.(msg.note as Note);
      this.pending.delete(msg.id);
      if (msg.ok) p.resolve(msg.value as Res);
      else p.reject(new Error(msg.error ?? `${label} failed`));
    });
    worker.on('error', (err) => this.failAll(new Error(`${label} crashed: ${err.message}`)));
    worker.on('exit', (code) => {
      this.exited = code;
      this.failAll(new Error(`${label} stopped (exit code ${code})`));
    });
  }

  /** Send one request; `onNote` hears the worker's notes about it. Rejects if the worker fails or has stopped. */
  call(request: Req, transfer: ArrayBuffer[] = [], onNote?: (note: Note) => void): Promise<Res> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Res>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onNote });
      this.worker.postMessage({ id, request }, transfer);
    });
  }

  /** Requests sent and not yet answered. */
  get inFlight(): number {
    return this.pending.size;
  }

  /** Stop the worker; anything in flight is rejected. */
  async close(): Promise<void> {
    this.failAll(new Error(`${this.label} was closed`));
    await this.worker.terminate();
  }

  /**
   * Stop a worker that runs native code which must not be cut off mid-call (an ONNX model: terminating
   * its thread while the runtime works can abort the whole process). Anything in flight is rejected at
   * once; the worker is asked to finish it, clean up (serveRequests' `onClose`) and exit, and is
   * terminated only if it has not after `graceMs` (default CLOSE_GRACE_MS). Resolves once it stopped.
   */
  async closeGracefully(graceMs = CLOSE_GRACE_MS): Promise<void> {
    this.failAll(new Error(`${this.label} was closed`));
    if (this.exitCode === null) await askToExit(this.worker, CLOSE, graceMs);
  }

  /** The worker's exit code once it has stopped (0 when it ended on its own), else null. */
  get exitCode(): number | null {
    return this.exited;
  }

  private failAll(err: Error): void {
    this.failure ??= err;
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }
}

/**
 * The worker side: answer every request with `handler`, which may `note` things about it to the
 * caller meanwhile. `transferOf` names the buffers of a result to transfer instead of copy. Asked to
 * close (WorkerClient.closeGracefully), it lets the requests in hand finish, runs `onClose` (release
 * a model, say) and closes its port, so the thread ends on its own.
 */
export function serveRequests<Req, Res, Note = never>(
  handler: (request: Req, note: (note: Note) => void) => Promise<Res>,
  transferOf: (result: Res) => ArrayBuffer[] = () => [],
  onClose: () => Promise<void> | void = () => undefined,
): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests must run inside a worker thread');
  const inHand = new Set<Promise<unknown>>();
  port.on('message', (msg: { id: number; request: Req } | typeof CLOSE) => {
    if ('close' in msg) {
      void Promise.allSettled([...inHand]).then(onClose).catch(() => undefined).finally(() => port.close());
      return;
    }
    const note = (value: Note) => port.postMessage({ id: msg.id, note: value } satisfies Envelope<Res, Note>);
    const done = handler(msg.request, note).then(
      (value) => port.postMessage({ id: msg.id, ok: true, value } satisfies Envelope<Res, Note>, transferOf(value)),
      (err: unknown) => {
        const error = err instanceof Error ? err.message : String(err);
        port.postMessage({ id: msg.id, ok: false, error } satisfies Envelope<Res, Note>);
      },
    );
    inHand.add(done);
    void done.finally(() => inHand.delete(done));
  });
}

