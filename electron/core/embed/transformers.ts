/**
 * The default embedder: a Hugging Face model run by transformers.js (ONNX Runtime, CPU) in a worker
 * thread, so embedding thousands of chunks never blocks the main thread. Models are looked up on
 * disk first and downloaded into `<data dir>/models` on first use when downloading is allowed.
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SiftError } from '../../../shared/errors';
import { checkBatchSize, defaultPrefixes, inBatches, type Embedder, type ModelProgress } from './embedder';
import {
  checkModelId,
  hubSettings,
  isModelId,
  locateModel,
  lookedIn,
  placesFor,
  whyNotLoaded,
  type ModelFolders,
} from './model-files';
import { EmbedWorkerClient, ModelLoadError } from './worker-client';
import type { WorkerSettings } from './worker-protocol';

/**
 * The embedding worker's entry file. `file` is started from the folder of the running code: from
 * sources that is `electron/core/embed/embed-worker.mjs` (registers tsx, loads `source`); the
 * Electron build must bundle `source` into `file` next to its own bundle (e.g. out/electron/).
 */
export const EMBED_WORKER = { file: 'embed-worker.mjs', source: 'electron/core/embed/embed-worker-main.ts' } as const;

/** Default model: small, multilingual (Chinese and English), 384 dimensions. */
export const DEFAULT_MODEL_ID = 'Xenova/multilingual-e5-small';

/** Options for {@link createTransformersEmbedder}. */
export interface TransformersOptions {
  /** Hugging Face model id. Default 'Xenova/multilingual-e5-small'. */
  modelId?: string;
  /** Folder models are downloaded to and looked up in (`<data dir>/models`). Required. */
  modelsDir: string;
  /** A folder that already holds `<modelId>/…` files (configurable local model folder); checked before modelsDir. */
  localModelDir?: string;
  /** Allow downloading from the hub when the model is not on disk. Default true. */
  allowDownload?: boolean;
  /**
   * Folder a download is written to instead of modelsDir, which is then only read (a throw-away run
   * must not write into the person's data folder). Messages still name modelsDir. Default modelsDir.
   */
  downloadDir?: string;
  /**
   * Where models are downloaded from. Default 'https://huggingface.co/'; a mirror with the same
   * layout (`<host>/<modelId>/resolve/main/<file>`, e.g. 'https://hf-mirror.com/') works too.
   */
  remoteHost?: string;
  /** Quantisation: 'q8' loads `onnx/model_quantized.onnx` (smaller, faster), 'fp32' `onnx/model.onnx`. Default 'q8'. */
  dtype?: 'q8' | 'fp32';
  /** Put before each passage. Default 'passage: ' for e5 models, '' otherwise. */
  passagePrefix?: string;
  /** Put before each query. Default 'query: ' for e5 models, '' otherwise. */
  queryPrefix?: string;
  /** Texts per model call. Default 32 (1–256); larger batches pad more and use more memory. */
  batchSize?: number;
  /** Called while the model downloads or loads, and once with 'ready'. Default: none. */
  onProgress?: (p: ModelProgress) => void;
}

/** A transformers.js embedder; also says which thread runs the model (never the caller's). */
export interface TransformersEmbedder extends Embedder {
  /** `threadId` of the worker running the model. */
  readonly workerThreadId: number;
}

/** Where the worker entry is: beside this module (sources) or beside the bundle (Electron). */
function workerEntry(): URL {
  // In a CommonJS bundle `import.meta.url` is empty and `__dirname` is the bundle's folder.
  const here = (import.meta as { url?: string }).url;
  const folder = here ? new URL('./', here) : pathToFileURL(`${__dirname}${path.sep}`);
  return new URL(EMBED_WORKER.file, folder);
}

/**
 * Why the model cannot be had and the ways out (put its files in a named folder, or turn embeddings
 * off). The folders are the ones looked in; a throw-away run (eval) reads the person's own models
 * folder without writing to it rather than using a temporary one, so the advice holds after the run.
 */
