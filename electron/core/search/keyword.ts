/**
 * The keyword stage: FTS5 bm25 over the pre-tokenized chunk text, with the page title and path in
 * their own, heavier columns, and the bm25 of each chunk's whole section added. The query goes
 * through the same tokenizer as the index; every term is quoted (so `v1.2-beta` or `v1/chat` is one
 * term, not FTS5 syntax) and terms are ORed. An identifier is searched whole when the knowledge base
 * has it, by its parts only when it does not; a hyphenated compound by its words (keyword-terms.ts).
 * A page the query names comes first (titles.ts), then chunks holding the query as written, or its quoted
 * words (phrases.ts).
 *
 * Cost is what bm25 costs per chunk it scores, so in a large knowledge base only the distinctive
 * terms choose which chunks are scored; common ones add to those chunks' scores without making every
 * chunk that holds them a candidate. A search runs a fixed number of statements whatever the query's
 * length: at most three for the chunks, three for their sections, one for page titles and one for texts,
 * one for the titles of the candidates' pages (a query of up to six terms), and for a query of three words
 * or more one for its phrase (and three more when chunks holding it were not among the best).
 */
import type Database from 'better-sqlite3';
import { cached } from '../store/statements';
import type { StageHit } from './fusion';
import { keywordTerms, matchExpression, stageTerms, type StageTerms } from './keyword-terms';
import { textOrdersPages, type ScoredHit } from './own-terms';
import { phraseChunks, queryPhrases } from './phrases';
import { chunkScopeClause } from './scope';
import { pagesNamed } from './titles';

export {
  COMMON_TERM_SHARE, COMMON_TERMS_FROM, distinctiveTerms, FUNCTION_TERMS, FUNCTION_WORDS, keywordTerms, matchesTitle,
  matchExpression, SCORING_ONLY_SHARE, type KeywordTerms,
} from './keyword-terms';

/** Column weights for bm25: body, title, path. Title matches count most. */
export const KEYWORD_WEIGHTS = { body: 1, title: 4, path: 2 } as const;

/** How the keyword stage ranks. */
export interface KeywordOptions {
  /** Weight of the section's bm25 added to the chunk's own. Default SECTION_WEIGHT (0 = chunks alone; 0–100). */
  sectionWeight?: number;
  /** Chunks read per chunk returned, which section evidence may reorder. Default CANDIDATE_FACTOR (1–10). */
  candidateFactor?: number;
  /** Weight of the page title against the section's body in the section bm25. Default SECTION_TITLE_WEIGHT (0–10). */
  sectionTitleWeight?: number;
  /** Order a page's chunks by their text alone (the title is the same for all of them). Default true. */
  textOrdersPage?: boolean;
  /** Put the opening chunk of a page the query names first (titles.ts). Default true. */
  namedPagesFirst?: boolean;
}

/**
 * Weight of the section's bm25 against the chunk's own: the section decides, the chunk's own score
 * orders chunks within a section and breaks near ties. SciFact train nDCG@10 (keyword, 809 queries,
 * candidates ×3, title 2): 0 → 0.670, 1 → 0.696, 2 → 0.698, 10 → 0.699, 100 → 0.696. Fusing ranks
 * instead (reciprocal rank, k = 60) scored 0.695.
 */
export const SECTION_WEIGHT = 10;
/** Chunks read per chunk returned, the candidates section evidence reorders (SciFact: 1, 3 and 6 all 0.699). */
export const CANDIDATE_FACTOR = 1;
/**
 * Title weight in the section bm25 (the section's body holds the title heading too).
 * SciFact: 0 → 0.693, 2 → 0.699, 3 → 0.698.
 */
export const SECTION_TITLE_WEIGHT = 2;

/** A chunk the keyword stage found, with its section, page and span. */
export interface PlacedHit {
  chunkId: number;
  /** bm25 of the whole row (body, title, path), positive. */
  score: number;
  /** bm25 of the chunk's text alone, positive. */
  text: number;
  sectionId: number;
  pageId: number;
}

/** A section's bm25 with the page title (the page's evidence) and of its text alone (the passage's). */
interface SectionScore {
  score: number;
  text: number;
}

/** A MATCH expression and the weight of the rows it finds. */
interface Expression {
  match: string;
  weight: number;
}

/** Weight of a row that only the parts of an identifier the knowledge base lacks find (`ln` of `dLNs`,
 *  `mi` of `mis-capped`, which then matches miRNA's camelCase part), beside whole terms of the query. */
export const PARTIAL_WEIGHT = 0.5;

/**
 * `choose` alone, or also the rows that hold a `scoring` term with it, scored over both. The rows of
 * `choose` alone that hold a scoring term are found twice, scored lower the first time (bm25 adds a
 * share for each phrase a row holds), and keep their higher score (see highest). Leaving them out
 * instead (`choose NOT scoring`) found the same rows at a higher cost: bm25 counts the rows of every
 * phrase of its expression, a walk over the whole posting list of each common scoring term, once more
 * per statement (1.1 ms for a term in 21,000 of 100,000 chunks), and NOT walks those lists again.
 * The best `n` of `choose` alone still hold every row of the best `n` overall that holds no scoring
 * term: a row above one of them in `choose` alone is above it overall too.
 */
