/**
 * The vector stage. Large knowledge bases (and large scopes): the in-memory index (vector-index.ts)
 * picks candidates by the Hamming distance of centred sign bits, ranks them by int8 dot products,
 * and the best are rescored exactly by cosine distance from the float vectors. While that index is
 * stale (vectors being written), sqlite-vec's bit KNN picks the candidates instead. Small knowledge
 * bases and small scopes: exact cosine over every vector in scope.
 * Callers run it only for a knowledge base that has a model recorded; a missing or broken table
 * then throws, so a failed stage is an error and never an empty result in disguise.
 */
import type Database from 'better-sqlite3';
import { cached, contentState } from '../store/statements';
import type { StageHit } from './fusion';
import { termStats } from './term-stats';
import { allEntries, bestByCodes, currentVectorIndex, nearestByBits, toFloats, type IndexBuild } from './vector-index';

/** Tunables of the vector stage. */
export interface VectorOptions {
  /** Below this many chunks (in scope), score every vector exactly. Default 2,000 (0–1,000,000): above
   *  it, reading every vector costs more than the bit pass (measured: 64 ms for 10k exact). */
  exactBelow?: number;
  /** Candidates the sign-bit pass hands to int8 rescoring (must be ≥ limit; 100–20,000). Default
   *  {@link defaultCandidates}: more in small collections, where sign bits lose the most recall. */
  candidates?: number;
  /** Up to this many chunks in scope, the int8 codes of all of them are ranked, without a sign-bit pass.
   *  Default 0: the candidates' count (ranking all 10k codes took longer than a sign-bit pass over 100k). */
  rankAllBelow?: number;
  /** After the vectors change, use sqlite-vec's KNN until no change has been seen for this long, then
   *  rebuild the in-memory index. Default 1,000 ms (0–60,000). */
  settleMs?: number;
  /** Builds the in-memory index in the background (a worker thread); without it, the first search
   *  after a change reads the vectors itself (about a second at 100k chunks). */
  buildIndex?: IndexBuild;
}

/** Cosine distance (1 − cosine) between two unit vectors. */
export function cosineDistance(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return 1 - dot;
}

/**
 * The float vectors the last exact rescoring read, per connection, with the knowledge base's state then:
 * MMR asks for the vectors of the fused best, most of which that rescoring has just read.
 */
const lastRescored = new WeakMap<Database.Database, { state: string; vectors: Map<number, Float32Array> }>();

/** The stored vectors of these chunks (those that have one): from the last rescoring while nothing has changed, the rest in one statement. */
export function vectorsOf(db: Database.Database, chunkIds: number[]): Map<number, Float32Array> {
  const out = new Map<number, Float32Array>();
  if (chunkIds.length === 0) return out;
  const last = lastRescored.get(db);
  const known = last && last.state === contentState(db) ? last.vectors : null;
  const missing: number[] = [];
  for (const id of chunkIds) {
    const vector = known?.get(id);
    if (vector) out.set(id, vector);
    else missing.push(id);
  }
  if (missing.length > 0) for (const { id, vector } of storedVectors(db, missing)) out.set(id, toFloats(vector));
  return out;
}

/** The stored float vectors of these chunks (those that have one), in one statement. */
function storedVectors(db: Database.Database, chunkIds: number[]): { id: number; vector: Buffer }[] {
  const sql = `SELECT chunk_id AS id, vector FROM chunk_vectors WHERE chunk_id IN (SELECT value FROM json_each(?))`;
  return cached(db, sql).all(JSON.stringify(chunkIds)) as { id: number; vector: Buffer }[];
}

function rankExactly(query: Float32Array, rows: Iterable<{ id: number; vector: Buffer }>, limit: number, read?: Map<number, Float32Array>): StageHit[] {
  const scored: StageHit[] = [];
  for (const row of rows) {
    const vector = toFloats(row.vector);
    read?.set(row.id, vector);
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

/** The chunk ids of these pages. */
function chunksOfPages(db: Database.Database, pageIds: number[]): number[] {
  const sql = `SELECT id FROM chunks WHERE page_id IN (SELECT value FROM json_each(?))`;
  return cached(db, sql).pluck().all(JSON.stringify(pageIds)) as number[];
}

/**
 * Candidates the sign-bit pass keeps among `total` chunks: 4,000 in small collections, one fewer per 25
 * more chunks, 1,000 from 75,000 on. Sign bits rank near-ties worst where a collection is small (cone
 * vectors, recall@20 at 10k chunks: 0.85 with 1,000 candidates, 0.98 with 4,000; at 100k 1.000 with
 * 1,000), and fewer candidates as the scan grows keep the stage's cost about level from 10k to 75k
 * chunks (a scan of 25 chunks costs about one int8 rescoring), so no size is slower than a larger one.
 */
export function defaultCandidates(total: number): number {
  return Math.max(1_000, Math.round(4_000 - total / 25));
}

/** Candidates sqlite-vec's bit KNN hands to exact rescoring while the in-memory index is stale. */
const KNN_CANDIDATES = 400;
/**
 * Chunks the int8 ranking hands to exact rescoring at least (reads that many float vectors; the stage's
 * limit when larger). The int8 order alone keeps recall@20 at 0.971 of the exact one (100k cone vectors);
 * rescoring its best 30 already restores 1.000, so 50 leaves a margin at half the reads of 100.
 */
const EXACT_RESCORE = 50;


/**
 * Nearest `limit` chunks to `query` (a unit vector), inside `pageIds` when given. Scores are
 * cosine distances (lower is closer). An empty scope returns nothing without touching the index.
 */
export function vectorSearch(db: Database.Database, query: Float32Array, limit: number, pageIds: number[] | null, options: VectorOptions = {}): StageHit[] {
  if (pageIds && pageIds.length === 0) return [];
  // chunks, not chunk_vectors: counting the vector table reads every blob (66 ms at 100k), and only the
  // order of magnitude matters here. Counting the chunk index still walks it (11 ms at 1M), so the count
  // is the one term-stats keeps until the knowledge base changes.
  const inScope = pageIds ? chunksOfPages(db, pageIds) : null;
  const stats = inScope ? null : termStats(db, []);
  const total = inScope ? inScope.length : stats!.chunks;
  if (total < (options.exactBelow ?? 2_000)) return exactVectorSearch(db, query, limit, pageIds);
  const index = currentVectorIndex(db, query.length, options.settleMs ?? 1_000, options.buildIndex);
  let candidates: number[];
  if (index) {
    const allowed = inScope ? new Set(inScope) : null;
    const k = Math.max(limit, options.candidates ?? defaultCandidates(total));
    const entries = total <= Math.max(k, options.rankAllBelow ?? 0) ? allEntries(index, allowed) : nearestByBits(index, query, k, allowed);
    candidates = bestByCodes(index, query, entries, Math.max(limit, EXACT_RESCORE));
  } else if (pageIds) {
    return exactVectorSearch(db, query, limit, pageIds); // sqlite-vec's KNN cannot filter by page
  } else {
    const blob = Buffer.from(query.buffer, query.byteOffset, query.byteLength);
    candidates = (
      db.prepare(`SELECT rowid FROM vec_bits WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`).pluck().all(blob, Math.max(limit, KNN_CANDIDATES)) as (number | bigint)[]
    ).map(Number);
  }
  const read = new Map<number, Float32Array>();
  const state = stats ? stats.version : contentState(db); // the state term-stats has just read, when it has
  const hits = rankExactly(query, storedVectors(db, candidates), limit, read);
  lastRescored.set(db, { state, vectors: read });
  return hits;
}
