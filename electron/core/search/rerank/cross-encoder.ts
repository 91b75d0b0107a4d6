/**
 * The cross-encoder reranker: a sequence-classification model run by transformers.js reads the query and each
 * passage together and gives the pair one relevance logit; the candidates are ordered by it. The model is found and
 * downloaded (with progress) exactly like the embedding model — the same models folder, local folder and hub — on
 * the first rerank; a load that fails is remembered with a backoff, so later searches keep their fused order at
 * once instead of waiting on the network each time.
 *
 * It runs in the calling thread: ONNX Runtime computes off the JavaScript thread, and only the tokenizing of a few
 * dozen capped passages happens on it.
 */
import path from 'node:path';
import type { PreTrainedModel, PreTrainedTokenizer, Tensor } from '@huggingface/transformers';
import { SiftError } from '../../../../shared/errors';
import type { ModelProgress } from '../../../../shared/models';
import type { Settings } from '../../../../shared/settings';
import { checkBatchSize, inBatches } from '../../embed/embedder';
import {
  forgetLoadFailure,
  readLoadFailure,
  stillBackingOff,
  writeLoadFailure,
  type BackoffOptions,
  type LoadFailure,
} from '../../embed/load-failure';
import {
  checkModelId,
  hubSettings,
  locateModel,
  lookedIn,
  placesFor,
  progressForwarder,
  whyNotLoaded,
  withHubSettings,
  type HubSettings,
  type ModelDtype,
} from '../../embed/model-files';
import type { ModelsFolder } from '../../embedding';
import type { RerankOutcome, Reranker } from './types';

/**
 * Default model: BAAI's bge-reranker-base as converted for transformers.js (`onnx/model_quantized.onnx`, 279 MB,
 * XLM-RoBERTa, MIT licence). Trained for Chinese and English — Sift's two languages — with a multilingual
 * tokenizer; about the size of the embedding model's big brother, so it runs on a laptop CPU.
 */
export const DEFAULT_RERANK_MODEL_ID = 'Xenova/bge-reranker-base';

/** Options for {@link createCrossEncoderReranker}. */
export interface CrossEncoderOptions extends BackoffOptions {
  /** Hugging Face id of a sequence-classification cross-encoder with ONNX weights.
   *  Default 'Xenova/bge-reranker-base'. */
  modelId?: string;
  /** Folder models are downloaded to and looked up in (`<data dir>/models`, the embedding model's too). Required. */
  modelsDir: string;
  /** A folder that already holds `<modelId>/…` files; checked before modelsDir. Default none. */
  localModelDir?: string;
  /** Download into this folder instead of modelsDir, which is then only read (a throw-away run). Default modelsDir. */
  downloadDir?: string;
  /** Download the model on first use when it is not on disk. Default true. */
  allowDownload?: boolean;
  /** Where to download from: the hub or a mirror with its layout, e.g. 'https://hf-mirror.com/'. Default the hub. */
  remoteHost?: string;
  /** Quantisation: 'q8' loads `onnx/model_quantized.onnx`, 'fp32' `onnx/model.onnx`. Default 'q8'. */
  dtype?: ModelDtype;
  /** Pairs per model call. Default 8 (1–256); larger batches pad more and use more memory. */
  batchSize?: number;
  /** Characters of a passage the model reads; the rest is cut. Default 2,000 (100–100,000). */
  maxPassageChars?: number;
  /** Tokens of one pair (query and passage) at most, also capped by the model's own limit. Default 512 (16–8192). */
  maxTokens?: number;
  /** Told while the model downloads or loads, once 'ready', and once 'failed' with the reason. Default: none. */
  onProgress?: (progress: ModelProgress) => void;
  /**
   * Whether the rerank that finds the model missing waits for its download (minutes for a real model). False: the
   * download runs in the background, and reranks meanwhile keep the fused order and say so. Default true.
   */
  waitForDownload?: boolean;
  /** The clock for the backoff, in ms since 1970. Default Date.now. */
  now?: () => number;
}

