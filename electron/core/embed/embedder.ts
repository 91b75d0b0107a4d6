/**
 * What the rest of Sift knows about embeddings: an {@link Embedder} turns passages and queries into
 * unit-length vectors, whichever provider (transformers.js in a worker, or Ollama) computes them.
 */
import { SiftError } from '../../../shared/errors';

/** Turns texts into vectors for the vector index. One per knowledge base, reused for every batch. */
export interface Embedder {
  /** Stable id recorded per knowledge base, e.g. `transformers:Xenova/multilingual-e5-small:q8` or `ollama:nomic-embed-text`. */
  readonly id: string;
  /** Vector length, e.g. 384. */
  readonly dimension: number;
  /** Embed passages (adds the model's passage prefix, e.g. `passage: `). One Float32Array per text, L2-normalised. */
  embedPassages(texts: string[]): Promise<Float32Array[]>;
  /** Embed a query (adds the query prefix, e.g. `query: `). L2-normalised. */
  embedQuery(text: string): Promise<Float32Array>;
  /** Stop the worker / free the model. */
  close(): Promise<void>;
}

/** Progress while a model downloads or loads (forwarded to the UI as events by the caller). */
export interface ModelProgress {
  modelId: string;
  status: 'downloading' | 'loading' | 'ready';
  file?: string;
  loaded?: number;
  total?: number;
}

/** The prefixes a model was trained with, put before each text. */
export interface Prefixes {
  passage: string;
  query: string;
}

/**
 * The prefixes a model expects: `passage: ` / `query: ` for the e5 family (which was trained with
 * them and ranks noticeably worse without), none for any other model.
 */
export function defaultPrefixes(modelId: string): Prefixes {
  const name = modelId.split('/').pop() ?? modelId;
  const isE5 = /(^|[-_.])e5([-_.]|$)/i.test(name);
  return isE5 ? { passage: 'passage: ', query: 'query: ' } : { passage: '', query: '' };
}

/**
 * Scale `vector` in place to unit length, so a dot product is a cosine similarity. A zero vector
 * has no direction and is returned unchanged (all zeros) rather than filled with NaN.
 */
export function normalise(vector: Float32Array): Float32Array {
  let sum = 0;
  for (const value of vector) sum += value * value;
  const length = Math.sqrt(sum);
  if (length === 0 || !Number.isFinite(length)) return vector;
  for (let i = 0; i < vector.length; i++) vector[i] = (vector[i] as number) / length;
  return vector;
}

/** Split `items` into consecutive groups of at most `size` (the last may be shorter). */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let start = 0; start < items.length; start += size) batches.push(items.slice(start, start + size));
  return batches;
}

/**
 * Check a batch-size option: an integer from 1 to 256. `source` names the provider in the error
 * so a wrong setting can be traced to where it was made.
 */
export function checkBatchSize(value: number | undefined, fallback: number, source: string): number {
  const size = value ?? fallback;
  if (!Number.isInteger(size) || size < 1 || size > 256) {
    throw new SiftError('invalid_argument', `${source}: batchSize must be an integer from 1 to 256, got ${String(value)}.`);
  }
  return size;
}
