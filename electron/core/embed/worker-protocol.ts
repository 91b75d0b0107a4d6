/**
 * The messages between the main thread and the embedding worker, declared once so both ends agree.
 * Every batch is one request and one reply; vectors come back as their own transferred buffers.
 */
import type { HubSettings, ModelDtype } from './model-files';

/** What the worker needs to load its model (passed as `workerData`); where it looks is {@link HubSettings}. */
export interface WorkerSettings extends HubSettings {
  /** Hugging Face model id, e.g. `Xenova/multilingual-e5-small`. */
  modelId: string;
  /** Quantisation of the ONNX file to load. */
  dtype: ModelDtype;
}

/** Main thread → worker: embed these texts (prefixes already applied). */
export interface EmbedRequest {
  type: 'embed';
  id: number;
  texts: string[];
}

/**
 * Main thread → worker: finish the batch in hand, release the model's ONNX sessions and exit. A worker
 * terminated while the runtime works can abort the whole process ("terminate called after throwing an
 * instance of 'Napi::Error'"), so closing asks first and terminates only a worker that does not exit.
 */
export interface CloseRequest {
  type: 'close';
}

/** Any message the main thread sends. */
export type WorkerRequest = EmbedRequest | CloseRequest;

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
