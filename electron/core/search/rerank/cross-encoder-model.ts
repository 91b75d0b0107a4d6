/**
 * The cross-encoder's model, held for its reranker: loaded once into its own worker thread (`rerank-worker.ts`), from
 * the folders and hub the embedding model uses, with progress. The first load is waited for (unless told not to wait
 * for a download); a failed load is remembered with a backoff (in memory and in the models folder, for the next CLI
 * process) and its reason returned at once until the backoff is over, {@link CrossEncoderModel.retry} is called or
 * the model's files appear on disk; a retry after the backoff runs in the background, so no search waits for it.
 */
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import {
  forgetLoadFailure,
  readLoadFailure,
  stillBackingOff,
  writeLoadFailure,
  type LoadFailure,
} from '../../embed/load-failure';
import {
  hubSettings,
  locateModel,
  lookedIn,
  placesFor,
  whyNotLoaded,
  type FileProgress,
} from '../../embed/model-files';
import { WorkerClient, spawnWorker } from '../../workers/rpc';
import type { CrossEncoderOptions } from './cross-encoder';
import type { RerankReply, RerankRequest } from './rerank-worker';

/** Where the model is and how it is had: the reranker's options less its scoring limits, with the model id. */
type ScoringLimits = 'batchSize' | 'maxPassageChars' | 'maxTokens';
export type ModelSource = Omit<CrossEncoderOptions, ScoringLimits> & { modelId: string };

/** The file that keeps the reranker's last failed load across runs (beside the embedding model's). */
const FAILURE_FILE = '.rerank-load-failure.json';

/** A loaded model: scores batches of pairs in its worker. */
export class LoadedCrossEncoder {
  private busy = 0;

  constructor(
    private readonly worker: Worker,
    private readonly client: WorkerClient<RerankRequest, RerankReply, FileProgress>,
  ) {}

  /** One relevance score per passage (already cut to length) for `query`. */
  async score(query: string, passages: string[], maxTokens: number): Promise<number[]> {
    const reply = await this.call({ type: 'score', query, passages, maxTokens });
    if (reply.type !== 'scores' || reply.scores.length !== passages.length) {
      const got = reply.type === 'scores' ? reply.scores.length : 'no';
      throw new Error(`the model gave ${got} scores for ${passages.length} pairs`);
    }
    return reply.scores;
  }

  /** Send a request; the worker keeps the process alive only while it works (a CLI run still exits). */
  async call(request: RerankRequest, onNote?: (progress: FileProgress) => void): Promise<RerankReply> {
    if (this.busy++ === 0) this.worker.ref();
    try {
      return await this.client.call(request, [], onNote);
    } finally {
      if (--this.busy === 0) this.worker.unref();
    }
  }

  /** Stop the worker (it finishes the batch in hand and exits; see closeGracefully); calls still running reject. */
  close(): Promise<void> {
    return this.client.closeGracefully();
  }
}

/** Holds the cross-encoder model of one reranker; see the file comment. */
export class CrossEncoderModel {
  private loading: Promise<LoadedCrossEncoder | string> | null = null;
  private failure: LoadFailure | null = null;
  /** While a load runs in the background: the reason callers get meanwhile. */
  private retrying: string | null = null;
  private readonly key: string;
  private readonly now: () => number;

  constructor(private readonly source: ModelSource) {
    const { modelId, localModelDir, remoteHost, allowDownload, dtype } = source;
    this.key = JSON.stringify({ modelId, localModelDir, remoteHost, allowDownload, dtype });
    this.now = source.now ?? Date.now;
  }

