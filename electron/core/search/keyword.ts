/**
 * The keyword stage: FTS5 bm25 over the pre-tokenized chunk text, with the page title and path in
 * their own, heavier columns. The query goes through the same tokenizer as the index; every term
 * is quoted (so `api-gateway` or `v1/chat` is one term, not FTS5 syntax) and terms are ORed.
 */
import type Database from 'better-sqlite3';
import { queryTerms } from '../text/tokenize';
import type { StageHit } from './fusion';

/** Column weights for bm25: body, title, path. Title matches count most. */
export const KEYWORD_WEIGHTS = { body: 1, title: 4, path: 2 } as const;

/** The FTS5 MATCH expression for a query, or null when it has no searchable term. */
export function matchExpression(query: string): string | null {
  const terms = queryTerms(query);
  if (terms.length === 0) return null;
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' OR ');
}

/**
 * Best `limit` chunks by bm25, as positive scores (higher is better), inside `pageIds` when given.
 * An empty scope returns nothing without touching the index.
 */
export function keywordSearch(db: Database.Database, query: string, limit: number, pageIds: number[] | null): StageHit[] {
  const match = matchExpression(query);
  if (!match || (pageIds && pageIds.length === 0)) return [];
  const { body, title, path } = KEYWORD_WEIGHTS;
  const scoped = pageIds ? `AND rowid IN (SELECT id FROM chunks WHERE page_id IN (SELECT value FROM json_each(?)))` : '';
  const sql = `SELECT rowid AS chunkId, -bm25(chunks_fts, ${body}, ${title}, ${path}) AS score
               FROM chunks_fts WHERE chunks_fts MATCH ? ${scoped} ORDER BY bm25(chunks_fts, ${body}, ${title}, ${path}) LIMIT ?`;
  const params: unknown[] = pageIds ? [match, JSON.stringify(pageIds), limit] : [match, limit];
  return db.prepare(sql).all(...params) as StageHit[];
}

/** True when a query term occurs in the page's title tokens (the hit reason "title"). */
export function matchesTitle(query: string, titleTokens: string): boolean {
  const tokens = new Set(titleTokens.split(' '));
  return queryTerms(query).some((t) => tokens.has(t));
}
