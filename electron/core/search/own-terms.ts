/**
 * The text decides the passage: within each page, the page's scores go to its chunks in the order of
 * their text's own evidence. Every chunk row carries the page title, and FTS5 normalises a row by its
 * whole length, so by the row score alone the shortest chunk of a page whose title matches was its
 * best ("## Installation npm install mammoth" for "docx to html" on mammoth's README). A term the
 * page's title or path already holds says which page, not which passage ("dotenv override" on
 * dotenv's README asks for the `override` option, not the chunk that says "dotenv" most), so a page's
 * chunks are ordered by the other terms first, scored here as FTS5's bm25 scores them, from the
 * chunks' own text: at most three statements for the whole search, none per term.
 */
import type Database from 'better-sqlite3';
import { isAscii, isCjkToken, tokenize, wordTokens } from '../text/tokenize';
import { cached } from '../store/statements';
import type { PlacedHit } from './keyword';
import { loadPages } from './passages';
import { indexAverages, termStats, totalOfVarints } from './term-stats';

/** A scored candidate: `text` scores its words (all terms), `own` only the terms its page's title and path lack. */
export interface ScoredHit extends PlacedHit {
  own: number;
}

/** Pages, best first, whose chunks are ordered by the terms their title lacks (the rest by all terms). */
export const OWN_TERMS_PAGES = 5;

/** FTS5's bm25 parameters (fts5_aux.c). */
export const K1 = 1.2;
export const B = 0.75;

/**
 * Within each page, hand the page's scores to its chunks in the order of their text's own
 * evidence: the best score goes to the chunk whose text matches best, the next to the next, and so
 * on. Pages keep their places among each other, so document rankings do not change (SciFact train
 * keyword nDCG@10 0.699 either way; adding a share of a page's second-best score to its best
 * lowered it: 0.1 → 0.698, 0.2 → 0.692).
 */
export function textOrdersPages(db: Database.Database, terms: string[], hits: ScoredHit[]): ScoredHit[] {
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
  const pages = pagesLacking(db, terms, several.map((p) => p.id));
  const lists = several.filter((p) => pages.has(p.id));
  if (lists.length > 0) scoreOwnTerms(db, lists, pages);
  const out: ScoredHit[] = [];
  for (const list of byPage.values()) {
    const scores = list.map((h) => h.score).sort((a, b) => b - a);
    const byText = [...list].sort((a, b) => b.own - a.own || b.text - a.text || a.chunkId - b.chunkId);
    byText.forEach((hit, i) => out.push({ ...hit, score: scores[i]! }));
  }
  return out;
}

/** A page whose title and path hold some but not all of the terms: the terms they lack, and its text. */
interface LackingPage {
  lacking: string[];
  text: string;
}

function pagesLacking(db: Database.Database, terms: string[], pageIds: number[]): Map<number, LackingPage> {
  const out = new Map<number, LackingPage>();
  // the same page objects the search's passages are built from, read once (and kept while nothing changes)
  for (const [id, page] of loadPages(db, pageIds)) {
    const named = new Set(`${page.titleTokens} ${page.pathTokens}`.split(' '));
    const lacking = terms.filter((t) => !named.has(t));
    if (lacking.length > 0 && lacking.length < terms.length) {
      out.set(id, { lacking, text: page.text });
    }
  }
  return out;
}

/**
 * Each hit's `own`: the bm25 of the terms its page lacks, over the text its keyword row holds (the
 * chunk's text after its overlap with the chunk before, see ingest/prepare.ts), as FTS5 computes it:
 * the row's length is the one FTS5 recorded, and the text is read only to count the lacking terms.
 */
function scoreOwnTerms(db: Database.Database, lists: { id: number; list: ScoredHit[] }[], pages: Map<number, LackingPage>): void {
  const hits = lists.flatMap((p) => p.list);
  // FTS5's own record of each row's length (its docsize table: a varint per column), so counting the
  // terms is all the text is read for.
  const sql = `SELECT c.id, c.start, c.end,
                      coalesce((SELECT q.end FROM chunks q WHERE q.page_id = c.page_id AND q.idx = c.idx - 1), 0), z.sz
               FROM chunks c JOIN chunks_fts_docsize z ON z.id = c.id WHERE c.id IN (SELECT value FROM json_each(?))`;
  type Span = [id: number, start: number, end: number, before: number, size: Buffer];
  const spans = new Map((cached(db, sql).raw().all(JSON.stringify(hits.map((h) => h.chunkId))) as Span[]).map((r) => [r[0], r]));
  const lacking = [...new Set([...pages.values()].flatMap((p) => p.lacking))];
  const stats = termStats(db, lacking);
  const { rows, avgTokens } = indexAverages(db);
  const idf = (t: string) => {
    const n = stats.df(t);
    return Math.max(1e-6, Math.log((rows - n + 0.5) / (n + 0.5)));
  };
  for (const { id, list } of lists) {
    const page = pages.get(id)!;
    // Only the lacking terms are counted: the CJK runs need segmenting only where the text holds a CJK one.
    const cjk = page.lacking.filter(isCjkToken);
    for (const hit of list) {
      const span = spans.get(hit.chunkId);
      if (!span) continue;
      const [, start, end, before, size] = span;
      const text = page.text.slice(Math.max(start, before), end);
      const words = cjk.length > 0 && holdsAny(text, cjk) ? tokenize : wordTokens;
      const tf = new Map<string, number>();
      for (const t of words(text)) if (page.lacking.includes(t)) tf.set(t, (tf.get(t) ?? 0) + 1);
      const length = totalOfVarints(size);
      const norm = K1 * (1 - B + (B * length) / Math.max(avgTokens, 1e-9));
      for (const [t, f] of tf) hit.own += (idf(t) * f * (K1 + 1)) / (f + norm);
    }
  }
}

/**
 * Whether `text` holds one of `terms` (CJK tokens) as written, after the tokenizer's NFKC: a CJK token
 * is a word or bigram of a run, so text without it as a substring cannot give it.
 */
function holdsAny(text: string, terms: string[]): boolean {
  const normal = isAscii(text) ? text : text.normalize('NFKC');
  return terms.some((t) => normal.includes(t));
}
