/**
 * The vector stage's in-memory index of a knowledge base, a cache of its `chunk_vectors`:
 * - sign bits of every vector **after subtracting the mean vector**: embedding models put all
 *   texts in a narrow cone (two random passages ≈ cos 0.7–0.8), so raw sign bits are nearly the same
 *   for every vector; centred, each bit splits the collection about in half and Hamming distance
 *   ranks far better. A scan of 100k vectors takes ~0.3 ms (popcount in WebAssembly, vector-kernels.ts)
 *   for any number of candidates.
 * - an int8 copy of every vector (one scale per vector), to rescore thousands of candidates in a
 *   fraction of a millisecond without reading float vectors from SQLite; the final few are rescored
 *   exactly by the caller. 100k chunks of 384 dims take ≈ 45 MB, and the kernels' copy of the sign
 *   bits ≈ 5 MB more.
 *
 * The index is keyed by the connection's `total_changes()` and `PRAGMA data_version` (changes by
 * this connection or committed by any other), so it is never used once the vectors may have
 * changed. A stale index is rebuilt once writes have settled (reading 100k vectors takes about half a
 * second, too long to repeat during an ingest); until then the caller uses sqlite-vec's KNN.
 */
import type Database from 'better-sqlite3';
import { contentState } from '../store/statements';
import { chunkCounts } from '../store/vectors';
import { kernelsOf } from './vector-kernels';

/** The in-memory vectors of a knowledge base. */
export interface VectorIndex {
  dimension: number;
  /** Chunk id of each entry. */
  ids: Int32Array;
  /** The mean of all vectors (subtracted before taking sign bits). */
  mean: Float32Array;
  /** Sign bits of (vector − mean): entry i occupies words [i * words, (i + 1) * words). */
  bits: Uint32Array;
  words: number;
  /** int8 codes of each vector: entry i occupies [i * dimension, (i + 1) * dimension). */
  codes: Int8Array;
  /** Per entry: the factor that turns its codes back into the vector's components. */
  scales: Float32Array;
}

/** Sign bits of the query minus the mean. */
function queryBits(query: Float32Array, mean: Float32Array, words: number): Uint32Array {
  const out = new Uint32Array(words);
  for (let i = 0; i < mean.length; i++) if (query[i]! > mean[i]!) out[i >>> 5]! |= 1 << (i & 31);
  return out;
}

/** Read every stored vector of `dimension` components into a new index. */
export function loadVectorIndex(db: Database.Database, dimension: number): VectorIndex {
  const count = chunkCounts(db).embedded;
  let ids = new Int32Array(count);
  let codes = new Int8Array(count * dimension);
  let scales = new Float32Array(count);
  const sum = new Float64Array(dimension);
  let n = 0;
  for (const [id, blob] of db.prepare(`SELECT chunk_id, vector FROM chunk_vectors`).raw().iterate() as Iterable<[number, Buffer]>) {
    if (blob.byteLength !== dimension * 4) throw new Error(`the stored vector of chunk ${id} has ${blob.byteLength / 4} dimensions, the model ${dimension}; re-index the knowledge base`);
    if (n === ids.length) {
      // More vectors than flagged chunks (a vector written without its flag): grow rather than drop it.
      const size = Math.max(16, n * 2);
      ids = grow(ids, size, Int32Array);
      codes = grow(codes, size * dimension, Int8Array);
      scales = grow(scales, size, Float32Array);
    }
    scales[n] = quantize(toFloats(blob), codes, n * dimension, sum);
    ids[n] = id;
    n++;
  }
  const mean = Float32Array.from(sum, (s) => (n ? s / n : 0));
  const words = Math.ceil(dimension / 32);
  const bits = new Uint32Array(n * words);
  const threshold = new Float32Array(dimension);
  for (let e = 0; e < n; e++) {
    // code × scale > mean  ⇔  code > mean / scale
    const inverse = 1 / scales[e]!;
    for (let i = 0; i < dimension; i++) threshold[i] = mean[i]! * inverse;
    centredBits(codes, e * dimension, threshold, bits, e * words);
  }
  return { dimension, ids: ids.subarray(0, n), mean, bits, words, codes: codes.subarray(0, n * dimension), scales: scales.subarray(0, n) };
}

