/**
 * The keyword stage: FTS5 bm25 over the pre-tokenized chunk text, with the page title and path in
 * their own, heavier columns. The query goes through the same tokenizer as the index; every term
 * is quoted (so `v1.2-beta` or `v1/chat` is one term, not FTS5 syntax) and terms are ORed.
 * An identifier is searched whole when the knowledge base has it, by its parts only when it does not;
 * a hyphenated compound (`T-cell`) by its words.
 * Terms found in more than a quarter of all chunks are left out when rarer ones remain: bm25 gives
 * them little weight, but scoring every chunk that has them is what makes a keyword search slow.
 */
import type Database from 'better-sqlite3';
import { queryTerms, queryWords, tokenize } from '../text/tokenize';
import type { StageHit } from './fusion';

/** Column weights for bm25: body, title, path. Title matches count most. */
export const KEYWORD_WEIGHTS = { body: 1, title: 4, path: 2 } as const;

/** Share of all chunks above which a term is left out of a query that has rarer terms. */
export const COMMON_TERM_SHARE = 0.25;
/** Knowledge bases with fewer chunks keep every term: scoring them all is cheap, and in a handful of
 *  notes a word in a quarter of them can still be the one that matters. */
export const COMMON_TERMS_FROM = 10_000;

/** The FTS5 MATCH expression for these terms, and these names in the title and path columns, or null when there are none. */
export function matchExpression(terms: string[], names: string[] = []): string | null {
  const quoted = (t: string): string => `"${t.replace(/"/g, '""')}"`;
  const all = [...terms.map(quoted), ...names.map((n) => `{title path} : ${quoted(n)}`)];
  return all.length > 0 ? all.join(' OR ') : null;
}

/** The terms the keyword stage searches for, and the identifiers of the query the knowledge base never holds. */
export interface KeywordTerms {
  terms: string[];
  /**
   * Hyphenated compounds of the query the knowledge base holds whole (`dotenv-expand`), searched whole
   * in page titles and paths only: a page named by one is about it, while body text hyphenates freely.
   */
  names: string[];
  /** Identifier-like words (as typed) with no exact occurrence in the knowledge base, e.g. `E_CONN_RESET`. */
  noExactMatch: string[];
}

/**
 * The query's search terms. An identifier is searched as its whole form only when the knowledge
 * base holds it, so a page with `E_CONN_RESET` is never outranked by pages that merely say "reset";
 * only when the whole is absent do its parts stand in, and the word is named in `noExactMatch`.
 * A hyphenated compound is searched as its words (see queryWords), and whole among `names` when the
 * knowledge base holds it; it is named in `noExactMatch` when no chunk holds its words in a row
 * (`CVE-2024-3094` on a folder with only CVE-2024-1234).
 */
export function keywordTerms(db: Database.Database, query: string): KeywordTerms {
  const frequency = db.prepare(`SELECT doc FROM chunks_vocab WHERE term = ?`).pluck();
  const phraseHeld = db.prepare(`SELECT 1 FROM chunks_fts WHERE chunks_fts MATCH ? LIMIT 1`).pluck();
  const terms = new Set<string>();
  const names = new Set<string>();
  const noExactMatch: string[] = [];
  const compounds = new Set<string>();
  for (const word of queryWords(query)) {
    const held = !word.identifier || ((frequency.get(word.term) as number | undefined) ?? 0) > 0;
    if (held || word.parts.length === 0) terms.add(word.term);
    if (!held) for (const part of word.parts) terms.add(part);
    const { compound } = word;
    if (!compound) {
      if (!held) noExactMatch.push(word.text);
    } else if (!compounds.has(compound.text)) {
      compounds.add(compound.text);
      if (((frequency.get(compound.term) as number | undefined) ?? 0) > 0) names.add(compound.term);
      if (phraseHeld.get(`{tokens} : "${compound.phrase.join(' ')}"`) === undefined) noExactMatch.push(compound.text);
    }
  }
  return { terms: [...terms], names: [...names], noExactMatch };
}

/**
 * English function words, left out of a query that has other terms. In a small knowledge base
 * (below COMMON_TERMS_FROM) no term is too common to search, and there a chunk that shares only
 * "to" with "is E_CONN_RESET safe to retry" outranked the one naming E_CONN_RESET: in six notes the
 * two are equally rare, and the shorter chunk wins bm25. Words that carry meaning in a question
 * (not, no, how, why) are kept.
 */
