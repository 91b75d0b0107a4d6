/**
 * The ranking math between the two search stages and the passages a person sees: reciprocal-rank
 * fusion of the keyword and vector lists, maximal-marginal-relevance diversification, and merging
 * chunks of one page that touch into one passage. Pure functions; no database, no I/O.
 */
import { SiftError } from '../../../shared/errors';

/** One hit of one search stage. A stage's list is best first: index 0 is rank 1. */
export interface StageHit {
  chunkId: number;
  /** The stage's own score (bm25 for keywords, distance for vectors); kept for display, never compared across stages. */
  score: number;
}

/** A chunk after fusion, with where each stage put it. A stage that did not find the chunk gives null, never 0. */
export interface FusedHit {
  chunkId: number;
  /** Σ 1/(k + rank) over the stages that found the chunk. */
  rrf: number;
  keywordRank: number | null;
  keywordScore: number | null;
  vectorRank: number | null;
  vectorDistance: number | null;
}

/** Default RRF constant: the value from the original paper; larger flattens the gap between top ranks. */
export const DEFAULT_RRF_K = 60;

/** Default MMR trade-off: half relevance, half novelty. */
export const DEFAULT_MMR_LAMBDA = 0.5;

/** Relative tolerance under which two fused scores count as equal (sums of reciprocals round differently). */
const SCORE_EPSILON = 1e-12;

function bestRank(hit: FusedHit): number {
  return Math.min(hit.keywordRank ?? Infinity, hit.vectorRank ?? Infinity);
}

function compareFused(a: FusedHit, b: FusedHit): number {
  const gap = b.rrf - a.rrf;
  if (Math.abs(gap) > SCORE_EPSILON * Math.max(a.rrf, b.rrf)) return gap;
  return bestRank(a) - bestRank(b) || a.chunkId - b.chunkId;
}

/**
 * Reciprocal-rank fusion: rrf = Σ 1/(k + rank) over the stages that found a chunk. Each list is
 * deduplicated first (the first occurrence is kept, and ranks are positions in the deduplicated list,
 * so a repeated chunk does not push the ones after it down). A null or empty list contributes nothing.
 * Sorted by rrf descending; ties broken by the best single-stage rank, then chunkId ascending, so the
 * order is repeatable.
 * @param keyword the keyword stage's hits, best first, or null when that stage did not run.
 * @param vector the vector stage's hits (score = distance), best first, or null when that stage did not run.
 * @param k the RRF constant; default 60, sensible range 1–1000. Out of range throws `invalid_argument`.
 */
export function reciprocalRankFusion(keyword: StageHit[] | null, vector: StageHit[] | null, k = DEFAULT_RRF_K): FusedHit[] {
  if (!Number.isFinite(k) || k < 1 || k > 1000) {
    throw new SiftError('invalid_argument', `search fusion: k must be between 1 and 1000 (got ${k}); use the default 60.`);
  }
  const fused = new Map<number, FusedHit>();
  const entry = (chunkId: number): FusedHit => {
    let hit = fused.get(chunkId);
    if (!hit) {
      hit = { chunkId, rrf: 0, keywordRank: null, keywordScore: null, vectorRank: null, vectorDistance: null };
      fused.set(chunkId, hit);
    }
    return hit;
  };
  dedupe(keyword ?? []).forEach((stage, i) => {
    const hit = entry(stage.chunkId);
    hit.keywordRank = i + 1;
    hit.keywordScore = stage.score;
    hit.rrf += 1 / (k + i + 1);
  });
  dedupe(vector ?? []).forEach((stage, i) => {
    const hit = entry(stage.chunkId);
    hit.vectorRank = i + 1;
    hit.vectorDistance = stage.score;
    hit.rrf += 1 / (k + i + 1);
  });
  return [...fused.values()].sort(compareFused);
}

function dedupe(list: StageHit[]): StageHit[] {
  const seen = new Set<number>();
  return list.filter((hit) => !seen.has(hit.chunkId) && seen.add(hit.chunkId));
}

/** Σ v², summed in the order `cosine` sums it. */
function squaredNorm(v: Float32Array): number {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i]! * v[i]!;
  return n;
}

/** Cosine similarity of two vectors whose squared norms are `na` and `nb`. */
function cosine(a: Float32Array, na: number, b: Float32Array, nb: number): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  // Stored vectors are unit length, but dividing costs nothing and keeps a stray unnormalised one honest.
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** rrf rescaled so the best candidate is 1 and the worst 0; all 1 when every candidate scores the same. */
function normalisedRelevance(hits: { rrf: number }[]): number[] {
  const scores = hits.map((h) => h.rrf);
  const min = Math.min(...scores);
  const span = Math.max(...scores) - min;
  return scores.map((s) => (span > 0 ? (s - min) / span : 1));
}

/**
 * Maximal marginal relevance: picks up to `limit` hits, each time the one maximising
 * λ·rel − (1−λ)·(highest cosine similarity to a hit already picked), so near-duplicates of a picked
 * chunk give way to chunks that add something new. rel is rrf min-max normalised to [0,1] over the
 * candidates. A hit without a vector has zero similarity to everything. Ties go to the earlier hit in
 * `hits`, so the result is deterministic; at λ = 1 it is plain relevance order.
 * @param hits the candidates (usually fused hits, best first).
 * @param vectors stored unit vectors by chunk id.
 * @param limit how many to pick; a whole number, 0 or more (more than `hits.length` returns them all, reordered).
 * @param lambda relevance weight; default 0.5, range 0 (only novelty) to 1 (only relevance).
 */
