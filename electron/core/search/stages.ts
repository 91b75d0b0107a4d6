/**
 * The retrieval stages of one search and what turns their hits into candidate spans: the mode that can
 * run, the keyword (FTS5 bm25) and vector (sqlite-vec) stages of each probe inside the scope, and the one
 * fusion → MMR → adjacent-chunk merge over their lists. A stage that fails fails the search
 * (`search_failed`), saying which stage.
 */
import type Database from 'better-sqlite3';
import { SiftError } from '../../../shared/errors';
import type { SearchMode } from '../../../shared/models';
import type { Embedder } from '../embed/embedder';
import { cached, statementsRun } from '../store/statements';
import { recordedModel } from '../store/vectors';
import { maximalMarginalRelevance, mergeAdjacent, type ChunkPlace, type FusedHit, type StageHit } from './fusion';
import { keywordSearch } from './keyword';
import { loadPages, type PageInfo } from './passages';
import type { Probe } from './enhance/run';
import type { ProbeList } from './enhance/fuse';
import { vectorSearch, vectorsOf, type VectorOptions } from './vector';

/** Tunables of the search pipeline. */
export interface StageOptions extends VectorOptions {
  /** Hits each stage hands to fusion. Default 50 (10–500). */
  stageLimit?: number;
  /** MMR trade-off between relevance and novelty. Default 0.5 (0–1). */
  lambda?: number;
}

/** The query's embedding model as the search sees it (the core's EmbeddingService has this shape). */
export interface QueryModel {
  /** The embedder, loading it if need be, or the reason there is none. */
  get(): Promise<Embedder | string>;
  /** The embedder or the reason when known without loading, else null. Default: never known. */
  known?(): Embedder | string | null;
  /** The id the configured model will have (`exact` false: only its start is known), or null for none. */
  configuredId?(): { id: string; exact: boolean } | null;
}

/** The query vector's model: a QueryModel, or just the function that gets it. */
export type QueryEmbedder = (() => Promise<Embedder | string>) | QueryModel;

/** Milliseconds since `t0`, to two decimals. */
export const ms = (t0: number) => Math.round((performance.now() - t0) * 100) / 100;

/** The mode a search runs in, with its query embedder, or why it fell back to keywords. */
export interface ResolvedMode {
  mode: SearchMode;
  embedder: Embedder | null;
  reason: string | null;
}

/**
 * Decide the mode that can run: hybrid/vector need a model whose vectors this knowledge base holds.
 * The knowledge base is looked at first, so a model is loaded only where its vectors would be used:
 * one with no vectors, or vectors of another model than the one configured, searches by keywords at
 * once, saying why.
 */
export async function resolveMode(
  db: Database.Database,
  asked: SearchMode,
  embedder: QueryEmbedder,
): Promise<ResolvedMode> {
  if (asked === 'keyword') return { mode: 'keyword', embedder: null, reason: null };
  const model: QueryModel = typeof embedder === 'function' ? { get: embedder } : embedder;
  const recorded = recordedModel(db);
  const known = model.known?.() ?? null;
  const reason = typeof known === 'string' ? known : recorded ? otherModel(recorded.id, known, model) : NO_VECTORS;
  if (reason !== null) return fallBack(asked, reason);
  const got = known ?? (await model.get());
  if (typeof got === 'string') return fallBack(asked, got);
  if (recorded!.id !== got.id) return fallBack(asked, madeWith(recorded!.id, got.id));
  return { mode: asked, embedder: got, reason: null };
}

const NO_VECTORS = 'this knowledge base has no vectors yet';
const madeWith = (recorded: string, current: string) => `its vectors were made with ${recorded}, not the current model ${current}`;

/** Why the recorded vectors cannot be used with the model, when that is known without loading it, else null. */
function otherModel(recorded: string, known: Embedder | null, model: QueryModel): string | null {
  if (known) return known.id === recorded ? null : madeWith(recorded, known.id);
  const configured = model.configuredId?.();
  if (!configured) return null;
  const same = configured.exact ? recorded === configured.id : recorded.startsWith(configured.id);
  return same ? null : madeWith(recorded, configured.exact ? configured.id : configured.id.replace(/:$/, ''));
}

function fallBack(asked: SearchMode, reason: string): ResolvedMode {
  if (asked === 'vector') throw new SiftError('model_unavailable', `vector search is not possible: ${reason}`);
  return { mode: 'keyword', embedder: null, reason };
}

/** Time spent in each stage, ms (null: the stage did not run), and the SQL statements each ran. */
export interface StageTimings {
  keywordMs: number | null;
  embedMs: number | null;
  vectorMs: number | null;
  keywordStatements: number;
  vectorStatements: number;
}

/** Stage timings of a search that ran no stage. */
export function noStages(): StageTimings {
  return { keywordMs: null, embedMs: null, vectorMs: null, keywordStatements: 0, vectorStatements: 0 };
}

/** Both stages' hits for one query. */
export interface StageLists extends StageTimings {
  keyword: StageHit[] | null;
  vector: StageHit[] | null;
}

