/**
 * Where a hybrid search's time goes, part by part, using the engine's own exported pieces in the
 * order `searchKnowledgeBase` runs them (default options): keyword stage, the vector stage split
 * into its vector count, sign-bit KNN and exact rescoring, then fusion, MMR (with loading the
 * candidates' vectors), merging neighbouring chunks, and building passages (loading page text).
 * The vector stage's split mirrors vector.ts as of commit e2fb044 (count chunks, then KNN, then rescoring);
 * when that file changes, change this one too, or the parts stop adding up to the real stage.
 */
import type Database from 'better-sqlite3';
import { maximalMarginalRelevance, mergeAdjacent, reciprocalRankFusion, type ChunkPlace } from '../electron/core/search/fusion';
import { keywordSearch, matchesTitle } from '../electron/core/search/keyword';
import { buildPassage, loadPages } from '../electron/core/search/passages';
import { vectorSearch, vectorsOf } from '../electron/core/search/vector';
import { fmt, note, percentile } from './measure';
import type { SearchKb } from './search-kb';
import type { BenchQuery } from './search';

/** Defaults of SearchOptions / VectorOptions, as documented there. */
const STAGE_LIMIT = 50;
const CANDIDATES = 200;
const EXACT_BELOW = 4_000;
const LAMBDA = 0.5;

type Part = 'keyword' | 'vectorCount' | 'bitKnn' | 'rescore' | 'fusion' | 'mmr' | 'merge' | 'passages';
const LABELS: Record<Part, string> = {
  keyword: 'keyword stage (FTS5 bm25)',
  vectorCount: 'vector stage: count of chunks',
  bitKnn: 'vector stage: sign-bit KNN (vec0)',
  rescore: 'vector stage: fetch + exact rescoring',
  fusion: 'RRF fusion',
  mmr: 'MMR (incl. loading vectors)',
  merge: 'merge neighbouring chunks',
  passages: 'build passages (load pages)',
};

function places(db: Database.Database, ids: number[]): Map<number, ChunkPlace> {
  const get = db.prepare(`SELECT id AS chunkId, page_id AS pageId, start, end FROM chunks WHERE id = ?`);
  const out = new Map<number, ChunkPlace>();
  for (const id of ids) {
    const row = get.get(id) as ChunkPlace | undefined;
    if (row) out.set(id, row);
  }
  return out;
}

/** Run one query part by part, adding each part's ms to `times`. */
function timeOne(db: Database.Database, q: BenchQuery, topK: number, times: Record<Part, number[]>): void {
  let t = performance.now();
  const lap = (part: Part) => {
    const now = performance.now();
    times[part].push(now - t);
    t = now;
  };
  const keyword = keywordSearch(db, q.text, STAGE_LIMIT, null);
  lap('keyword');
  const count = db.prepare(`SELECT count(*) FROM chunks`).pluck().get() as number;
  lap('vectorCount');
  const blob = Buffer.from(q.vector.buffer, q.vector.byteOffset, q.vector.byteLength);
  if (count >= EXACT_BELOW) db.prepare(`SELECT rowid FROM vec_bits WHERE embedding MATCH vec_quantize_binary(?) AND k = ?`).pluck().all(blob, CANDIDATES);
  lap('bitKnn');
  const vector = vectorSearch(db, q.vector, STAGE_LIMIT, null);
  const whole = performance.now() - t;
  // vectorSearch repeats the count and the KNN; what is left of it is fetching and rescoring.
  times.rescore.push(Math.max(0, whole - times.vectorCount.at(-1)! - times.bitKnn.at(-1)!));
  t = performance.now();
  const fused = reciprocalRankFusion(keyword, vector).slice(0, Math.max(topK * 4, 20));
  lap('fusion');
  const diverse = maximalMarginalRelevance(fused, vectorsOf(db, fused.map((h) => h.chunkId)), topK * 2, LAMBDA);
  lap('mmr');
  const merged = mergeAdjacent(diverse, places(db, diverse.map((h) => h.chunkId)));
  lap('merge');
  const pages = loadPages(db, merged.map((m) => m.pageId));
  for (const m of merged.slice(0, topK)) {
    const page = pages.get(m.pageId);
    if (page) buildPassage(page, m.start, m.end, m.hits, matchesTitle(q.text, page.titleTokens) ? 'title' : 'body');
  }
  lap('passages');
}

/** Print the p50 and mean of each part of a hybrid search over `queries` (after a warm-up). */
export async function stageBreakdown(kb: SearchKb, queries: BenchQuery[], topK: number): Promise<void> {
  const times = Object.fromEntries(Object.keys(LABELS).map((k) => [k, [] as number[]])) as Record<Part, number[]>;
  for (const q of queries.slice(0, 30)) timeOne(kb.db, q, topK, times);
  for (const list of Object.values(times)) list.length = 0;
  for (const q of queries) timeOne(kb.db, q, topK, times);
  console.log('  where a hybrid search spends its time (default options; p50 / mean ms):');
  let sum = 0;
  for (const part of Object.keys(LABELS) as Part[]) {
    const list = times[part];
    const mean = list.reduce((a, b) => a + b, 0) / list.length;
    sum += mean;
    note(`    ${LABELS[part]}`, `${fmt(percentile(list, 50), 2)} / ${fmt(mean, 2)}`);
  }
  note('    sum of means', `${fmt(sum, 2)} ms`);
}