const split = (choose: string, scoring: string | null): string[] => (scoring ? [`(${choose}) AND (${scoring})`, choose] : [choose]);

/**
 * The MATCH expressions that together find every row holding a choosing term (or name): one when no
 * term is scoring-only, else the rows that also hold a scoring term, scored over all the terms, and the
 * rows of the choosing terms alone (see split). bm25 is a sum over the phrases a row holds, so a row's
 * best score is the one it would get in the plain OR of all terms. Rows that only an identifier's parts find
 * (`partial`, beside whole terms) come from one expression of their own and weigh PARTIAL_WEIGHT of
 * what the parts score; a row with a whole term gets its parts' scores in full.
 */
function expressions(t: StageTerms, withNames: boolean): Expression[] {
  const whole = matchExpression(t.choosing, withNames ? t.names : []);
  const partial = matchExpression(t.partial);
  const full = (list: string[]) => list.map((match) => ({ match, weight: 1 }));
  if (!whole) {
    if (partial) return full(split(partial, matchExpression(t.scoring)));
    const scoring = matchExpression(t.scoring);
    return scoring ? full([scoring]) : [];
  }
  const out = full(split(whole, matchExpression([...t.scoring, ...t.partial])));
  // One expression, unsplit: a row only parts find weighs PARTIAL_WEIGHT of its parts' scores alone.
  if (partial) out.push({ match: `(${partial}) NOT (${whole})`, weight: PARTIAL_WEIGHT });
  return out;
}

/** Rows of one expression with its weight applied to their scores. */
function weighted<T extends { score: number; text: number }>(rows: T[], weight: number): T[] {
  return weight === 1 ? rows : rows.map((r) => ({ ...r, score: r.score * weight, text: r.text * weight }));
}

/** Each row once, with its highest score among the expressions that found it (see split). */
function highest<T extends { score: number }>(lists: T[][], id: (row: T) => number): T[] {
  if (lists.length === 1) return lists[0]!;
  const byId = new Map<number, T>();
  for (const list of lists) {
    for (const row of list) {
      const seen = byId.get(id(row));
      if (!seen || row.score > seen.score) byId.set(id(row), row);
    }
  }
  return [...byId.values()];
}

/** The best `count` of rows found by several expressions, by `score` (then id). */
function bestOf<T extends { score: number }>(lists: T[][], count: number, id: (row: T) => number): T[] {
  return highest(lists, id).sort((a, b) => b.score - a.score || id(a) - id(b)).slice(0, count);
}

/**
 * Best `limit` chunks, as positive scores (higher is better), inside `pageIds` when given: FTS5
 * finds the best `limit × candidateFactor` chunks by bm25, and each gets the bm25 of its section in
 * the section index (written at ingest, see kb migration 006) added, so the chunk of a section that
 * answers the question throughout outranks a chunk that happens to repeat one query word. Within a
 * page, chunks are then ordered by their own text (own-terms.ts). An empty scope returns nothing
 * without touching the index.
 */