export function maximalMarginalRelevance<T extends { chunkId: number; rrf: number }>(
  hits: T[],
  vectors: Map<number, Float32Array>,
  limit: number,
  lambda = DEFAULT_MMR_LAMBDA,
): T[] {
  if (!(lambda >= 0 && lambda <= 1)) {
    throw new SiftError('invalid_argument', `search diversification: lambda must be between 0 and 1 (got ${lambda}); use the default 0.5.`);
  }
  if (!Number.isInteger(limit) || limit < 0) {
    throw new SiftError('invalid_argument', `search diversification: limit must be a whole number, 0 or more (got ${limit}).`);
  }
  const relevance = normalisedRelevance(hits);
  // Each candidate's vector and squared norm, once: a pick compares the chosen vector with those left.
  const vectorOf = hits.map((h) => vectors.get(h.chunkId) ?? null);
  const norms = vectorOf.map((v) => (v ? squaredNorm(v) : 0));
  const width = vectorOf.find((v) => v !== null)?.length;
  const other = vectorOf.find((v) => v !== null && v.length !== width);
  if (other) {
    throw new SiftError('internal', `search diversification: vectors of different lengths (${width} and ${other.length}); re-index the knowledge base.`);
  }
  // closest[i] is hit i's highest similarity to the first seen[i] picks. It only grows as picks are
  // added, so the score worked out from it bounds the hit's score from above (a hit compared with no
  // pick yet has no bound). Each pick brings the hit with the best bound up to date until that hit
  // is up to date itself: its score then beats every other hit's bound, ties going to the earlier hit
  // as before. Most hits are never compared with most picks.
  const closest = new Float64Array(hits.length);
  const seen = new Int32Array(hits.length);
  const left = hits.map((_, i) => i);
  const picks: number[] = [];
  const bound = (i: number): number => {
    if (picks.length === 0) return lambda * relevance[i]!;
    return seen[i] === 0 ? Infinity : lambda * relevance[i]! - (1 - lambda) * closest[i]!;
  };
  /** The place in `left` of the hit with the best bound (the earlier one on a tie). */
  const bestBounded = (): number => {
    let [at, best] = [0, -Infinity];
    for (let k = 0; k < left.length; k++) {
      const score = bound(left[k]!);
      if (score > best) [at, best] = [k, score];
    }
    return at;
  };
  /** Compare hit `i` with the picks it has not met yet. */
  const update = (i: number): void => {
    for (; seen[i]! < picks.length; seen[i]!++) {
      const p = picks[seen[i]!]!;
      const chosen = vectorOf[p];
      const mine = vectorOf[i];
      const similarity = chosen && mine ? cosine(chosen, norms[p]!, mine, norms[i]!) : 0;
      closest[i] = seen[i] === 0 ? similarity : Math.max(closest[i]!, similarity);
    }
  };
  while (picks.length < limit && left.length > 0) {
    let at = bestBounded();
    while (seen[left[at]!] !== picks.length) {
      update(left[at]!);
      at = bestBounded();
    }
    picks.push(left[at]!);
    left.splice(at, 1);
  }
  return picks.map((i) => hits[i]!);
}

/** Where a chunk lies: its page and its `[start, end)` span in the page's canonical text. */
export interface ChunkPlace {
  chunkId: number;
  pageId: number;
  start: number;
  end: number;
}

/** Neighbouring chunks of one page shown as one passage, spanning `[start, end)`. */
export interface MergedPassage<T> {
  pageId: number;
  start: number;
  end: number;
  /** The hits merged into this passage, best first (their order in the input). */
  hits: T[];
}

/**
 * Merges hits of the same page whose chunk spans overlap or touch (end ≥ next start) into one passage
 * spanning [min start, max end); merging is transitive, so a chain of touching chunks becomes one passage.
 * Passages come in the order of their best hit in `hits`. A chunk listed twice counts once (first kept).
 * A hit whose chunk has no place — deleted by a re-index since the search ran — is left out.
 * @param hits the hits, best first.
 * @param places where each chunk lies, by chunk id.
 */
export function mergeAdjacent<T extends { chunkId: number }>(hits: T[], places: Map<number, ChunkPlace>): MergedPassage<T>[] {
  const byPage = new Map<number, { hit: T; place: ChunkPlace; order: number }[]>();
  const seen = new Set<number>();
  hits.forEach((hit, order) => {
    const place = places.get(hit.chunkId);
    if (!place || seen.has(hit.chunkId)) return;
    seen.add(hit.chunkId);
    const list = byPage.get(place.pageId) ?? [];
    list.push({ hit, place, order });
    byPage.set(place.pageId, list);
  });
  const passages: { passage: MergedPassage<T>; order: number }[] = [];
  for (const [pageId, list] of byPage) {
    list.sort((a, b) => a.place.start - b.place.start || a.place.end - b.place.end);
    let group: typeof list = [];
    let groupEnd = -Infinity;
    const close = (): void => {
      if (!group.length) return;
      group.sort((a, b) => a.order - b.order);
      const start = Math.min(...group.map((g) => g.place.start));
      passages.push({ passage: { pageId, start, end: groupEnd, hits: group.map((g) => g.hit) }, order: group[0]!.order });
    };
    for (const item of list) {
      if (item.place.start > groupEnd) {
        close();
        group = [];
        groupEnd = -Infinity;
      }
      group.push(item);
      groupEnd = Math.max(groupEnd, item.place.end);
    }
    close();
  }
  return passages.sort((a, b) => a.order - b.order).map((p) => p.passage);
}
