/**
 * Hybrid search of one knowledge base, as the steps it runs (searchKnowledgeBase reads them in order):
 * explicit `[[wiki/…]]` pages first → the query's probes (itself, or its LLM enhancements) → keyword
 * (FTS5 bm25) and vector (sqlite-vec) stages inside the scope → reciprocal-rank fusion (k = 60) → MMR
 * (λ = 0.5) on stored vectors → neighbouring chunks merged → ranking features (versions) → repeated
 * passages shown once → passages, shown from their words on the query → table-of-contents passages
 * last → optional rerank → top-k.
 * A stage that fails fails the search (`search_failed`); keyword-only is a declared mode; an empty
 * knowledge base or scope is an empty result that touched no index.
 */
import type Database from 'better-sqlite3';
import type { Passage, SearchMode, SearchResult } from '../../../shared/models';
import { parseWikiRefs, type WikiRefs } from '../../../shared/wiki-refs';
import { contentsLast } from './contents';
import { collapseDuplicates, type ElsewhereSpan } from './duplicates';
import { fuseProbeLists, probesOf, type ProbeFusedHit } from './enhance/fuse';
import type { EnhanceAsk } from './enhance/plan';
import type { HistoryTurn } from './enhance/rewrite';
import { RERANK_CANDIDATES, rerankCandidates, writeProbes, type EnhanceProviders, type Probes } from './enhance/run';
import { reciprocalRankFusion } from './fusion';
import { keywordTerms, matchesTitle, type KeywordTerms } from './keyword';
import { buildPassage, isHeadingOnly, pageByPath, withFocus, type PageInfo } from './passages';
import { NO_RANKING_FEATURES, type RankingFeature } from './ranking-features';
import { pagesInScope, type SearchScope } from './scope';
import { cached, statementsRun } from '../store/statements';
import {
  candidateSpans, ms, noStages, openingSpan, probeLists, resolveMode, runStages,
  type CandidateSpan, type QueryEmbedder, type ResolvedMode, type StageOptions, type StageTimings,
} from './stages';

export type { EnhanceProviders } from './enhance/run';
export type { QueryEmbedder } from './stages';

/** What to search for. */
export interface SearchRequest {
  query: string;
  /** Passages to return (explicit references may add more). */
  topK: number;
  mode: SearchMode;
  scope?: SearchScope;
  refs?: string[];
  /** The caller's LLM enhancements (depth, CLI flags); they win over `enhanceArgs` and the settings. */
  enhance?: EnhanceAsk;
  /** The model's own choice of enhancements (its `kb_search` tool arguments). */
  enhanceArgs?: EnhanceAsk;
  /** Earlier messages, oldest first, for rewriting a follow-up. */
  history?: HistoryTurn[];
}

/** Tunables of the search pipeline, and the features that take part in its ranking. */
export interface SearchOptions extends StageOptions {
  /** Features that reorder and label the fused candidates (the facade passes versions). Default none. */
  rankingFeatures?: readonly RankingFeature[];
}

/** One search as it runs: what was asked, where, in which mode, and the query's terms once read. */
interface SearchContext {
  db: Database.Database;
  req: SearchRequest;
  options: SearchOptions;
  /** The query without its `[[…]]` references. */
  text: string;
  scope: number[] | null;
  run: ResolvedMode;
  /** The query's keyword terms, read once and only after a stage has run (a broken keyword index is
   *  that stage's search_failed): passages' focus and the result's `noExactMatch` use them. */
  terms(): KeywordTerms;
}

/** The terms a passage is shown from: the query's without its function words, unless that leaves none. */
function focusTermsOf(found: KeywordTerms): string[] {
  const strong = found.terms.filter((t) => !found.weak.includes(t));
  return strong.length > 0 ? strong : found.terms;
}