/** Run both stages for one query inside `pageIds`, failing loudly if either fails. */
export async function runStages(
  db: Database.Database,
  query: string,
  run: ResolvedMode,
  pageIds: number[] | null,
  options: StageOptions,
): Promise<StageLists> {
  const limit = options.stageLimit ?? 50;
  let t = performance.now();
  const queryVector = run.embedder ? run.embedder.embedQuery(query) : null;
  let keyword: StageHit[] | null = null;
  let keywordMs: number | null = null;
  let sql = statementsRun(db);
  let keywordStatements = 0;
  if (run.mode !== 'vector') {
    try {
      keyword = keywordSearch(db, query, limit, pageIds);
    } catch (err) {
      throw new SiftError('search_failed', `keyword search failed: ${(err as Error).message}`);
    }
    keywordMs = ms(t);
    keywordStatements = statementsRun(db) - sql;
  }
  let vector: StageHit[] | null = null;
  let embedMs: number | null = null;
  let vectorMs: number | null = null;
  let vectorStatements = 0;
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
    sql = statementsRun(db);
    try {
      vector = vectorSearch(db, q, limit, pageIds, options);
    } catch (err) {
      throw new SiftError('search_failed', `vector search failed: ${(err as Error).message}`);
    }
    vectorMs = ms(t);
    vectorStatements = statementsRun(db) - sql;
  }
  return { keyword, vector, keywordMs, embedMs, vectorMs, keywordStatements, vectorStatements };
}

/** Each probe's stage lists inside `scope` (a HyDE probe: its passage's vector only), with the stage times summed. */
export async function probeLists(
  db: Database.Database,
  probes: Probe[],
  run: ResolvedMode,
  scope: number[] | null,
  options: StageOptions,
): Promise<{ lists: ProbeList[]; timings: StageTimings }> {
  const lists: ProbeList[] = [];
  const timings = noStages();
  const add = (key: 'keywordMs' | 'embedMs' | 'vectorMs', value: number | null) => {
    if (value !== null) timings[key] = (timings[key] ?? 0) + value;
  };
  for (const [probe, p] of probes.entries()) {
    if (p.kind === 'hyde') {
      const t = performance.now();
      const sql = statementsRun(db);
      const hits = vectorSearch(db, p.vector!, options.stageLimit ?? 50, scope, options);
      lists.push({ probe, stage: 'vector', hits });
      add('vectorMs', ms(t));
      timings.vectorStatements += statementsRun(db) - sql;
      continue;
    }
    const s = await runStages(db, p.text, run, scope, options);
    if (s.keyword) lists.push({ probe, stage: 'keyword', hits: s.keyword });
    if (s.vector) lists.push({ probe, stage: 'vector', hits: s.vector });
    add('keywordMs', s.keywordMs);
    add('embedMs', s.embedMs);
    add('vectorMs', s.vectorMs);
    timings.keywordStatements += s.keywordStatements;
    timings.vectorStatements += s.vectorStatements;
  }
  return { lists, timings };
}

/** A span of a page that fused hits found: neighbouring chunks merged. */
export interface CandidateSpan<H extends FusedHit = FusedHit> {
  page: PageInfo;
  start: number;
  end: number;
  hits: H[];
}

/** Where each of `ids` lies, in one statement. */
function chunkPlaces(db: Database.Database, ids: number[]): Map<number, ChunkPlace> {
  const sql = `SELECT id AS chunkId, page_id AS pageId, start, end FROM chunks WHERE id IN (SELECT value FROM json_each(?))`;
  const rows = cached(db, sql).all(JSON.stringify(ids)) as ChunkPlace[];
  return new Map(rows.map((row) => [row.chunkId, row]));
}

/**
 * Diversified, merged spans of a fused list, best first: the best `limit × 4` (at least 20) hits,
 * MMR down to `limit × 2` on their stored vectors when a vector stage ran (`vectors`), else the best
 * `limit × 2`, then neighbouring chunks of one page merged.
 */
export function candidateSpans<H extends FusedHit>(
  db: Database.Database,
  all: H[],
  vectors: boolean,
  limit: number,
  options: StageOptions,
): CandidateSpan<H>[] {
  const fused = all.slice(0, Math.max(limit * 4, 20));
  const diverse = vectors
    ? maximalMarginalRelevance(fused, vectorsOf(db, fused.map((h) => h.chunkId)), limit * 2, options.lambda ?? 0.5)
    : fused.slice(0, limit * 2);
  const merged = mergeAdjacent(diverse, chunkPlaces(db, diverse.map((h) => h.chunkId)));
  const pages = loadPages(db, merged.map((m) => m.pageId));
  return merged.flatMap((m) => {
    const page = pages.get(m.pageId);
    return page ? [{ page, start: m.start, end: m.end, hits: m.hits }] : [];
  });
}

/** The first chunk's span of a page, or null for a page without chunks. */
export function openingSpan(db: Database.Database, page: PageInfo): { start: number; end: number } | null {
  const sql = `SELECT start, end FROM chunks WHERE page_id = ? ORDER BY idx LIMIT 1`;
  return (cached(db, sql).get(page.id) as { start: number; end: number } | undefined) ?? null;
}
