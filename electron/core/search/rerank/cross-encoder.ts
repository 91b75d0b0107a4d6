/**
 * The cross-encoder reranker: a sequence-classification model run by transformers.js reads the query and each
 * passage together and gives the pair one relevance logit; the candidates are ordered by it. The model is found and
 * downloaded (with progress) exactly like the embedding model — the same models folder, local folder and hub — on
 * the first rerank; a load that fails is remembered with a backoff, so later searches keep their fused order at
 * once instead of waiting on the network each time.
 *
 * The model runs in its own worker thread (ONNX Runtime's Node binding computes on the thread that calls it, and a
 * real reranker needs seconds for a few dozen pairs on a laptop CPU); see `cross-encoder-model.ts`.
 */
import { SiftError } from '../../../../shared/errors';
import type { ModelProgress } from '../../../../shared/models';
import type { Settings } from '../../../../shared/settings';
import { checkBatchSize, inBatches } from '../../embed/embedder';
import type { BackoffOptions } from '../../embed/load-failure';
import { checkModelId, type ModelDtype } from '../../embed/model-files';
import type { ModelsFolder } from '../../embed/embedding';
import { CrossEncoderModel, type LoadedCrossEncoder } from './cross-encoder-model';
import type { RerankOutcome, Reranker } from './types';

/**
 * Default model: BAAI's bge-reranker-base as converted for transformers.js (`onnx/model_quantized.onnx`, 279 MB,
 * XLM-RoBERTa with its multilingual tokenizer, 278M parameters, MIT licence), trained for Chinese and English —
 * Sift's two languages. Passed over: onnx-community/bge-reranker-v2-m3-ONNX (more languages, but 568M parameters,
 * twice the download and time per pair) and jina-reranker-v2-base-multilingual (CC BY-NC, non-commercial only).
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

/** A query longer than this many characters is cut: it must leave room in each pair for the passage. */
const MAX_QUERY_CHARS = 500;
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
  const model = new CrossEncoderModel({ ...options, modelId });
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
        const scores = await scorePairs(loaded, query, passages, limits, signal);
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
    close: () => model.close(),
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
  loaded: LoadedCrossEncoder,
  query: string,
  passages: string[],
  limits: { batchSize: number; maxPassageChars: number; maxTokens: number },
  signal: AbortSignal | undefined,
): Promise<number[]> {
  const question = cut(query, MAX_QUERY_CHARS);
  const scores: number[] = [];
  for (const batch of inBatches(passages, limits.batchSize)) {
    checkCancel(signal);
    const texts = batch.map((passage) => cut(passage, limits.maxPassageChars));
    scores.push(...(await untilCancelled(loaded.score(question, texts, limits.maxTokens), signal)));
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