/** Search one knowledge base. `providers`: what LLM enhancements need; without them none runs. */
export async function searchKnowledgeBase(
  db: Database.Database,
  req: SearchRequest,
  embedder: QueryEmbedder,
  options: SearchOptions = {},
  providers?: EnhanceProviders,
): Promise<SearchResult> {
  const t0 = performance.now();
  const sql0 = statementsRun(db);
  const refs = parseWikiRefs([req.query, ...(req.refs ?? []).map((r) => `[[${r}]]`)].join(' '));
  const referenced = refs.refs.map((path) => ({ path, page: pageByPath(db, path) }));
  const missing = referenced.filter((r) => !r.page).map((r) => r.path);
  const scope = pagesInScope(db, req.scope);
  if (!hasChunks(db) || (scope && scope.length === 0)) return emptyResult(req.mode, refs, missing, t0, statementsRun(db) - sql0);
  const run = await resolveMode(db, req.mode, embedder);
  const ctx = searchContext(db, req, options, refs.text.trim(), scope, run);

  const t1 = performance.now();
  const explicit = await referencedPassages(ctx, referenced.flatMap((r) => r.page ?? []));
  const count = Math.max(req.topK, referenced.length);
  const found = ctx.text ? await foundPassages(ctx, explicit, Math.max(0, count - explicit.length), providers) : null;
  const passages = topK(explicit, found?.passages ?? [], count);
  const { keywordStatements: keyword, vectorStatements: vector, ...timings } = found?.timings ?? noStages();
  const stagesMs = (timings.keywordMs ?? 0) + (timings.embedMs ?? 0) + (timings.vectorMs ?? 0);
  const total = statementsRun(db) - sql0;
  return {
    passages,
    mode: run.mode,
    keywordOnlyReason: run.reason,
    missingRefs: missing,
    rejectedRefs: refs.rejected,
    noExactMatch: ctx.text ? ctx.terms().noExactMatch : [],
    timings: {
      totalMs: ms(t0), ...timings, fuseMs: ms(t1) - stagesMs,
      statements: { total, keyword, vector, other: total - keyword - vector },
    },
    ...(found?.probes.enhanced ? { enhance: found.probes.report } : {}),
  };
}

function hasChunks(db: Database.Database): boolean {
  return cached(db, `SELECT 1 FROM chunks LIMIT 1`).get() !== undefined;
}

function emptyResult(asked: SearchMode, refs: WikiRefs, missing: string[], t0: number, statements: number): SearchResult {
  return {
    passages: [], mode: asked === 'vector' ? 'vector' : 'hybrid', keywordOnlyReason: null, missingRefs: missing,
    rejectedRefs: refs.rejected, noExactMatch: [],
    timings: {
      totalMs: ms(t0), embedMs: null, keywordMs: null, vectorMs: null, fuseMs: 0,
      statements: { total: statements, keyword: 0, vector: 0, other: statements },
    },
  };
}

function searchContext(
  db: Database.Database,
  req: SearchRequest,
  options: SearchOptions,
  text: string,
  scope: number[] | null,
  run: ResolvedMode,
): SearchContext {
  let terms: KeywordTerms | undefined;
  return { db, req, options, text, scope, run, terms: () => (terms ??= keywordTerms(db, text)) };
}

/**
 * Step 1 — the pages the query references, first: each page's two best spans for the query (its
 * opening chunk when the query has no other words or none of them is there), labelled by the ranking
 * features.
 */
async function referencedPassages(ctx: SearchContext, pages: PageInfo[]): Promise<Passage[]> {
  const out: Passage[] = [];
  for (const page of pages) {
    const label = rankingOf(ctx, [page.id]).label;
    const inPage = ctx.text ? await runStages(ctx.db, ctx.text, ctx.run, [page.id], ctx.options) : null;
    const fused = inPage ? reciprocalRankFusion(inPage.keyword, inPage.vector) : [];
    const spans = inPage ? candidateSpans(ctx.db, fused, inPage.vector !== null, 2, ctx.options).slice(0, 2) : [];
    if (spans.length === 0) {
      const first = openingSpan(ctx.db, page);
      if (first) out.push(label(buildPassage(page, first.start, first.end, [], 'explicit'), page.id));
      continue;
    }
    for (const s of spans) {
      const passage = withFocus(buildPassage(s.page, s.start, s.end, s.hits, 'explicit'), s.page, focusTermsOf(ctx.terms()));
      out.push(label(passage, page.id));
    }
  }
  return out;
}

/** What the query found beyond its references: passages in rank order, the probes, the stage times. */
interface Found {
  passages: Passage[];
  probes: Probes;
  timings: StageTimings;
}

/**
 * Steps 2–7 — the query's own passages: its probes, their stages, one fusion into candidate spans,
 * the ranking features' order, spans that can be passages (none a bare heading, none overlapping an
 * explicit passage or a better span), table-of-contents spans last, then passages built and focused
 * for the `count` that can be returned (the reranker's candidates when the search is enhanced), and
 * the rerank.
 */
