/**
 * Retrieval metrics over one query's ranked documents, the way BEIR and trec_eval count them:
 * a document is relevant when its qrels score is above 0; nDCG uses the qrels score itself as the
 * gain (graded relevance) with a log2 discount, against the ideal ordering of the qrels. Pure
 * functions; rankings are document ids, best first, each at most once.
 */

/** Relevance judgements of one query: document id → graded score (0 or less: not relevant). */
export type Judgements = ReadonlyMap<string, number>;

/** The figures `sift eval` reports for one query, or averaged over many. */
export interface QueryScores {
  /** 1 when a relevant document is in the top 5, else 0. */
  hitAt5: number;
  /** Share of the relevant documents found in the top 5. */
  recallAt5: number;
  /** Share of the relevant documents found in the top 20. */
  recallAt20: number;
  /** 1 / rank of the first relevant document within the top 10, else 0. */
  mrrAt10: number;
  /** Graded nDCG over the top 10. */
  ndcgAt10: number;
}

/** The names of {@link QueryScores}, in the order they are printed. */
export const SCORE_NAMES = ['hitAt5', 'recallAt5', 'recallAt20', 'mrrAt10', 'ndcgAt10'] as const;

function checkCutoff(k: number): void {
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`eval metrics: the cut-off k must be a whole number from 1 up, got ${k}`);
}

function relevantCount(judgements: Judgements): number {
  let n = 0;
  for (const score of judgements.values()) if (score > 0) n++;
  return n;
}

const isRelevant = (judgements: Judgements, doc: string): boolean => (judgements.get(doc) ?? 0) > 0;

/** 1 when any of the first `k` (≥ 1) documents is relevant, else 0. */
export function hitAt(ranking: readonly string[], judgements: Judgements, k: number): number {
  checkCutoff(k);
  return ranking.slice(0, k).some((doc) => isRelevant(judgements, doc)) ? 1 : 0;
}

/** Relevant documents among the first `k` (≥ 1), divided by all relevant documents; 0 when there are none. */
export function recallAt(ranking: readonly string[], judgements: Judgements, k: number): number {
  checkCutoff(k);
  const total = relevantCount(judgements);
  if (total === 0) return 0;
  return ranking.slice(0, k).filter((doc) => isRelevant(judgements, doc)).length / total;
}

/** 1 / (1-based rank) of the first relevant document within the first `k` (≥ 1), else 0. */
export function reciprocalRankAt(ranking: readonly string[], judgements: Judgements, k: number): number {
  checkCutoff(k);
  const at = ranking.slice(0, k).findIndex((doc) => isRelevant(judgements, doc));
  return at === -1 ? 0 : 1 / (at + 1);
}

/** Σ gain / log2(rank + 1) over the first `k` gains (negative gains count as 0). */
function dcg(gains: readonly number[], k: number): number {
  let sum = 0;
  gains.slice(0, k).forEach((gain, i) => {
    if (gain > 0) sum += gain / Math.log2(i + 2);
  });
  return sum;
}

/**
 * Normalised discounted cumulative gain over the first `k` (≥ 1) documents: DCG of the ranking
 * with each document's qrels score as its gain, divided by the DCG of the qrels' own scores sorted
 * best first (the ideal ranking). 0 when the query has no relevant document.
 */
export function ndcgAt(ranking: readonly string[], judgements: Judgements, k: number): number {
  checkCutoff(k);
  const ideal = dcg([...judgements.values()].sort((a, b) => b - a), k);
  if (ideal === 0) return 0;
  return dcg(ranking.map((doc) => judgements.get(doc) ?? 0), k) / ideal;
}

/** Every reported figure for one query's ranking. */
export function scoreQuery(ranking: readonly string[], judgements: Judgements): QueryScores {
  return {
    hitAt5: hitAt(ranking, judgements, 5),
    recallAt5: recallAt(ranking, judgements, 5),
    recallAt20: recallAt(ranking, judgements, 20),
    mrrAt10: reciprocalRankAt(ranking, judgements, 10),
    ndcgAt10: ndcgAt(ranking, judgements, 10),
  };
}

/** The mean of each figure over `scores`; all 0 for an empty list. */
export function meanScores(scores: readonly QueryScores[]): QueryScores {
  const mean = {} as QueryScores;
  for (const name of SCORE_NAMES) mean[name] = scores.length ? scores.reduce((sum, s) => sum + s[name], 0) / scores.length : 0;
  return mean;
}

/**
 * The nearest-rank percentile: the smallest value with at least `p` % of the values at or below
 * it (p50 of [1, 2, 3, 4] is 2). `p` from 0 (the minimum) to 100 (the maximum); null for no values.
 */
export function percentile(values: readonly number[], p: number): number | null {
  if (!(p >= 0 && p <= 100)) throw new RangeError(`eval metrics: a percentile is from 0 to 100, got ${p}`);
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)]!;
}
