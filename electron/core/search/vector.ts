/**
 * The vector stage. Large knowledge bases: a sqlite-vec KNN over the vectors' sign bits (Hamming
 * distance, cheap) picks candidates, which are rescored exactly by cosine distance from the float
 * vectors. Small knowledge bases and scoped queries: exact cosine over every vector in scope.
 * Callers run it only for a knowledge base that has a model recorded; a missing or broken table
 * then throws, so a failed stage is an error and never an empty result in disguise.
 */
import type Database from 'better-sqlite3';
import type { StageHit } from './fusion';

/** Tunables of the vector stage. */
export interface VectorOptions {
  /** Below this many chunks, score every vector exactly. Default 4,000 (0–1,000,000): above it, reading
   *  every vector costs more than the bit pass (measured: 64 ms for 10k exact vs 3 ms bits). */
  exactBelow?: number;
  /** Candidates the bit pass hands to exact rescoring. Default 200 (must be ≥ limit; 50–5,000). */
  candidates?: number;
}

/** Cosine distance (1 − cosine) between two unit vectors. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}

/** A float vector stored as a BLOB. */
export function toVector(blob: Buffer): Float32Array {
  // A view when the bytes are 4-aligned (no copy on the hot path), a copy otherwise.
  if (blob.byteOffset % 4 === 0) return new Float32Array(blob.buffer, blob.byteOffset, blob.byteLength / 4);
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

/** The stored vectors of these chunks (those that have one). */
export function vectorsOf(db: Database.Database, chunkIds: number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (chunkIds.length === 0) return out;
  const get = db.prepare(`SELECT vector FROM chunk_vectors WHERE chunk_id = ?`).pluck();
  for (const id of chunkIds) {
    const blob = get.get(id) as Buffer | undefined;
    if (blob) out.set(id, toVector(blob));
  }
  return out;
}

function rankExactly(query: Float32Array, rows: Iterable<{ id: number; vector: Buffer }>, limit: number): StageHit[] {
  const scored: StageHit[] = [];
  for (const row of rows) {
    const vector = toVector(row.vector);
    // A stored vector of another length would score NaN and rank at random instead of failing.
    if (vector.length !== query.length) throw new Error(`the stored vector of chunk ${row.id} has ${vector.length} dimensions, the query ${query.length}; re-index the knowledge base`);
    scored.push({ chunkId: row.id, score: cosineDistance(query, vector) });
  }
  scored.sort((a, b) => a.score - b.score || a.chunkId - b.chunkId);
  return scored.slice(0, limit);
}

/** Exact nearest chunks by cosine distance among all vectors, or those of `pageIds`. */
export function exactVectorSearch(db: Database.Database, query: Float32Array, limit: number, pageIds: number[] | null): StageHit[] {
  const rows = pageIds
    ? db
        .prepare(
          `SELECT v.chunk_id AS id, v.vector FROM chunk_vectors v JOIN chunks c ON c.id = v.chunk_id
           WHERE c.page_id IN (SELECT value FROM json_each(?))`,
        )
        .iterate(JSON.stringify(pageIds))
    : db.prepare(`SELECT chunk_id AS id, vector FROM chunk_vectors`).iterate();
  return rankExactly(query, rows as Iterable<{ id: number; vector: Buffer }>, limit);
}

/**
 * Nearest `limit` chunks to `query` (a unit vector), inside `pageIds` when given. Scores are
 * cosine distances (lower is closer). An empty scope returns nothing without touching the index.
 */
export function vectorSearch(db: Database.Database, query: Float32Array, limit: number, pageIds: number[] | null, options: VectorOptions = {}): StageHit[] {
  if (pageIds && pageIds.length === 0) return [];
  const exactBelow = options.exactBelow ?? 4_000;
  if (pageIds) return exactVectorSearch(db, query, limit, pageIds);
  // chunks, not chunk_vectors: counting the vector table reads every blob (66 ms at 100k), the
  // chunk index answers in about a millisecond, and only the order of magnitude matters here.
  const total = db.prepare(`SELECT count(*) FROM chunks`).pluck().get() as number;
  if (total < exactBelow) return exactVectorSearch(db, query, limit, null);
  const k = Math.max(limit, options.candidates ?? 200);
  const blob = Buffer.from(query.buffer, query.byteOffset, query.byteLength);
  const candidates = db
    .prepare(`SELECT rowid FROM vec_bits WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`)
    .pluck()
    .all(blob, k) as (number | bigint)[];
  const get = db.prepare(`SELECT vector FROM chunk_vectors WHERE chunk_id = ?`).pluck();
  const rows = candidates.map((rowid) => ({ id: Number(rowid), vector: get.get(Number(rowid)) as Buffer }));
  return rankExactly(query, rows.filter((r) => r.vector), limit);
}