async function foundPassages(ctx: SearchContext, explicit: Passage[], count: number, providers?: EnhanceProviders): Promise<Found> {
  const { mode, reason, embedder } = ctx.run;
  const probes = await writeProbes(ctx.text, ctx.req, { mode, keywordOnlyReason: reason, embedder }, providers);
  const query = probes.probes[0]!.text;
  const { lists, timings } = await probeLists(ctx.db, probes.probes, ctx.run, ctx.scope, ctx.options);
  const vectors = lists.some((l) => l.stage === 'vector');
  const spans = candidateSpans(ctx.db, fuseProbeLists(lists), vectors, ctx.req.topK, ctx.options);
  const ranking = rankingOf(ctx, spans.map((s) => s.page.id));
  const usable = contentsLast(collapseDuplicates(usableSpans(ranking.order(spans, query), explicit)));
  const focusTerms = focusTermsOf(query === ctx.text ? ctx.terms() : keywordTerms(ctx.db, query));
  const how = { query, focusTerms, label: ranking.label, probes };
  const built = usable.slice(0, probes.enhanced ? Math.max(count, RERANK_CANDIDATES) : count).map((s) => passageOf(s, how));
  const passages = probes.enhanced ? await rerankCandidates(query, built, probes, providers) : built;
  return { passages, probes, timings };
}

/** The ranking features' verdicts on these pages, combined: their orders in turn, their labels in turn. */
function rankingOf(ctx: SearchContext, pageIds: number[]) {
  const features = ctx.options.rankingFeatures ?? NO_RANKING_FEATURES;
  const verdicts = features.map((f) => f.forPages(ctx.db, pageIds));
  return {
    order: <T extends { page: PageInfo; start: number; end: number }>(spans: T[], query: string): T[] =>
      verdicts.reduce((list, v) => v.order(list, query), spans),
    label: (p: Passage, pageId: number): Passage => verdicts.reduce((q, v) => v.label(q, pageId), p),
  };
}

type Span = { pagePath: string; start: number; end: number };
const overlaps = (a: Span, b: Span) => a.pagePath === b.pagePath && a.start < b.end && b.start < a.end;

/** A candidate span with its text, as contentsLast and collapseDuplicates read it. */
type TextSpan = CandidateSpan<ProbeFusedHit> & { pagePath: string; text: string };

/** Spans that can be passages, in order: a span that is only a heading is left out, and so is one that
 *  overlaps an explicit passage or an earlier span. */
function usableSpans(spans: CandidateSpan<ProbeFusedHit>[], explicit: Passage[]): TextSpan[] {
  const out: TextSpan[] = [];
  for (const s of spans) {
    if (isHeadingOnly(s.page, s.start, s.end)) continue;
    const span = { ...s, pagePath: s.page.path, text: s.page.text.slice(s.start, s.end) };
    if (explicit.some((q) => overlaps(span, q)) || out.some((q) => overlaps(span, q))) continue;
    out.push(span);
  }
  return out;
}

/** How found passages are made. */
interface PassageMaking {
  query: string;
  focusTerms: string[];
  label: (p: Passage, pageId: number) => Passage;
  probes: Probes;
}

/** The passage of a span: hit reason `title` when a query term is in the page's title, shown from its
 *  words on the query, labelled by the ranking features. */
function passageOf(s: TextSpan & { alsoIn: ElsewhereSpan[] }, how: PassageMaking): Passage {
  const hitReason = matchesTitle(how.query, s.page.titleTokens) ? 'title' : 'body';
  const found = withFocus(buildPassage(s.page, s.start, s.end, s.hits, hitReason), s.page, how.focusTerms);
  const p = { ...how.label(found, s.page.id), ...(s.alsoIn.length > 0 ? { alsoIn: s.alsoIn } : {}) };
  return how.probes.enhanced ? { ...p, probes: probesOf(s.hits) } : p;
}

/** Step 8 — the explicit passages, then the found ones until there are `count`. */
function topK(explicit: Passage[], found: Passage[], count: number): Passage[] {
  const out = explicit.slice();
  for (const p of found) {
    if (out.length >= count) break;
    out.push(p);
  }
  return out;
}