/** A cross-encoder reranker that holds its model once loaded. */
export interface CrossEncoderReranker extends Reranker {
  readonly kind: 'cross-encoder';
  /** The model it ranks with. */
  readonly modelId: string;
  /** Forget a remembered failed load, so the next rerank tries again (the person asked to retry). */
  retry(): void;
  /** Resolves once no model load is under way (a background retry has succeeded or failed). */
  settled(): Promise<void>;
  /** Free the model. */
  close(): Promise<void>;
}

/** The loaded model and its tokenizer. */
interface Loaded {
  tokenizer: PreTrainedTokenizer;
  model: PreTrainedModel;
}

/** A query longer than this many characters is cut: it must leave room in each pair for the passage. */
const MAX_QUERY_CHARS = 500;
/** The file that keeps the reranker's last failed load across runs (beside the embedding model's). */
const FAILURE_FILE = '.rerank-load-failure.json';

/**
 * Where the reranker's model comes from, as the embedding model's does: the same models folder (and throw-away
 * download folder), the same local model folder and hub mirror. The environment wins over the settings:
 * `SIFT_RERANK_MODEL` (a model id), `SIFT_MODEL_DIR`, `SIFT_MODEL_HOST`. `onProgress` is left to the caller.
 */
export function crossEncoderOptionsFrom(
  settings: Pick<Settings, 'rerankModelId' | 'embedding'>,
  models: ModelsFolder,
  env: NodeJS.ProcessEnv = process.env,
): CrossEncoderOptions {
  return {
    modelId: env.SIFT_RERANK_MODEL || settings.rerankModelId || DEFAULT_RERANK_MODEL_ID,
    modelsDir: models.dir,
    downloadDir: models.downloadDir,
    localModelDir: env.SIFT_MODEL_DIR || settings.embedding.localModelDir || undefined,
    remoteHost: env.SIFT_MODEL_HOST || undefined,
  };
}

/** Check a whole-number option against its range; `name` says which in the error. */
function checkRange(value: number | undefined, fallback: number, min: number, max: number, name: string): number {
  const n = value ?? fallback;
  if (!Number.isInteger(n) || n < min || n > max) {
    const rule = `${name} must be an integer from ${min} to ${max}`;
    throw new SiftError('invalid_argument', `Cross-encoder reranker: ${rule}, got ${String(value)}.`);
  }
  return n;
}

/**
 * A reranker scoring each (query, passage) pair with a cross-encoder. Creating it loads nothing: the model is found
 * or downloaded on the first {@link Reranker.rerank}. Throws SiftError('invalid_argument') for a malformed model id
 * or option; every later failure is an outcome with the fused order and `fallback` saying why.
 */
export function createCrossEncoderReranker(options: CrossEncoderOptions): CrossEncoderReranker {
  const modelId = checkModelId(options.modelId ?? DEFAULT_RERANK_MODEL_ID, 'Reranker model', DEFAULT_RERANK_MODEL_ID);
  const limits = {
    batchSize: checkBatchSize(options.batchSize, 8, 'Cross-encoder reranker'),
    maxPassageChars: checkRange(options.maxPassageChars, 2000, 100, 100_000, 'maxPassageChars'),
    maxTokens: checkRange(options.maxTokens, 512, 16, 8192, 'maxTokens'),
  };
  const model = new ModelHolder(modelId, options);
  // Model calls still running (a cancelled rerank's last batch): the model is freed only after them.
  const running = new Set<Promise<unknown>>();
  const track = <T>(call: Promise<T>): Promise<T> => {
    running.add(call);
    void call.then(() => running.delete(call), () => running.delete(call));
    return call;
  };
  return {
    kind: 'cross-encoder',
    modelId,
    rerank: async (query, passages, signal) => {
      const started = performance.now();
      const outcome = (order: number[], scores: (number | null)[], fallback: string | null): RerankOutcome => ({
        kind: 'cross-encoder',
        order,
        scores,
        fallback,
        ms: Math.round(performance.now() - started),
      });
      const fused = passages.map((_, i) => i);
      const unscored = (why: string) => outcome(fused, fused.map(() => null), why);
      checkCancel(signal);
      if (passages.length === 0) return outcome([], [], null);
      const loaded = await untilCancelled(model.get(), signal);
      if (typeof loaded === 'string') return unscored(loaded);
      try {
        const scores = await scorePairs(loaded, query, passages, { ...limits, track }, signal);
        return outcome(orderByScore(scores), scores.map((s) => (Number.isFinite(s) ? s : null)), null);
      } catch (error) {
        if (error instanceof SiftError && error.code === 'cancelled') throw error;
        const reason = error instanceof Error ? error.message : String(error);
        const why = `Reranker model "${modelId}" failed while scoring (${reason})`;
        return unscored(`${why}; the passages keep their fused order.`);
      }
    },
    retry: () => model.retry(),
    settled: () => model.settled(),
    close: async () => {
      await Promise.allSettled([...running]);
      await model.close();
    },
  };
}

