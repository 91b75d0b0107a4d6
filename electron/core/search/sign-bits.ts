/**
 * The vector stage's first pass, in memory: every chunk's sign bits (as sqlite-vec's
 * `vec_quantize_binary` made them for `vec_bits`) in one typed array, scanned by Hamming distance.
 * A scan of 100k vectors takes about 3 ms whatever the number of candidates, where sqlite-vec's
 * own bit KNN grows with k (≈ 24 ms at k = 200, 100k chunks) — and the recall target needs k ≈ 400.
 *
 * The index is a cache of the database: it is keyed by the connection's `total_changes()` and
 * `PRAGMA data_version` (changes by this connection or committed by any other), so it is never
 * used once the vectors may have changed. A stale index is rebuilt once writes have settled
 * (reading 100k bit vectors takes a few hundred ms, too long to repeat during an ingest); until
 * then callers use sqlite-vec's KNN, which is always current.
 */
import type Database from 'better-sqlite3';

/** Sign bits of a set of chunks, 32 bits per word. */
export interface SignBitIndex {
  /** Chunk id of each entry. */
  ids: Int32Array;
  /** Entry i occupies words [i * words, (i + 1) * words). */
  bits: Uint32Array;
  words: number;
}

/** What identifies the database's state: any committed change anywhere, or any change by this connection. */
function stateKey(db: Database.Database): string {
  const version = db.pragma('data_version', { simple: true }) as number;
  const changes = db.prepare(`SELECT total_changes()`).pluck().get() as number;
  return `${version}:${changes}`;
}

/** Words of a bit vector blob, zero-padded to whole 32-bit words. */
function wordsOf(blob: Buffer, words: number, into: Uint32Array, at: number): void {
  const whole = blob.byteLength >>> 2;
  if (blob.byteOffset % 4 === 0) into.set(new Uint32Array(blob.buffer, blob.byteOffset, whole), at);
  else for (let w = 0; w < whole; w++) into[at + w] = blob.readUInt32LE(w * 4);
  for (let w = whole; w < words; w++) into[at + w] = 0;
  let tail = 0;
  for (let b = whole * 4; b < blob.byteLength; b++) tail |= blob[b]! << (8 * (b - whole * 4));
  if (whole < words) into[at + whole] = tail;
}

/** Read every chunk's sign bits from `vec_bits`. */
export function loadSignBits(db: Database.Database, dimension: number): SignBitIndex {
  const words = Math.ceil(dimension / 32);
  const count = db.prepare(`SELECT count(*) FROM chunks WHERE embedded = 1`).pluck().get() as number;
  let ids = new Int32Array(count);
  let bits = new Uint32Array(count * words);
  let n = 0;
  for (const [rowid, blob] of db.prepare(`SELECT rowid, embedding FROM vec_bits`).raw().iterate() as Iterable<[number | bigint, Buffer]>) {
    if (n === ids.length) {
      // More rows than the count said (a vector without its flag): grow rather than drop it.
      const grownIds = new Int32Array(Math.max(16, n * 2));
      grownIds.set(ids);
      const grownBits = new Uint32Array(grownIds.length * words);
      grownBits.set(bits);
      ids = grownIds;
      bits = grownBits;
    }
    ids[n] = Number(rowid);
    wordsOf(blob, words, bits, n * words);
    n++;
  }
  return { ids: ids.subarray(0, n), bits: bits.subarray(0, n * words), words };
}

/** Bits set in a 32-bit word. */
function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

/**
 * The `k` entries nearest to `query` (sign bits, as a blob from `vec_quantize_binary`) by Hamming
 * distance, nearest first; among equals, the earlier entry. `allowed`, when given, limits the
 * entries to those chunk ids. Counting sort over the distances: one pass, any k.
 */
export function nearestBySignBits(index: SignBitIndex, query: Buffer, k: number, allowed: Set<number> | null = null): number[] {
  const { ids, bits, words } = index;
  const q = new Uint32Array(words);
  wordsOf(query, words, q, 0);
  const n = ids.length;
  const maxDistance = words * 32;
  const distance = new Uint16Array(n);
  const histogram = new Uint32Array(maxDistance + 2);
  for (let i = 0, at = 0; i < n; i++, at += words) {
    if (allowed && !allowed.has(ids[i]!)) {
      distance[i] = maxDistance + 1; // never taken
      continue;
    }
    let d = 0;
    for (let w = 0; w < words; w++) d += popcount(bits[at + w]! ^ q[w]!);
    distance[i] = d;
    histogram[d]!++;
  }
  // The largest distance still needed, and how many entries at exactly that distance to take.
  let need = Math.min(k, n);
  let cutoff = 0;
  while (cutoff <= maxDistance && need > histogram[cutoff]!) need -= histogram[cutoff++]!;
  if (cutoff > maxDistance) need = 0;
  const buckets: number[][] = Array.from({ length: Math.min(cutoff, maxDistance) + 1 }, () => []);
  for (let i = 0; i < n; i++) {
    const d = distance[i]!;
    if (d < cutoff) buckets[d]!.push(ids[i]!);
    else if (d === cutoff && need > 0) {
      buckets[d]!.push(ids[i]!);
      need--;
    }
  }
  return buckets.flat();
}

interface Cached {
  index: SignBitIndex;
  /** The database state the index was read at. */
  key: string;
  /** The state last seen by a query, and when it was first seen. */
  seenKey: string;
  seenAt: number;
}

const cache = new WeakMap<Database.Database, Cached>();

/**
 * The index of this connection's knowledge base when it is current, or null: the caller then uses
 * sqlite-vec's KNN. Built on first use; after a change, rebuilt once no further change has been
 * seen for `settleMs` (so an ingest in progress is not slowed by repeated rebuilds).
 */
export function currentSignBits(db: Database.Database, dimension: number, settleMs: number): SignBitIndex | null {
  const key = stateKey(db);
  const cached = cache.get(db);
  if (cached && cached.key === key && cached.index.words === Math.ceil(dimension / 32)) return cached.index;
  const t = Date.now();
  if (cached && cached.seenKey !== key) {
    cached.seenKey = key;
    cached.seenAt = t;
  }
  if (cached && t - cached.seenAt < settleMs) return null;
  const index = loadSignBits(db, dimension);
  cache.set(db, { index, key, seenKey: key, seenAt: t });
  return index;
}

/** Drop the cached index of this connection (tests; a closed database). */
export function forgetSignBits(db: Database.Database): void {
  cache.delete(db);
}