export const FUNCTION_WORDS = [
  'a', 'an', 'the', 'and', 'or', 'but', 'if', 'then', 'than', 'as', 'at', 'by', 'for', 'from', 'in', 'into',
  'of', 'on', 'onto', 'to', 'with', 'is', 'are', 'was', 'were', 'be', 'been', 'being', 'am', 'do', 'does', 'did',
  'it', 'its', 'this', 'that', 'these', 'those', 'there', 'their', 'they', 'such', 'will', 'would', 'can',
  'could', 'should', 'shall', 'may', 'might', 'has', 'have', 'had', 'i', 'we', 'you', 'my', 'our', 'your', 'me',
  'what', 'which', 'who', 'whom', 'when', 'where',
  // "safeParse vs parse": a comparison's connector is not what is compared (it matched every "VS Code").
  'vs', 'versus',
] as const;
/** FUNCTION_WORDS as index terms (stemmed as the index stems them, e.g. `does` → `doe`); quote-window.ts uses them too. */
export const FUNCTION_TERMS = new Set(FUNCTION_WORDS.flatMap((w) => tokenize(w)));

/**
 * The query's terms (see keywordTerms) without FUNCTION_WORDS, and without those in more than
 * COMMON_TERM_SHARE of the chunks of a knowledge base of at least `from` chunks (default
 * COMMON_TERMS_FROM). A filter that would leave no term is not applied.
 */
export function distinctiveTerms(db: Database.Database, query: string, from = COMMON_TERMS_FROM): string[] {
  return distinctive(db, keywordTerms(db, query).terms, from);
}

/** `all` without FUNCTION_WORDS and common terms, as distinctiveTerms says. */
function distinctive(db: Database.Database, all: string[], from = COMMON_TERMS_FROM): string[] {
  const worded = all.filter((t) => !FUNCTION_TERMS.has(t));
  const terms = worded.length > 0 ? worded : all;
  if (terms.length < 2) return terms;
  const chunks = db.prepare(`SELECT count(*) FROM chunks`).pluck().get() as number;
  if (chunks < from) return terms;
  const frequency = db.prepare(`SELECT doc FROM chunks_vocab WHERE term = ?`).pluck();
  const kept = terms.filter((t) => ((frequency.get(t) as number | undefined) ?? 0) <= chunks * COMMON_TERM_SHARE);
  return kept.length > 0 ? kept : terms;
}

/** How the keyword stage ranks. */
export interface KeywordOptions {
  /** Weight of the section's bm25 added to the chunk's own. Default SECTION_WEIGHT (0 = chunks alone; 0–100). */
  sectionWeight?: number;
  /** Chunks read per chunk returned, which section evidence may reorder. Default CANDIDATE_FACTOR (1–10). */
  candidateFactor?: number;
  /** Sections read from the section index per chunk returned. Default SECTIONS_PER_RESULT (1–20). */
  sectionFactor?: number;
  /** Weight of the page title against the section's body in the section bm25. Default SECTION_TITLE_WEIGHT (0–10). */
  sectionTitleWeight?: number;
  /** Order a page's chunks by their text alone (the title is the same for all of them). Default true. */
  textOrdersPage?: boolean;
}

/**
 * Weight of the section's bm25 against the chunk's own: the section decides, the chunk's own score
 * orders chunks within a section and breaks near ties. SciFact train nDCG@10 (keyword, 809 queries,
 * candidates ×3, title 2): 0 → 0.670, 1 → 0.696, 2 → 0.698, 10 → 0.699, 100 → 0.696. Fusing ranks
 * instead (reciprocal rank, k = 60) scored 0.695.
 */
export const SECTION_WEIGHT = 10;
/** Sections ranked per chunk returned; chunks of sections below those keep their own score. 4 changed nothing. */
export const SECTIONS_PER_RESULT = 2;
/** Chunks read per chunk returned, the candidates section evidence reorders (SciFact: 1, 3 and 6 all 0.699). */
export const CANDIDATE_FACTOR = 1;
/**
 * Title weight in the section bm25 (the section's body holds the title heading too).
 * SciFact: 0 → 0.693, 2 → 0.699, 3 → 0.698.
 */
export const SECTION_TITLE_WEIGHT = 2;