/**
 * Candidate indices best first: by score, higher first; equal scores (and scores that are not numbers, last) keep
 * their fused order.
 */
export function orderByScore(scores: number[]): number[] {
  const key = (i: number) => (Number.isFinite(scores[i]) ? (scores[i] as number) : -Infinity);
  return scores.map((_, i) => i).sort((a, b) => key(b) - key(a) || a - b);
}

/** Score every pair in batches; checks for a cancel before each batch and while one runs. */
async function scorePairs(
  loaded: Loaded,
  query: string,
  passages: string[],
  limits: { batchSize: number; maxPassageChars: number; maxTokens: number; track: <T>(call: Promise<T>) => Promise<T> },
  signal: AbortSignal | undefined,
): Promise<number[]> {
  const question = cut(query, MAX_QUERY_CHARS);
  const scores: number[] = [];
  for (const batch of inBatches(passages, limits.batchSize)) {
    checkCancel(signal);
    const texts = batch.map((passage) => cut(passage, limits.maxPassageChars));
    const inputs = loaded.tokenizer(
      texts.map(() => question),
      { text_pair: texts, padding: true, truncation: true, max_length: limits.maxTokens },
    );
    const output = (await untilCancelled(limits.track(loaded.model(inputs)), signal)) as { logits?: Tensor };
    if (!output.logits) throw new Error('the model gave no logits; is it a sequence-classification model?');
    scores.push(...relevance(output.logits));
  }
  return scores;
}

/**
 * One relevance score per row of `logits` [pairs, labels]: the logit itself for a one-label model (most
 * rerankers), the last label's logit minus the first's (the log-odds of "relevant") for a two-or-more-label one.
 */
function relevance(logits: Tensor): number[] {
  const [rows, labels] = logits.dims as [number, number];
  const data = logits.data as Float32Array;
  const scores: number[] = [];
  for (let row = 0; row < rows; row++) {
    const first = data[row * labels] as number;
    scores.push(labels > 1 ? (data[row * labels + labels - 1] as number) - first : first);
  }
  return scores;
}

/** `text` cut to `max` characters, never inside a surrogate pair. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = /[\uD800-\uDBFF]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, end);
}

function cancelled(): SiftError {
  return new SiftError('cancelled', 'The rerank was cancelled.');
}

function checkCancel(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw cancelled();
}

/** `promise`, or SiftError('cancelled') as soon as `signal` aborts (the work itself goes on and is let be). */
function untilCancelled<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/**
 * Loads the model once and keeps it. The first load is waited for (a download shows its progress, and a cancel
 * ends the wait). A failed load is remembered (in memory and in the models folder) and its reason returned at once
 * until the backoff is over, {@link retry} is called or the model's files appear on disk; a retry after the backoff
 * runs in the background, so no search waits on the network for it.
 */
class ModelHolder {
  private loading: Promise<Loaded | string> | null = null;
  private failure: LoadFailure | null = null;
  /** While a background retry runs: the reason callers get meanwhile. */
  private retrying: string | null = null;
  private readonly key: string;
  private readonly now: () => number;

  constructor(
    private readonly modelId: string,
    private readonly options: CrossEncoderOptions,
  ) {
    const { localModelDir, remoteHost, allowDownload, dtype } = options;
    this.key = JSON.stringify({ modelId, localModelDir, remoteHost, allowDownload, dtype });
    this.now = options.now ?? Date.now;
  }