export function keywordSearch(
  db: Database.Database,
  query: string,
  limit: number,
  pageIds: number[] | null,
  options: KeywordOptions = {},
): StageHit[] {
  if (pageIds && pageIds.length === 0) return [];
  const terms = stageTerms(db, keywordTerms(db, query));
  const chunkMatches = expressions(terms, true);
  if (chunkMatches.length === 0) return [];
  const weight = options.sectionWeight ?? SECTION_WEIGHT;
  const count = limit * (options.candidateFactor ?? CANDIDATE_FACTOR);
  const best = bestOf(chunkMatches.map((m) => weighted(bestChunks(db, m.match, count, pageIds), m.weight)), count, (h) => h.chunkId);
  // Chunks holding the query as a phrase (phrases.ts) come first, found among all chunks, not only the best.
  const phrased = new Set(phraseChunks(db, queryPhrases(query), count, pageIds));
  const hits = [...best, ...rowsOf(db, chunkMatches, [...phrased].filter((id) => !best.some((h) => h.chunkId === id)))];
  // Section evidence is the text's: names are searched in titles and paths only (see KeywordTerms).
  const sectionMatches = weight === 0 ? [] : expressions(terms, false);
  const sections = sectionScores(db, sectionMatches, [...new Set(hits.map((h) => h.sectionId))], options);
  const scored: ScoredHit[] = hits.map((hit) => {
    const section = sections.get(hit.sectionId);
    return { ...hit, score: hit.score + weight * (section?.score ?? 0), text: hit.text + weight * (section?.text ?? 0), own: 0 };
  });
  const allTerms = [...terms.choosing, ...terms.scoring, ...terms.partial];
  const ranked = options.textOrdersPage ?? true ? textOrdersPages(db, allTerms, scored) : scored;
  // Above every other chunk, in their own order (after the order within pages, which moves scores between
  // chunks): the opening chunk of each page the query names (titles.ts), then the chunks holding its phrase.
  // The query is the page's title, so its text says no more than which chunks repeat the name; the page's
  // opening says what the named thing is (CMP0077's first chunk, not its closing boilerplate that names
  // CMAKE_POLICY_DEFAULT_CMP0077). Chunk ids follow a page's order.
  // The opening is the first chunk whose text holds a term, else the first: every row carries the page's title,
  // so a page's chrome before its heading is found too (rustdoc's "Rust 1.95.0 59807616e" above "Ownership").
  const named = options.namedPagesFirst ?? true ? pagesNamed(db, query, ranked.map((h) => h.pageId)) : new Set<number>();
  const firsts = new Set<number>();
  const inOrder = [...ranked].sort((a, b) => a.chunkId - b.chunkId);
  for (const hit of [...inOrder.filter((h) => h.text > 0), ...inOrder]) {
    if (named.delete(hit.pageId)) firsts.add(hit.chunkId);
  }
  const above = phrased.size + firsts.size > 0 ? Math.max(...ranked.map((h) => h.score)) : 0;
  const tier = (chunkId: number) => (firsts.has(chunkId) ? 2 : phrased.has(chunkId) ? 1 : 0);
  return ranked
    .map(({ chunkId, score }) => ({ chunkId, score: score + tier(chunkId) * above }))
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, limit);
}

/** A chunk row's bm25 with the column weights. */
const CHUNK_BM25 = `bm25(chunks_fts, ${KEYWORD_WEIGHTS.body}, ${KEYWORD_WEIGHTS.title}, ${KEYWORD_WEIGHTS.path})`;

/** PlacedHits of the `chunks_fts` rows that `where` (a MATCH with its filters, order and limit) selects. */
function placedHits(where: string): string {
  return `SELECT h.chunkId, h.score, h.text, c.section_id AS sectionId, c.page_id AS pageId
          FROM (SELECT rowid AS chunkId, -${CHUNK_BM25} AS score, -bm25(chunks_fts, 1, 0, 0) AS text FROM chunks_fts
                WHERE ${where}) h
          JOIN chunks c ON c.id = h.chunkId`;
}

/** The best `count` chunks for a MATCH expression by weighted bm25, with their text's own bm25, section and page. */
function bestChunks(db: Database.Database, match: string, count: number, pageIds: number[] | null): PlacedHit[] {
  const sql = `${placedHits(`chunks_fts MATCH ? ${chunkScopeClause(pageIds)} ORDER BY ${CHUNK_BM25} LIMIT ?`)} ORDER BY h.score DESC, h.chunkId`;
  const params: unknown[] = pageIds ? [match, JSON.stringify(pageIds), count] : [match, count];
  return cached(db, sql).all(...params) as PlacedHit[];
}

/**
 * The rows `ids` as bestChunks scores them for the expressions (chunks holding a phrase of the query that
 * were not among the best): at most one statement per expression, scoring only those rows (see sectionScores).
 */
function rowsOf(db: Database.Database, matches: Expression[], ids: number[]): PlacedHit[] {
  if (ids.length === 0) return [];
  const sql = placedHits(`chunks_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`);
  const list = JSON.stringify(ids);
  return highest(matches.map((m) => weighted(cached(db, sql).all(m.match, list) as PlacedHit[], m.weight)), (h) => h.chunkId);
}

/**
 * The bm25 of the candidates' sections (`ids`) for the expressions: section id → score with the title
 * and of the text alone (positive). Only those rows are scored: `+rowid` keeps the id list away from
 * FTS5, which would run the whole query once per id, so FTS5 walks the matches and SQLite drops the
 * rows not asked for before bm25 is worked out. Ranking every section instead and keeping the best
 * 2 × limit cost a bm25 for each of them (a third of the keyword stage at 100k chunks).
 */
function sectionScores(db: Database.Database, matches: Expression[], ids: number[], options: KeywordOptions): Map<number, SectionScore> {
  const out = new Map<number, SectionScore>();
  if (ids.length === 0) return out;
  const bm25 = `bm25(sections_fts, 1, ${options.sectionTitleWeight ?? SECTION_TITLE_WEIGHT})`;
  const sql = `SELECT rowid AS id, -${bm25} AS score, -bm25(sections_fts, 1, 0) AS text FROM sections_fts
               WHERE sections_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`;
  const list = JSON.stringify(ids);
  const lists = matches.map((m) => weighted(cached(db, sql).all(m.match, list) as (SectionScore & { id: number })[], m.weight));
  for (const row of highest(lists, (r) => r.id)) out.set(row.id, { score: row.score, text: row.text });
  return out;
}
