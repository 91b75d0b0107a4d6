/**
 * Reranking the fused candidates of a search: one interface, two providers (an LLM through the chat client, a
 * cross-encoder through transformers.js). A reranker never drops or invents a candidate: its order holds every
 * input index exactly once, and a reply it cannot use keeps the fused order with `fallback` saying why.
 */

/** Which provider reranked. */
export type RerankKind = 'llm' | 'cross-encoder';

/** What a reranker did with `n` candidates. */
export interface RerankOutcome {
  kind: RerankKind;
  /** Candidate indices (0-based, into the input list), best first; every index 0…n-1 exactly once. */
  order: number[];
  /** Score of each input candidate by input index (higher is better); null where the provider gives none
   *  (an LLM's ranking has positions, not scores; a candidate it left out). */
  scores: (number | null)[];
  /** Why the provider's reply was not used and the fused order kept; null when it was used. */
  fallback: string | null;
  /** Time spent, ms. */
  ms: number;
}

/** A reranker of passages for one query. */
export interface Reranker {
  readonly kind: RerankKind;
  /** Rank `passages` (their text, in fused order) for `query`. Rejects only on cancel (SiftError 'cancelled');
   *  every other failure is an outcome with the fused order and `fallback` set. */
  rerank(query: string, passages: string[], signal?: AbortSignal): Promise<RerankOutcome>;
}
