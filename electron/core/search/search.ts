/**
 * Hybrid search of one knowledge base: keyword (FTS5 bm25) and vector (sqlite-vec) stages inside
 * the scope → reciprocal-rank fusion (k = 60) → MMR (λ = 0.5) on stored vectors → neighbouring
 * chunks merged into passages → top-k, with explicit `[[wiki/…]]` pages first.
 * A stage that fails fails the search (`search_failed`); keyword-only is a declared mode; an
 * empty knowledge base or scope is an empty result that touched no index.
 */
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';
import type { Passage, SearchMode, SearchResult } from '../../../shared/models';
import { parseWikiRefs } from '../../../shared/wiki-refs';
import type { Embedder } from '../embed/embedder';
import { recordedModel } from '../ingest/vectors';
import { maximalMarginalRelevance, mergeAdjacent, reciprocalRankFusion, type ChunkPlace, type FusedHit, type StageHit } from './fusion';
import { keywordSearch, keywordTerms, matchesTitle, type KeywordTerms } from './keyword';
import { contentsLast } from './contents';
import { buildPassage, isHeadingOnly, loadPages, pageByPath, withFocus, type PageInfo } from './passages';
import { pagesInScope, type SearchScope } from './scope';
import { vectorSearch, vectorsOf, type VectorOptions } from './vector';
import { preferVersions, versionMentions } from './version-rank';
import { dayOf, pageVersions, withVersion } from './versions';
import { writeProbes, rerankCandidates, type EnhanceProviders, type Probe, type Probes } from './enhance/run';
import { fuseProbeLists, probesOf, type ProbeList } from './enhance/fuse';
import type { EnhanceAsk } from './enhance/plan';
import type { HistoryTurn } from './enhance/rewrite';

export type { EnhanceProviders } from './enhance/run';

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

/** Tunables of the search pipeline. */
export interface SearchOptions extends VectorOptions {
  /** Hits each stage hands to fusion. Default 50 (10–500). */
  stageLimit?: number;
  /** MMR trade-off between relevance and novelty. Default 0.5 (0–1). */
  lambda?: number;
}

/** The query vector, or the reason there is none. */
export type QueryEmbedder = () => Promise<Embedder | string>;

const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

function emptyResult(mode: SearchMode, reason: string | null, refs: ReturnType<typeof parseWikiRefs>, missing: string[], t0: number): SearchResult {
  return { passages: [], mode, keywordOnlyReason: reason, missingRefs: missing, rejectedRefs: refs.rejected, noExactMatch: [], timings: { totalMs: ms(t0), embedMs: null, keywordMs: null, vectorMs: null, fuseMs: 0 } };
}

/** Decide the mode that can run: hybrid/vector need a model whose vectors this knowledge base holds. */
async function resolveMode(db: Database.Database, asked: SearchMode, embedder: QueryEmbedder): Promise<{ mode: SearchMode; embedder: Embedder | null; reason: string | null }> {
  if (asked === 'keyword') return { mode: 'keyword', embedder: null, reason: null };
  const recorded = recordedModel(db);
  const got = await embedder();
  let reason: string | null = null;
  if (typeof got === 'string') reason = got;
  else if (!recorded) reason = 'this knowledge base has no vectors yet';
  else if (recorded.id !== got.id) reason = `its vectors were made with ${recorded.id}, not the current model ${got.id}`;
  if (reason === null) return { mode: asked, embedder: got as Embedder, reason: null };
  if (asked === 'vector') throw new SiftError('model_unavailable', `vector search is not possible: ${reason}`);
  return { mode: 'keyword', embedder: null, reason };
}

