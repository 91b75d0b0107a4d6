/**
 * The keyword stage: FTS5 bm25 over the pre-tokenized chunk text, with the page title and path in
 * their own, heavier columns. The query goes through the same tokenizer as the index; every term
 * is quoted (so `api-gateway` or `v1/chat` is one term, not FTS5 syntax) and terms are ORed.
 * An identifier is searched whole when the knowledge base has it, by its parts only when it does not.
 * Terms found in more than a quarter of all chunks are left out when rarer ones remain: bm25 gives
 * them little weight, but scoring every chunk that has them is what makes a keyword search slow.
 */
import type Database from 'better-sqlite3';
import { queryTerms, queryWords } from '../text/tokenize';
import type { StageHit } from './fusion';
import { sectionScores, type PlacedHit } from './section-evidence';

/** Column weights for bm25: body, title, path. Title matches count most. */
export const KEYWORD_WEIGHTS = { body: 1, title: 4, path: 2 } as const;

/** Share of all chunks above which a term is left out of a query that has rarer terms. */
export const COMMON_TERM_SHARE = 0.25;
/** Knowledge bases with fewer chunks keep every term: scoring them all is cheap, and in a handful of
 *  notes a word in a quarter of them can still be the one that matters. */
export const COMMON_TERMS_FROM = 10_000;

/** The FTS5 MATCH expression for these terms, or null when there are none. */
export function matchExpression(terms: string[]): string | null {
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/** The terms the keyword stage searches for, and the identifiers of the query the knowledge base never holds. */
export interface KeywordTerms {
  terms: string[];
  /** Identifier-like words (as typed) with no exact occurrence in the knowledge base, e.g. `E_CONN_RESET`. */
  noExactMatch: string[];
}

/**
 * The query's search terms. An identifier is searched as its whole form only when the knowledge
 * base holds it, so a page with `E_CONN_RESET` is never outranked by pages that merely say "reset";
 * only when the whole is absent do its parts stand in, and the word is named in `noExactMatch`.
 */
export function keywordTerms(db: Database.Database, query: string): KeywordTerms {
  const frequency = db.prepare(`SELECT doc FROM chunks_vocab WHERE term = ?`).pluck();
  const terms = new Set<string>();
  const noExactMatch: string[] = [];
  for (const word of queryWords(query)) {
    const held = !word.identifier || ((frequency.get(word.term) as number | undefined) ?? 0) > 0;
    if (held || word.parts.length === 0) terms.add(word.term);
    if (held) continue;
    noExactMatch.push(word.text);
    for (const part of word.parts) terms.add(part);
  }
  return { terms: [...terms], noExactMatch };
}

/**
 * The query's terms (see keywordTerms), without those in more than COMMON_TERM_SHARE of the chunks
 * of a knowledge base of at least `from` chunks (default COMMON_TERMS_FROM); all of them when every
 * term is that common.
 */
export function distinctiveTerms(db: Database.Database, query: string, from = COMMON_TERMS_FROM): string[] {
  const { terms } = keywordTerms(db, query);
  if (terms.length < 2) return terms;
  const chunks = db.prepare(`SELECT count(*) FROM chunks`).pluck().get() as number;
  if (chunks < from) return terms;
  const frequency = db.prepare(`SELECT doc FROM chunks_vocab WHERE term = ?`).pluck();
  const kept = terms.filter((t) => ((frequency.get(t) as number | undefined) ?? 0) <= chunks * COMMON_TERM_SHARE);
  return kept.length > 0 ? kept : terms;
}

/** How the keyword stage ranks. */
export interface KeywordOptions {
  /** Weight of the section's bm25 added to the chunk's own. Default SECTION_WEIGHT (0 = chunks alone; 0–10). */
  sectionWeight?: number;
  /** Chunks read from FTS5 per chunk returned, the candidates section evidence may reorder. Default 1 (1–10). */
  candidateFactor?: number;
}

/**
 * Weight of section evidence (see section-evidence.ts) against the chunk's own bm25. SciFact train
 * nDCG@10: 0 → 0.665, 0.5 → 0.685, 1 → 0.692, 2 → 0.691; but from 1 the hybrid en-paraphrase figures
 * of resources/eval/sift-bilingual drop (nDCG@10 0.598 → 0.538), so 0.5. Reading 2 or 4 candidates
 * per result instead of 1 changed nothing.
 */
export const SECTION_WEIGHT = 0.5;

/**
 * Best `limit` chunks, as positive scores (higher is better), inside `pageIds` when given: FTS5
 * finds the best `limit × candidateFactor` chunks by bm25, and each is re-scored with the bm25 of
 * its whole section added, so the chunk of a section that answers the question throughout outranks
 * a chunk that happens to repeat one query word. An empty scope returns nothing without touching
 * the index.
 */
export function keywordSearch(
  db: Database.Database,
  query: string,
  limit: number,
  pageIds: number[] | null,
  options: KeywordOptions = {},
): StageHit[] {
  if (pageIds && pageIds.length === 0) return [];
  const terms = distinctiveTerms(db, query);
  const match = matchExpression(terms);
  if (!match) return [];
  const weight = options.sectionWeight ?? SECTION_WEIGHT;
  const hits = bestChunks(db, match, limit * (options.candidateFactor ?? 1), pageIds);
  if (weight === 0) return hits.slice(0, limit).map(({ chunkId, score }) => ({ chunkId, score }));
  const sections = sectionScores(db, terms, hits);
  return hits
    .map((hit) => ({ chunkId: hit.chunkId, score: hit.score + weight * (sections.get(hit.sectionId) ?? 0) }))
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, limit);
}

/** The best `count` chunks for a MATCH expression by weighted bm25, with where each lies. */
function bestChunks(db: Database.Database, match: string, count: number, pageIds: number[] | null): PlacedHit[] {
  const { body, title, path } = KEYWORD_WEIGHTS;
  const bm25 = `bm25(chunks_fts, ${body}, ${title}, ${path})`;
  const scoped = pageIds ? `AND rowid IN (SELECT id FROM chunks WHERE page_id IN (SELECT value FROM json_each(?)))` : '';
  const sql = `SELECT h.chunkId, h.score, c.page_id AS pageId, c.section_id AS sectionId, c.start, c.end
               FROM (SELECT rowid AS chunkId, -${bm25} AS score FROM chunks_fts
                     WHERE chunks_fts MATCH ? ${scoped} ORDER BY ${bm25} LIMIT ?) h
               JOIN chunks c ON c.id = h.chunkId ORDER BY h.score DESC, h.chunkId`;
  const params: unknown[] = pageIds ? [match, JSON.stringify(pageIds), count] : [match, count];
  return db.prepare(sql).all(...params) as PlacedHit[];
}

/** True when a query term occurs in the page's title tokens (the hit reason "title"). */
export function matchesTitle(query: string, titleTokens: string): boolean {
  const tokens = new Set(titleTokens.split(' '));
  return queryTerms(query).some((t) => tokens.has(t));
}
