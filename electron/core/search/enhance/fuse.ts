/**
 * Reciprocal-rank fusion over every ranked list of an enhanced search (each probe's keyword and vector lists) into
 * the one fused list, remembering which probe and stage found each chunk. With one probe it is exactly
 * {@link reciprocalRankFusion}. Pure.
 */
import { DEFAULT_RRF_K, type FusedHit, type StageHit } from '../fusion';

/** One ranked list: probe `probe`'s hits of one stage, best first. */
export interface ProbeList {
  probe: number;
  stage: 'keyword' | 'vector';
  hits: StageHit[];
}

/** Where one probe's stage ranked a chunk. */
export interface ProbeHit {
  probe: number;
  stage: 'keyword' | 'vector';
  rank: number;
}

/** A fused chunk with the probes that found it; the keyword/vector figures are its best over all probes. */
export interface ProbeFusedHit extends FusedHit {
  probes: ProbeHit[];
}

/**
 * rrf = Σ 1/(k + rank) over every list that found a chunk (each list deduplicated, first occurrence kept);
 * keywordRank/vectorRank are the best rank any probe's stage gave it. Sorted as the two-list fusion sorts (rrf, then
 * the best single-stage rank), except that a tie left after those goes to the chunk an earlier probe found — the
 * query itself before its rephrasings — before chunkId decides.
 */
export function fuseProbeLists(lists: ProbeList[], k = DEFAULT_RRF_K): ProbeFusedHit[] {
  const fused = new Map<number, ProbeFusedHit>();
  for (const list of lists) {
    const seen = new Set<number>();
    let rank = 0;
    for (const stage of list.hits) {
      if (seen.has(stage.chunkId)) continue;
      seen.add(stage.chunkId);
      rank++;
      let hit = fused.get(stage.chunkId);
      if (!hit) {
        hit = { chunkId: stage.chunkId, rrf: 0, keywordRank: null, keywordScore: null, vectorRank: null, vectorDistance: null, probes: [] };
        fused.set(stage.chunkId, hit);
      }
      hit.rrf += 1 / (k + rank);
      hit.probes.push({ probe: list.probe, stage: list.stage, rank });
      if (list.stage === 'keyword' && (hit.keywordRank === null || rank < hit.keywordRank)) {
        [hit.keywordRank, hit.keywordScore] = [rank, stage.score];
      } else if (list.stage === 'vector' && (hit.vectorRank === null || rank < hit.vectorRank)) {
        [hit.vectorRank, hit.vectorDistance] = [rank, stage.score];
      }
    }
  }
  return [...fused.values()].sort(compareProbeFused);
}

/** Relative tolerance under which two fused scores count as equal (as in the two-list fusion). */
const SCORE_EPSILON = 1e-12;

function compareProbeFused(a: ProbeFusedHit, b: ProbeFusedHit): number {
  const gap = b.rrf - a.rrf;
  if (Math.abs(gap) > SCORE_EPSILON * Math.max(a.rrf, b.rrf)) return gap;
  const bestRank = (h: FusedHit) => Math.min(h.keywordRank ?? Infinity, h.vectorRank ?? Infinity);
  const firstProbe = (h: ProbeFusedHit) => Math.min(...h.probes.map((p) => p.probe));
  return bestRank(a) - bestRank(b) || firstProbe(a) - firstProbe(b) || a.chunkId - b.chunkId;
}

/** The probes of merged hits: each probe-and-stage once, at its best rank, in probe then stage order. */
export function probesOf(hits: { probes?: ProbeHit[] }[]): ProbeHit[] {
  const best = new Map<string, ProbeHit>();
  for (const hit of hits) {
    for (const p of hit.probes ?? []) {
      const key = `${p.probe}:${p.stage}`;
      const had = best.get(key);
      if (!had || p.rank < had.rank) best.set(key, p);
    }
  }
  return [...best.values()].sort((a, b) => a.probe - b.probe || a.stage.localeCompare(b.stage));
}