function unavailable(modelId: string, folders: string[], why: string): SiftError {
  return new SiftError(
    'model_unavailable',
    `Embedding model "${modelId}" ${why}. ` +
      `To use the model, put its files in ${placesFor(folders)}; to stop trying, set SIFT_EMBEDDING=none.`,
  );
}

/**
 * True when the model's files are all on disk in `localModelDir` or `modelsDir` (the same check
 * {@link createTransformersEmbedder} makes), so a remembered failure can be forgotten once they appear.
 */
export function transformersModelOnDisk(
  options: ModelFolders & Pick<TransformersOptions, 'modelId' | 'dtype'>,
): boolean {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  if (!isModelId(modelId)) return false;
  return locateModel(options, modelId, options.dtype ?? 'q8').onDisk;
}

/** Start the worker and wait for the model; a failed load becomes SiftError('model_unavailable'). */
async function startWorker(settings: WorkerSettings, folders: string[], onProgress: TransformersOptions['onProgress']) {
  const client = new EmbedWorkerClient(new Worker(workerEntry(), { workerData: settings }), {
    label: `embedding model "${settings.modelId}"`,
    onProgress: (p) => onProgress?.({ modelId: settings.modelId, status: p.status, file: p.file, loaded: p.loaded, total: p.total }),
  });
  try {
    return { client, ready: await client.ready };
  } catch (error) {
    await client.close();
    if (!(error instanceof ModelLoadError)) throw error;
    throw unavailable(settings.modelId, folders, whyNotLoaded(settings, settings.modelId, error.message));
  }
}

/**
 * Load the model in a worker thread and return an Embedder. Throws SiftError('model_unavailable', clear reason) when the
 * model is neither on disk nor downloadable (offline), naming the folder it looked in; SiftError('invalid_argument')
 * for a malformed model id or batch size.
 */
export async function createTransformersEmbedder(options: TransformersOptions): Promise<TransformersEmbedder> {
  const modelId = checkModelId(options.modelId ?? DEFAULT_MODEL_ID, 'Embedding model', DEFAULT_MODEL_ID);
  const dtype = options.dtype ?? 'q8';
  const allowDownload = options.allowDownload ?? true;
  const batchSize = checkBatchSize(options.batchSize, 32, 'Transformers embedder');
  const prefixes = defaultPrefixes(modelId);
  const passagePrefix = options.passagePrefix ?? prefixes.passage;
  const queryPrefix = options.queryPrefix ?? prefixes.query;
  const folders = lookedIn(options, modelId);
  const location = locateModel(options, modelId, dtype);
  if (!location.onDisk && !allowDownload) {
    throw unavailable(modelId, folders, 'is not on this computer and downloading is turned off');
  }
  options.onProgress?.({ modelId, status: location.onDisk ? 'loading' : 'downloading' });
  const settings: WorkerSettings = { modelId, dtype, ...hubSettings(options, location, allowDownload) };
  const { client, ready } = await startWorker(settings, folders, options.onProgress);
  options.onProgress?.({ modelId, status: 'ready' });
  return {
    id: `transformers:${modelId}:${dtype}`,
    dimension: ready.dimension,
    workerThreadId: ready.threadId,
    ...embedMethods(client, modelId, batchSize, passagePrefix, queryPrefix),
  };
}

function embedMethods(client: EmbedWorkerClient, modelId: string, batchSize: number, passagePrefix: string, queryPrefix: string) {
  return {
    // All batches are queued at once: the worker then starts the next batch as soon as one is done.
    embedPassages: async (texts: string[]): Promise<Float32Array[]> => {
      const batches = inBatches(texts, batchSize).map((batch) => client.embed(batch.map((t) => passagePrefix + t)));
      return (await Promise.all(batches)).flat();
    },
    embedQuery: async (text: string): Promise<Float32Array> => {
      const [vector] = await client.embed([queryPrefix + text]);
      if (!vector) throw new SiftError('internal', `Embedding model "${modelId}" returned no vector for a query.`);
      return vector;
    },
    close: () => client.close(),
  };
}
