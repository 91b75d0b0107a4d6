/**
 * Where a hybrid search's time goes, from the engine itself: the stage timings every
 * `searchKnowledgeBase` result carries (keyword stage, vector stage, and fusion + MMR + merging +
 * passages), plus the vector stage's first pass on its own — building the in-memory vector index
 * once (`loadVectorIndex`) and one Hamming scan (`nearestByBits`) per query — so the rest of the
 * vector stage (int8 ranking of the candidates, then fetching and rescoring the best exactly) can be told apart.
 * Nothing here re-implements a stage: every figure times the functions the search runs.
 */
import { RANKING_FEATURES } from '../electron/core/page-features';
import { searchKnowledgeBase } from '../electron/core/search/search';
import { loadVectorIndex, nearestByBits } from '../electron/core/search/vector-index';
import { fmt, note, percentile } from './measure';
import type { SearchKb } from './search-kb';
import { DIMENSION } from './search-kb';
import { InstantEmbedder, type BenchQuery } from './search-run';

/** VectorOptions.candidates' default (see electron/core/search/vector.ts). */
const CANDIDATES = 1_000;

const p50 = (list: number[]) => fmt(percentile(list, 50), 2);
const mean = (list: number[]) => list.reduce((a, b) => a + b, 0) / list.length;

/** Print p50 / mean of each stage of a hybrid search over `queries` (after a warm-up of 30). */
export async function stageBreakdown(kb: SearchKb, queries: BenchQuery[], topK: number): Promise<void> {
  const embedder = new InstantEmbedder(kb.modelId);
  const times = { keyword: [] as number[], vector: [] as number[], fuse: [] as number[], scan: [] as number[] };
  let t = performance.now();
  const index = loadVectorIndex(kb.db, DIMENSION);
  const loadMs = performance.now() - t;
  const runOne = async (q: BenchQuery, keep: boolean) => {
    embedder.current = q.vector;
    const r = await searchKnowledgeBase(kb.db, { query: q.text, topK, mode: 'hybrid' }, async () => embedder, { rankingFeatures: RANKING_FEATURES });
    t = performance.now();
    nearestByBits(index, q.vector, CANDIDATES);
    const scan = performance.now() - t;
    if (!keep) return;
    times.keyword.push(r.timings.keywordMs ?? 0);
    times.vector.push(r.timings.vectorMs ?? 0);
    times.fuse.push(r.timings.fuseMs);
    times.scan.push(scan);
  };
  for (const q of queries.slice(0, 30)) await runOne(q, false);
  for (const q of queries) await runOne(q, true);
  console.log('  where a hybrid search spends its time (the engine\'s own stage timings; p50 / mean ms):');
  note('    keyword stage (FTS5 bm25)', `${p50(times.keyword)} / ${fmt(mean(times.keyword), 2)}`);
  note('    vector stage', `${p50(times.vector)} / ${fmt(mean(times.vector), 2)}`);
  note(`      of which the sign-bit scan (${CANDIDATES} candidates)`, `${p50(times.scan)} / ${fmt(mean(times.scan), 2)}`);
  note('    fusion, MMR, merging, passages', `${p50(times.fuse)} / ${fmt(mean(times.fuse), 2)}`);
  note('  building the in-memory vector index (once per change)', `${fmt(loadMs, 1)} ms for ${fmt(index.ids.length, 0)} vectors`);
}