/**
 * int8 codes of `v` into `codes` at `at` (rounded half away from zero; storing into an Int8Array
 * truncates, cheaper than Math.round), adding `v` to `sum`. Returns the scale back to floats.
 */
function quantize(v: Float32Array, codes: Int8Array, at: number, sum: Float64Array): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]!;
    sum[i]! += x;
    if (x > max) max = x;
    else if (-x > max) max = -x;
  }
  const scale = max / 127 || 1;
  const inverse = 1 / scale;
  for (let i = 0; i < v.length; i++) {
    const x = v[i]! * inverse;
    codes[at + i] = x + (x < 0 ? -0.5 : 0.5);
  }
  return scale;
}

/** Sign bits of codes[at…] above `threshold`, into `bits` at word `w`. */
function centredBits(codes: Int8Array, at: number, threshold: Float32Array, bits: Uint32Array, w: number): void {
  for (let from = 0; from < threshold.length; from += 32) {
    let word = 0;
    const end = Math.min(threshold.length, from + 32);
    for (let i = from; i < end; i++) if (codes[at + i]! > threshold[i]!) word |= 1 << (i - from);
    bits[w + (from >>> 5)] = word;
  }
}

/** A float vector BLOB as floats: a view when 4-aligned (no copy on the hot path), else a copy. */
export function toFloats(blob: Buffer): Float32Array {
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function grow<T extends Int32Array | Int8Array | Float32Array>(a: T, size: number, Kind: new (n: number) => T): T {
  const out = new Kind(size);
  out.set(a);
  return out;
}

/**
 * Entries (positions in the index) of the `k` nearest to `query` by Hamming distance of centred
 * sign bits, nearest first; among equals, the earlier entry. `allowed`, when given, limits the
 * entries to those chunk ids. Counting sort over the distances: one pass, any k.
 */
export function nearestByBits(index: VectorIndex, query: Float32Array, k: number, allowed: Set<number> | null = null): number[] {
  const { ids, words } = index;
  const n = ids.length;
  const maxDistance = words * 32;
  const { distance, histogram } = kernelsOf(index).distances(queryBits(query, index.mean, words));
  if (allowed) {
    for (let e = 0; e < n; e++) {
      if (allowed.has(ids[e]!)) continue;
      histogram[distance[e]!]!--;
      distance[e] = maxDistance + 1; // never taken
    }
  }
  // The largest distance still needed, and how many entries at exactly that distance to take.
  let need = Math.min(k, n);
  let cutoff = 0;
  while (cutoff <= maxDistance && need > histogram[cutoff]!) need -= histogram[cutoff++]!;
  if (cutoff > maxDistance) need = 0;
  // Counting sort: where each distance's entries go in the result; those at the cutoff come last.
  const next = new Int32Array(cutoff + 1);
  for (let d = 1; d <= cutoff; d++) next[d] = next[d - 1]! + histogram[d - 1]!;
  let left = next[cutoff]! + need;
  const out = new Array<number>(left);
  for (let e = 0; e < n && left > 0; e++) {
    const d = distance[e]!;
    if (d < cutoff || (d === cutoff && need-- > 0)) {
      out[next[d]!++] = e;
      left--;
    }
  }
  return out;
}

/** The query as integers of up to 15 bits (one scale for all components: the ranking it gives is the same). */
function integerQuery(query: Float32Array): Int32Array {
  let max = 0;
  for (let i = 0; i < query.length; i++) max = Math.max(max, Math.abs(query[i]!));
  const scale = max > 0 ? 32_767 / max : 0;
  const out = new Int32Array(query.length);
  for (let i = 0; i < query.length; i++) out[i] = Math.round(query[i]! * scale);
  return out;
}

/** Every entry allowed (all, or those whose chunk id is in `allowed`). */
export function allEntries(index: VectorIndex, allowed: Set<number> | null): number[] {
  const out: number[] = [];
  for (let e = 0; e < index.ids.length; e++) if (!allowed || allowed.has(index.ids[e]!)) out.push(e);
  return out;
}

/**
 * The chunk ids of the `k` entries among `entries` with the largest approximate dot product with
 * `query` (from the int8 codes), best first; ties by chunk id.
 */
export function bestByCodes(index: VectorIndex, query: Float32Array, entries: number[], k: number): number[] {
  const { scales, ids } = index;
  const products = kernelsOf(index).dotProducts(integerQuery(query), entries);
  const scores = new Float32Array(entries.length);
  for (let j = 0; j < entries.length; j++) scores[j] = products[j]! * scales[entries[j]!]!;
  if (k <= 0 || entries.length === 0) return [];
  // The k-th best score (a typed-array sort is far cheaper than sorting objects), then only the
  // entries at or above it are ordered properly.
  const cutoff = scores.slice().sort()[Math.max(0, scores.length - k)]!;
  const kept: number[] = [];
  for (let j = 0; j < entries.length; j++) if (scores[j]! >= cutoff) kept.push(j);
  kept.sort((a, b) => scores[b]! - scores[a]! || ids[entries[a]!]! - ids[entries[b]!]!);
  return kept.slice(0, k).map((j) => ids[entries[j]!]!);
}

interface Cached {
  index: VectorIndex | null;
  /** The database state the index was read at. */
  key: string;
  /** The state last seen by a query, and when it was first seen. */
  seenKey: string;
  seenAt: number;
  /** A build in a worker, when one is running. */
  building: Promise<void> | null;
}

const cache = new WeakMap<Database.Database, Cached>();

/** Builds an index of a knowledge-base file elsewhere (a worker thread). */
export type IndexBuild = (dbFile: string, dimension: number) => Promise<VectorIndex>;

/**
 * The index of this connection's knowledge base when it is current, or null: the caller then uses
 * sqlite-vec's KNN. Built on first use and, after a change, once no further change has been seen
 * for `settleMs` (so an ingest in progress does not cause a rebuild per search). With `build`, the
 * index is built by it in the background and this returns null until it is ready; without, it is
 * read here and now.
 */
export function currentVectorIndex(db: Database.Database, dimension: number, settleMs: number, build?: IndexBuild): VectorIndex | null {
  const key = contentState(db);
  let c = cache.get(db);
  if (c?.index && c.key === key && c.index.dimension === dimension) return c.index;
  const t = Date.now();
  if (!c) cache.set(db, (c = { index: null, key: '', seenKey: key, seenAt: -Infinity, building: null }));
  else if (c.seenKey !== key) {
    c.seenKey = key;
    c.seenAt = t;
  }
  if (t - c.seenAt < settleMs) return null;
  if (!build || db.memory) {
    c.index = loadVectorIndex(db, dimension);
    c.key = key;
    return c.index;
  }
  const entry = c;
  // The key read before the build: a change committed meanwhile makes the new index stale at once.
  entry.building ??= build(db.name, dimension)
    .then(
      (index) => {
        entry.index = index;
        entry.key = key;
      },
      (err: unknown) => console.warn(`[sift] building the vector index of ${db.name} failed; searching with sqlite-vec meanwhile:`, err),
    )
    .finally(() => {
      entry.building = null;
    });
  return null;
}

/** The build in progress for this connection, if any (tests wait for it). */
export function vectorIndexBuilding(db: Database.Database): Promise<void> | null {
  return cache.get(db)?.building ?? null;
}

/** Drop the cached index of this connection (tests; a closed database). */
export function forgetVectorIndex(db: Database.Database): void {
  cache.delete(db);
}
