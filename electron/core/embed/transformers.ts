/**
 * The default embedder: a Hugging Face model run by transformers.js (ONNX Runtime, CPU) in a worker
 * thread, so embedding thousands of chunks never blocks the main thread. Models are looked up on
 * disk first and downloaded into `<data dir>/models` on first use when downloading is allowed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { SiftError } from '../../../shared/errors';
import { checkBatchSize, defaultPrefixes, inBatches, type Embedder, type ModelProgress } from './embedder';
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

/** Where a model's files are and whether they are all there. */
interface ModelLocation {
  /** Folder holding `<modelId>/…` to read from. */
  root: string;
  /** True when the config and the ONNX file for the chosen dtype exist under `root`. */
  onDisk: boolean;
}

// A hub id is `name` or `owner/name`; anything else (`..`, absolute paths) could read outside the folder.
const MODEL_ID = /^[A-Za-z0-9][\w.-]*(\/[A-Za-z0-9][\w.-]*)?$/;

function checkModelId(modelId: string): string {
  if (!MODEL_ID.test(modelId) || modelId.includes('..')) {
    throw new SiftError('invalid_argument', `Embedding model id "${modelId}" is not a Hugging Face id like "Xenova/multilingual-e5-small".`);
  }
  return modelId;
}

/** True when `root/<modelId>` holds the files the pipeline needs for `dtype`. */
function hasModel(root: string, modelId: string, dtype: 'q8' | 'fp32'): boolean {
  const dir = path.join(root, ...modelId.split('/'));
  const onnx = dtype === 'q8' ? 'model_quantized.onnx' : 'model.onnx';
  return ['config.json', 'tokenizer.json', 'tokenizer_config.json', path.join('onnx', onnx)].every((file) => fs.existsSync(path.join(dir, file)));
}

type ModelFolders = Pick<TransformersOptions, 'modelsDir' | 'localModelDir'>;

function locateModel(options: ModelFolders, modelId: string, dtype: 'q8' | 'fp32'): ModelLocation {
  if (options.localModelDir && hasModel(options.localModelDir, modelId, dtype)) return { root: options.localModelDir, onDisk: true };
  return { root: options.modelsDir, onDisk: hasModel(options.modelsDir, modelId, dtype) };
}

/** Where the worker entry is: beside this module (sources) or beside the bundle (Electron). */
function workerEntry(): URL {
  // In a CommonJS bundle `import.meta.url` is empty and `__dirname` is the bundle's folder.
  const here = (import.meta as { url?: string }).url;
  const folder = here ? new URL('./', here) : pathToFileURL(`${__dirname}${path.sep}`);
  return new URL(EMBED_WORKER.file, folder);
}

/** The folders a person can put the model in, as words: "the folder X" or "one of the folders X or Y". */
function placesFor(folders: string[]): string {
  const [first, second] = folders;
  return second ? `one of the folders ${first} or ${second}` : `the folder ${first}`;
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

/** A worker's reason, cut short: the note is read with every keyword-only result. */
function briefly(message: string): string {
  const line = message.replace(/\s+/g, ' ').replace(/\.$/, '').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function lookedIn(options: TransformersOptions, modelId: string): string[] {
  const roots = options.localModelDir ? [options.localModelDir, options.modelsDir] : [options.modelsDir];
  return roots.map((root) => path.join(root, ...modelId.split('/')));
}

/**
 * True when the model's files are all on disk in `localModelDir` or `modelsDir` (the same check
 * {@link createTransformersEmbedder} makes), so a remembered failure can be forgotten once they appear.
 */
export function transformersModelOnDisk(
  options: ModelFolders & Pick<TransformersOptions, 'modelId' | 'dtype'>,
): boolean {
  const modelId = options.modelId ?? DEFAULT_MODEL_ID;
  if (!MODEL_ID.test(modelId) || modelId.includes('..')) return false;
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
    const reason = briefly(error.message);
    if (settings.onDisk) {
      const dir = path.join(settings.lookIn, ...settings.modelId.split('/'));
      const why = `could not be loaded from ${dir} (${reason}); its files may be damaged or incomplete`;
      throw unavailable(settings.modelId, folders, why);
    }
    const why = settings.allowDownload
      ? `is not on this computer and downloading it from ${settings.remoteHost ?? 'huggingface.co'} failed (${reason})`
      : 'is not on this computer and downloading is turned off';
    throw unavailable(settings.modelId, folders, why);
  }
}

/**
 * Load the model in a worker thread and return an Embedder. Throws SiftError('model_unavailable', clear reason) when the
 * model is neither on disk nor downloadable (offline), naming the folder it looked in; SiftError('invalid_argument')
 * for a malformed model id or batch size.
 */
export async function createTransformersEmbedder(options: TransformersOptions): Promise<TransformersEmbedder> {
  const modelId = checkModelId(options.modelId ?? DEFAULT_MODEL_ID);
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
  const settings: WorkerSettings = {
    modelId,
    lookIn: location.root,
    // A model found in the user's own folder is read there and never downloaded into it.
    downloadTo: location.root === options.modelsDir ? (options.downloadDir ?? options.modelsDir) : null,
    allowDownload: allowDownload && location.root === options.modelsDir,
    dtype,
    onDisk: location.onDisk,
    remoteHost: options.remoteHost,
  };
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