  /** The loaded model, or why there is none. */
  get(): Promise<Loaded | string> {
    if (this.loading) return this.retrying !== null ? Promise.resolve(this.retrying) : this.loading;
    const failure = this.rememberedFailure();
    if (failure && stillBackingOff(failure, this.now(), this.options)) return Promise.resolve(failure.reason);
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

  /** What reranks say while the model downloads in the background, or null when they wait for it. */
  private downloadNotWaitedFor(): string | null {
    const { options, modelId } = this;
    if (options.waitForDownload ?? true) return null;
    if (!(options.allowDownload ?? true) || locateModel(options, modelId, options.dtype ?? 'q8').onDisk) return null;
    return `Reranker model "${modelId}" is being downloaded; until it is ready the passages keep their fused order.`;
  }

  /** Forget a failed load; a background retry under way is then waited for by the next call. */
  retry(): void {
    this.failure = null;
    this.retrying = null;
    if (!this.options.downloadDir) forgetLoadFailure(this.failureFile());
  }

  /** Resolves once no load is under way (a download or retry in the background has succeeded or failed). */
  async settled(): Promise<void> {
    await this.loading;
  }

  async close(): Promise<void> {
    const current = await this.loading;
    this.loading = null;
    if (current && typeof current !== 'string') await current.model.dispose();
  }

  private failureFile(): string {
    return path.join(this.options.modelsDir, FAILURE_FILE);
  }

  /** The last failure of this configuration, unless the model's files have since been put on disk. */
  private rememberedFailure(): LoadFailure | null {
    this.failure ??= readLoadFailure(this.failureFile(), this.key);
    if (!this.failure) return null;
    const onDisk = locateModel(this.options, this.modelId, this.options.dtype ?? 'q8').onDisk;
    return onDisk ? null : this.failure;
  }

  private async load(failuresBefore: number): Promise<Loaded | string> {
    const { modelId, options } = this;
    const dtype = options.dtype ?? 'q8';
    const allowDownload = options.allowDownload ?? true;
    const location = locateModel(options, modelId, dtype);
    const settings = hubSettings(options, location, allowDownload);
    options.onProgress?.({ modelId, status: location.onDisk ? 'loading' : 'downloading' });
    try {
      const loaded = await loadModel(modelId, dtype, settings, options.onProgress);
      options.onProgress?.({ modelId, status: 'ready' });
      if (failuresBefore > 0) this.retry();
      return loaded;
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      const reason = this.unavailable(whyNotLoaded(settings, modelId, why));
      this.failure = { key: this.key, reason, failedAt: this.now(), failures: failuresBefore + 1 };
      if (!options.downloadDir) writeLoadFailure(this.failureFile(), this.failure);
      options.onProgress?.({ modelId, status: 'failed', message: reason });
      return reason;
    }
  }

  /** Why the model cannot be had, the way out, and what the search does meanwhile. */
  private unavailable(why: string): string {
    const places = placesFor(lookedIn(this.options, this.modelId));
    return (
      `Reranker model "${this.modelId}" ${why}. To use it, put its files in ${places}; ` +
      'until then the passages keep their fused order.'
    );
  }
}

/** Load tokenizer and model through transformers.js; rejects when either cannot be had. */
async function loadModel(
  modelId: string,
  dtype: ModelDtype,
  settings: HubSettings,
  onProgress: CrossEncoderOptions['onProgress'],
): Promise<Loaded> {
  if (!settings.onDisk && !settings.allowDownload) throw new Error('not on disk');
  return withHubSettings(settings, async ({ AutoModelForSequenceClassification, AutoTokenizer }) => {
    const progress_callback = progressForwarder(settings.onDisk, (p) => onProgress?.({ modelId, ...p }));
    const tokenizer = await AutoTokenizer.from_pretrained(modelId, { progress_callback });
    const modelOptions = { dtype, device: 'cpu', progress_callback } as const;
    const model = await AutoModelForSequenceClassification.from_pretrained(modelId, modelOptions);
    return { tokenizer, model };
  });
}
