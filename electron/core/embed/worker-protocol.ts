/**
 * The messages between the main thread and the embedding worker, declared once so both ends agree.
 * Every batch is one request and one reply; vectors come back as their own transferred buffers.
 */

/** What the worker needs to load its model (passed as `workerData`). */
export interface WorkerSettings {
  /** Hugging Face model id, e.g. `Xenova/multilingual-e5-small`. */
  modelId: string;
  /** Folder holding `<modelId>/…` that transformers.js reads first (`env.localModelPath`). */
  lookIn: string;
  /** Folder downloads are written to (`env.cacheDir`), or null to write nothing. */
  downloadTo: string | null;
  /** Whether a missing file may be fetched from the Hugging Face hub. */
  allowDownload: boolean;
  /** Quantisation of the ONNX file to load. */
  dtype: 'q8' | 'fp32';
  /** Hub address to download from; undefined for transformers.js's default (huggingface.co). */
  remoteHost?: string;
  /** Whether the model's files were already on disk (progress then says `loading`, not `downloading`). */
  onDisk: boolean;
}

/** Main thread → worker: embed these texts (prefixes already applied). */
export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

/** Worker → main thread: loading progress for one file. */
export interface ProgressReply {
  type: 'progress';
  status: 'downloading' | 'loading';
  file?: string;
  loaded?: number;
  total?: number;
}

/** Worker → main thread: the model is loaded; its vector length and the worker's thread id. */
export interface ReadyReply {
  type: 'ready';
  dimension: number;
  threadId: number;
}

/** Worker → main thread: the model could not be loaded; the worker exits after sending this. */
export interface LoadFailedReply {
  type: 'load-failed';
  message: string;
}

/** Worker → main thread: the vectors of request `id`, one per text, in order. */
export interface EmbeddedReply {
  type: 'embedded';
  id: number;
  vectors: Float32Array[];
}

/** Worker → main thread: request `id` failed; the worker stays usable. */
export interface FailedReply {
  type: 'failed';
  id: number;
  message: string;
}

/** Any message the worker sends. */
export type WorkerReply = ProgressReply | ReadyReply | LoadFailedReply | EmbeddedReply | FailedReply;