/** Run both stages for one query inside `pageIds`, failing loudly if either fails. */
async function stages(db: Database.Database, query: string, mode: SearchMode, embedder: Embedder | null, pageIds: number[] | null, options: SearchOptions) {
  const limit = options.stageLimit ?? 50;
  let t = performance.now();
  const queryVector = embedder ? embedder.embedQuery(query) : null;
  let keyword: StageHit[] | null = null;
  let keywordMs: number | null = null;
  if (mode !== 'vector') {
    try {
      keyword = keywordSearch(db, query, limit, pageIds);
    } catch (err) {
      throw new SiftError('search_failed', `keyword search failed: ${(err as Error).message}`);
    }
    keywordMs = ms(t);
  }
  let vector: StageHit[] | null = null;
  let embedMs: number | null = null;
  let vectorMs: number | null = null;
  if (queryVector) {
    t = performance.now();
    let q: Float32Array;
    try {
      q = await queryVector;
    } catch (err) {
      throw new SiftError('search_failed', `embedding the query failed: ${(err as Error).message}`);
    }
    embedMs = ms(t);
    t = performance.now();
    try {
      vector = vectorSearch(db, q, limit, pageIds, options);
    } catch (err) {
      throw new SiftError('search_failed', `vector search failed: ${(err as Error).message}`);
    }
    vectorMs = ms(t);
  }
  return { keyword, vector, keywordMs, embedMs, vectorMs };
}

function chunkPlaces(db: Database.Database, ids: number[]): Map<number, ChunkPlace> {
  const get = db.prepare(`SELECT id AS chunkId, page_id AS pageId, start, end FROM chunks WHERE id = ?`);
  const out = new Map<number, ChunkPlace>();
  for (const id of ids) {
    const row = get.get(id) as ChunkPlace | undefined;
    if (row) out.set(id, row);
  }
  return out;
}

/** Fused, diversified, merged passages for one query. */
function rank(db: Database.Database, query: string, keyword: StageHit[] | null, vector: StageHit[] | null, limit: number, options: SearchOptions): { passages: { page: PageInfo; start: number; end: number; hits: FusedHit[] }[] } {
  return rankFused(db, reciprocalRankFusion(keyword, vector), vector !== null, limit, options);
}

/** Diversified, merged passages of a fused list (`vectors`: whether any vector stage ran, so MMR can). */
function rankFused<H extends FusedHit>(db: Database.Database, all: H[], vectors: boolean, limit: number, options: SearchOptions) {
  const fused = all.slice(0, Math.max(limit * 4, 20));
  const diverse = vectors ? maximalMarginalRelevance(fused, vectorsOf(db, fused.map((h) => h.chunkId)), limit * 2, options.lambda ?? 0.5) : fused.slice(0, limit * 2);
  const merged = mergeAdjacent(diverse, chunkPlaces(db, diverse.map((h) => h.chunkId)));
  const pages = loadPages(db, merged.map((m) => m.pageId));
  return { passages: merged.flatMap((m) => (pages.has(m.pageId) ? [{ page: pages.get(m.pageId)!, start: m.start, end: m.end, hits: m.hits }] : [])) };
}

/** The opening passage of a page: its first chunk. */
function opening(db: Database.Database, page: PageInfo): Passage | null {
  const first = db.prepare(`SELECT start, end FROM chunks WHERE page_id = ? ORDER BY idx LIMIT 1`).get(page.id) as { start: number; end: number } | undefined;
  return first ? buildPassage(page, first.start, first.end, [], 'explicit') : null;
}