  /** The loaded model, or why there is none. */
  get(): Promise<LoadedCrossEncoder | string> {
    if (this.loading) return this.retrying !== null ? Promise.resolve(this.retrying) : this.loading;
    const failure = this.rememberedFailure();
    if (failure && stillBackingOff(failure, this.now(), this.source)) return Promise.resolve(failure.reason);
    const meanwhile = failure ? failure.reason : this.downloadNotWaitedFor();
    const loading = this.load(failure?.failures ?? 0);
    this.loading = loading;
    this.retrying = meanwhile;
    // A failure is not kept as the current load: the next call decides from the remembered failure.
    void loading.then((got) => {
      if (this.loading !== loading) return;
      this.retrying = null;
      if (typeof got === 'string') this.loading = null;
    });
    return meanwhile !== null ? Promise.resolve(meanwhile) : loading;
  }

  /** Forget a failed load; a background retry under way is then waited for by the next call. */
  retry(): void {
    this.failure = null;
    this.retrying = null;
    if (!this.source.downloadDir) forgetLoadFailure(this.failureFile());
  }

  /** Resolves once no load is under way (a download or retry in the background has succeeded or failed). */
  async settled(): Promise<void> {
    await this.loading;
  }

  /** Stop the model's worker. */
  async close(): Promise<void> {
    const current = await this.loading;
    this.loading = null;
    if (current && typeof current !== 'string') await current.close();
  }

  /** What reranks say while the model downloads in the background, or null when they wait for it. */
  private downloadNotWaitedFor(): string | null {
    const { source } = this;
    if (source.waitForDownload ?? true) return null;
    const onDisk = locateModel(source, source.modelId, source.dtype ?? 'q8').onDisk;
    if (!(source.allowDownload ?? true) || onDisk) return null;
    const meanwhile = 'until it is ready the passages keep their fused order';
    return `Reranker model "${source.modelId}" is being downloaded; ${meanwhile}.`;
  }

  private failureFile(): string {
    return path.join(this.source.modelsDir, FAILURE_FILE);
  }

  /** The last failure of this configuration, unless the model's files have since been put on disk. */
  private rememberedFailure(): LoadFailure | null {
    this.failure ??= readLoadFailure(this.failureFile(), this.key);
    if (!this.failure) return null;
    const onDisk = locateModel(this.source, this.source.modelId, this.source.dtype ?? 'q8').onDisk;
    return onDisk ? null : this.failure;
  }

  private async load(failuresBefore: number): Promise<LoadedCrossEncoder | string> {
    const { source } = this;
    const { modelId, onProgress } = source;
    const dtype = source.dtype ?? 'q8';
    const location = locateModel(source, modelId, dtype);
    const hub = hubSettings(source, location, source.allowDownload ?? true);
    onProgress?.({ modelId, status: location.onDisk ? 'loading' : 'downloading' });
    const started = hub.onDisk || hub.allowDownload ? startWorker() : null;
    try {
      if (!started) throw new Error('not on disk');
      await started.call({ type: 'load', modelId, dtype, hub }, (p) => onProgress?.({ modelId, ...p }));
      onProgress?.({ modelId, status: 'ready' });
      if (failuresBefore > 0) this.retry();
      return started;
    } catch (error) {
      await started?.close();
      const why = whyNotLoaded(hub, modelId, error instanceof Error ? error.message : String(error));
      const places = placesFor(lookedIn(source, modelId));
      const reason =
        `Reranker model "${modelId}" ${why}. To use it, put its files in ${places}; ` +
        'until then the passages keep their fused order.';
      this.failure = { key: this.key, reason, failedAt: this.now(), failures: failuresBefore + 1 };
      if (!source.downloadDir) writeLoadFailure(this.failureFile(), this.failure);
      onProgress?.({ modelId, status: 'failed', message: reason });
      return reason;
    }
  }
}

/** Start a cross-encoder worker (idle: it does not keep the process alive until asked something). */
function startWorker(): LoadedCrossEncoder {
  const worker = spawnWorker(() => new URL('./rerank-worker.ts', import.meta.url), 'rerank-worker.cjs');
  worker.unref();
  return new LoadedCrossEncoder(worker, new WorkerClient(worker, 'the cross-encoder worker'));
}