/** A chunk the keyword stage found, with its section and page. */
interface PlacedHit {
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

/**
 * Best `limit` chunks, as positive scores (higher is better), inside `pageIds` when given: FTS5
 * finds the best `limit × candidateFactor` chunks by bm25 and the best sections by the bm25 of the
 * section index (written at ingest, see kb migration 006); each chunk's score gets its section's
 * added, so the chunk of a section that answers the question throughout outranks a chunk that
 * happens to repeat one query word. An empty scope returns nothing without touching the index.
 *
 * The title decides the page, the text decides the passage: scores with the title in them rank
 * pages, and within a page they go to its chunks in the order of their text's own scores. Every
 * chunk row carries the page title, and FTS5 normalises a row's every column by the row's whole
 * length, so by that score alone the shortest chunk of a page whose title matches was its best,
 * e.g. "## Installation npm install mammoth" for "docx to html" on mammoth's README.
 */
export function keywordSearch(
  db: Database.Database,
  query: string,
  limit: number,
  pageIds: number[] | null,
  options: KeywordOptions = {},
): StageHit[] {
  if (pageIds && pageIds.length === 0) return [];
  const found = keywordTerms(db, query);
  const terms = distinctive(db, found.terms);
  const match = matchExpression(terms, found.names);
  if (!match) return [];
  const weight = options.sectionWeight ?? SECTION_WEIGHT;
  const hits = bestChunks(db, match, limit * (options.candidateFactor ?? CANDIDATE_FACTOR), pageIds);
  const titleWeight = options.sectionTitleWeight ?? SECTION_TITLE_WEIGHT;
  const sectionCount = limit * (options.sectionFactor ?? SECTIONS_PER_RESULT);
  // Section evidence is the text's: names are searched in titles and paths only (see KeywordTerms).
  const sectionMatch = matchExpression(terms);
  const sections = weight === 0 || !sectionMatch ? new Map<number, SectionScore>() : bestSections(db, sectionMatch, sectionCount, pageIds, titleWeight);
  const scored = hits.map((hit) => {
    const section = sections.get(hit.sectionId);
    return { ...hit, score: hit.score + weight * (section?.score ?? 0), text: hit.text + weight * (section?.text ?? 0), own: 0 };
  });
  const ranked = options.textOrdersPage ?? true ? textOrdersPages(db, terms, scored) : scored;
  return ranked
    .map(({ chunkId, score }) => ({ chunkId, score }))
    .sort((a, b) => b.score - a.score || a.chunkId - b.chunkId)
    .slice(0, limit);
}

/** Pages, best first, whose chunks are ordered by the terms their title lacks (the rest by all terms). */
export const OWN_TERMS_PAGES = 5;

/** A scored candidate: `text` scores its words (all terms), `own` only the terms its page's title and path lack. */
interface ScoredHit extends PlacedHit {
  own: number;
}

/**
 * Within each page, hand the page's scores to its chunks in the order of their text's own
 * evidence: the best score goes to the chunk whose text matches best, the next to the next, and so
 * on. Pages keep their places among each other, so document rankings do not change (SciFact train
 * keyword nDCG@10 0.699 either way; adding a share of a page's second-best score to its best
 * lowered it: 0.1 → 0.698, 0.2 → 0.692). A term the page's title or path already holds says which
 * page, not which passage ("dotenv override" on dotenv's README asks for the `override` option, not
 * the chunk that says "dotenv" most), so a page's chunks are ordered by the other terms first,
 * when it has any.
 */
function textOrdersPages(db: Database.Database, terms: string[], hits: ScoredHit[]): ScoredHit[] {
  const byPage = new Map<number, ScoredHit[]>();
  for (const hit of hits) {
    const list = byPage.get(hit.pageId);
    if (list) list.push(hit);
    else byPage.set(hit.pageId, [hit]);
  }
  const several = [...byPage]
    .filter(([, list]) => list.length > 1)
    .map(([id, list]) => ({ id, list, best: Math.max(...list.map((h) => h.score)) }))
    .sort((a, b) => b.best - a.best)
    .slice(0, OWN_TERMS_PAGES);
  if (several.length === 0) return hits;
  const lacking = termsTitlesLack(db, terms, several.map((p) => p.id));
  // One bm25 per term (bm25 adds up over terms), over the chunks of the pages that lack it.
  const perTerm = db.prepare(`SELECT rowid, -bm25(chunks_fts, 1, 0, 0) FROM chunks_fts
                              WHERE chunks_fts MATCH ? AND rowid IN (SELECT value FROM json_each(?))`).raw();
  for (const term of new Set([...lacking.values()].flat())) {
    const lists = several.filter((p) => lacking.get(p.id)?.includes(term)).map((p) => p.list);
    const ids = lists.flatMap((list) => list.map((h) => h.chunkId));
    const scores = new Map(perTerm.all(`{tokens} : ${matchExpression([term])}`, JSON.stringify(ids)) as [number, number][]);
    for (const list of lists) for (const hit of list) hit.own += scores.get(hit.chunkId) ?? 0;
  }
  const out: ScoredHit[] = [];
  for (const list of byPage.values()) {
    const scores = list.map((h) => h.score).sort((a, b) => b - a);
    const byText = [...list].sort((a, b) => b.own - a.own || b.text - a.text || a.chunkId - b.chunkId);
    byText.forEach((hit, i) => out.push({ ...hit, score: scores[i]! }));
  }
  return out;
}

/** For each page whose title and path hold some but not all of the terms: the terms they lack. */
function termsTitlesLack(db: Database.Database, terms: string[], pageIds: number[]): Map<number, string[]> {
  const rows = db.prepare(`SELECT id, title_tokens || ' ' || path_tokens FROM pages WHERE id IN (SELECT value FROM json_each(?))`).raw().all(JSON.stringify(pageIds)) as [number, string][];
  const out = new Map<number, string[]>();
  for (const [id, tokens] of rows) {
    const named = new Set(tokens.split(' '));
    const rest = terms.filter((t) => !named.has(t));
    if (rest.length > 0 && rest.length < terms.length) out.set(id, rest);
  }
  return out;
}

/** The pages filter of a keyword query whose rowids are ids of `rows`, or '' without a scope. */
function scopeClause(pageIds: number[] | null, rows: 'chunks' | 'sections'): string {
  return pageIds ? `AND rowid IN (SELECT id FROM ${rows} WHERE page_id IN (SELECT value FROM json_each(?)))` : '';
}

/** The best `count` chunks for a MATCH expression by weighted bm25, with their text's own bm25, section and page. */
function bestChunks(db: Database.Database, match: string, count: number, pageIds: number[] | null): PlacedHit[] {
  const { body, title, path } = KEYWORD_WEIGHTS;
  const bm25 = `bm25(chunks_fts, ${body}, ${title}, ${path})`;
  const sql = `SELECT h.chunkId, h.score, h.text, c.section_id AS sectionId, c.page_id AS pageId
               FROM (SELECT rowid AS chunkId, -${bm25} AS score, -bm25(chunks_fts, 1, 0, 0) AS text FROM chunks_fts
                     WHERE chunks_fts MATCH ? ${scopeClause(pageIds, 'chunks')} ORDER BY ${bm25} LIMIT ?) h
               JOIN chunks c ON c.id = h.chunkId ORDER BY h.score DESC, h.chunkId`;
  const params: unknown[] = pageIds ? [match, JSON.stringify(pageIds), count] : [match, count];
  return db.prepare(sql).all(...params) as PlacedHit[];
}

/** The best `count` sections for a MATCH expression: section id → bm25 with the title and of the text alone (positive). */
function bestSections(
  db: Database.Database,
  match: string,
  count: number,
  pageIds: number[] | null,
  titleWeight: number,
): Map<number, SectionScore> {
  const bm25 = `bm25(sections_fts, 1, ${titleWeight})`;
  const sql = `SELECT rowid, -${bm25}, -bm25(sections_fts, 1, 0) FROM sections_fts
               WHERE sections_fts MATCH ? ${scopeClause(pageIds, 'sections')} ORDER BY ${bm25} LIMIT ?`;
  const params: unknown[] = pageIds ? [match, JSON.stringify(pageIds), count] : [match, count];
  const rows = db.prepare(sql).raw().all(...params) as [number, number, number][];
  return new Map(rows.map(([id, score, text]) => [id, { score, text }]));
}

/** True when a query term occurs in the page's title tokens (the hit reason "title"). */
export function matchesTitle(query: string, titleTokens: string): boolean {
  const tokens = new Set(titleTokens.split(' '));
  return queryTerms(query).some((t) => tokens.has(t));
}