/** Each probe's stage lists inside `scope` (a HyDE probe: its passage's vector only), with the stage times summed. */
async function probeLists(db: Database.Database, probes: Probe[], mode: SearchMode, model: Embedder | null, scope: number[] | null, options: SearchOptions) {
  const lists: ProbeList[] = [];
  const timings = { keywordMs: null as number | null, embedMs: null as number | null, vectorMs: null as number | null };
  const add = (key: keyof typeof timings, value: number | null) => {
    if (value !== null) timings[key] = (timings[key] ?? 0) + value;
  };
  for (const [probe, p] of probes.entries()) {
    if (p.kind === 'hyde') {
      const t = performance.now();
      lists.push({ probe, stage: 'vector', hits: vectorSearch(db, p.vector!, options.stageLimit ?? 50, scope, options) });
      add('vectorMs', ms(t));
      continue;
    }
    const s = await stages(db, p.text, mode, model, scope, options);
    if (s.keyword) lists.push({ probe, stage: 'keyword', hits: s.keyword });
    if (s.vector) lists.push({ probe, stage: 'vector', hits: s.vector });
    add('keywordMs', s.keywordMs);
    add('embedMs', s.embedMs);
    add('vectorMs', s.vectorMs);
  }
  return { lists, timings };
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
  const parsed = parseWikiRefs([req.query, ...(req.refs ?? []).map((r) => `[[${r}]]`)].join(' '));
  const refPages = parsed.refs.map((path) => ({ path, page: pageByPath(db, path) }));
  const missing = refPages.filter((r) => !r.page).map((r) => r.path);
  const text = parsed.text.trim();
  const hasChunks = db.prepare(`SELECT 1 FROM chunks LIMIT 1`).get() !== undefined;
  const scope = pagesInScope(db, req.scope);
  if (!hasChunks || (scope && scope.length === 0)) return emptyResult(req.mode === 'vector' ? 'vector' : 'hybrid', null, parsed, missing, t0);
  const { mode, embedder: model, reason } = await resolveMode(db, req.mode, embedder);

  const passages: Passage[] = [];
  const taken = (p: { pagePath: string; start: number; end: number }) =>
    passages.some((q) => q.pagePath === p.pagePath && q.start < p.end && p.start < q.end);
  let timings = { keywordMs: null as number | null, embedMs: null as number | null, vectorMs: null as number | null };
  const t1 = performance.now();
  const today = dayOf(new Date());
  // The query's keyword terms, read once and only after a stage has run (a broken keyword index is that
  // stage's search_failed): passages' focus and the result's `noExactMatch` use them.
  let textTerms: KeywordTerms | undefined;
  const termsOfText = (): KeywordTerms => (textTerms ??= keywordTerms(db, text));
  for (const { page } of refPages) {
    if (!page) continue;
    const inPage = text ? await stages(db, text, mode, model, [page.id], options) : null;
    const ranked = inPage ? rank(db, text, inPage.keyword, inPage.vector, 2, options).passages.slice(0, 2) : [];
    const version = pageVersions(db, [page.id], today).get(page.id);
    if (ranked.length === 0) {
      const open = opening(db, page);
      if (open) passages.push(withVersion(open, version));
    } else {
      for (const r of ranked) {
        const p = withFocus(buildPassage(r.page, r.start, r.end, r.hits, 'explicit'), r.page, termsOfText().terms);
        passages.push(withVersion(p, version));
      }
    }
  }
  let probes: Probes | null = null;
  if (text) {
    probes = await writeProbes(text, req, { mode, keywordOnlyReason: reason, embedder: model }, providers);
    const query = probes.probes[0]!.text;
    const run = await probeLists(db, probes.probes, mode, model, scope, options);
    timings = run.timings;
    const candidates: Passage[] = [];
    const vectors = run.lists.some((l) => l.stage === 'vector');
    const focusTerms = query === text ? termsOfText().terms : keywordTerms(db, query).terms;
    // Where versions of one document both match, the one the query names, else the current one, comes first.
    const fused = rankFused(db, fuseProbeLists(run.lists), vectors, req.topK, options).passages;
    const versions = pageVersions(db, fused.map((r) => r.page.id), today);
    for (const r of preferVersions(fused, (f) => versions.get(f.page.id), versionMentions(query))) {
      if (isHeadingOnly(r.page, r.start, r.end)) continue;
      const hitReason = matchesTitle(query, r.page.titleTokens) ? 'title' : 'body';
      const found = withFocus(buildPassage(r.page, r.start, r.end, r.hits, hitReason), r.page, focusTerms);
      const p = withVersion(found, versions.get(r.page.id));
      if (taken(p) || candidates.some((q) => q.pagePath === p.pagePath && q.start < p.end && p.start < q.end)) continue;
      candidates.push(probes.enhanced ? { ...p, probes: probesOf(r.hits) } : p);
    }
    const ranked = contentsLast(candidates);
    const ordered = probes.enhanced ? await rerankCandidates(query, ranked, probes, providers) : ranked;
    for (const p of ordered) {
      if (passages.length >= Math.max(req.topK, refPages.length)) break;
      passages.push(p);
    }
  }
  return {
    passages,
    mode,
    keywordOnlyReason: reason,
    missingRefs: missing,
    rejectedRefs: parsed.rejected,
    noExactMatch: text ? termsOfText().noExactMatch : [],
    timings: { totalMs: ms(t0), ...timings, fuseMs: ms(t1) - (timings.keywordMs ?? 0) - (timings.embedMs ?? 0) - (timings.vectorMs ?? 0) },
    ...(probes?.enhanced ? { enhance: probes.report } : {}),
  };
}
