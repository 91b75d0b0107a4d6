/**
 * Running the search benchmarks' queries, shared by bench/search.ts, bench/search-stages.ts and
 * bench/guard.ts (which import this, not each other): seeded queries with the vector their embedding would
 * have, an embedder that hands that vector over at once (so latencies exclude query embedding), and the
 * timing of one search mode over them through the engine's own searchKnowledgeBase.
 */
import type { SearchMode } from '../shared/models';
import type { Embedder } from '../electron/core/embed/embedder';
import { RANKING_FEATURES } from '../electron/core/page-features';
import { searchKnowledgeBase, type SearchOptions } from '../electron/core/search/search';
import { queryText } from './corpus';
import { percentile, since } from './measure';
import { Random } from './random';
import { DIMENSION, VectorSource, type SearchKb, type VectorKind } from './search-kb';

/** A query: what the person typed and the vector its embedding would be. */
export interface BenchQuery {
  text: string;
  vector: Float32Array;
}

/** `count` seeded queries (the same on every run) of the given vector kind. */
export function makeQueries(count: number, kind: VectorKind): BenchQuery[] {
  const rng = new Random(7);
  const vectors = new VectorSource(kind, 8);
  return Array.from({ length: count }, () => ({ text: queryText(rng), vector: vectors.vector(vectors.cluster()) }));
}

/**
 * A stand-in embedder that answers `embedQuery` at once with the vector of the query being run,
 * under the recorded model's id, so search latency excludes query embedding.
 */
export class InstantEmbedder implements Embedder {
  current: Float32Array = new Float32Array(DIMENSION);

  constructor(
    readonly id: string,
    readonly dimension = DIMENSION,
  ) {}

  async embedPassages(): Promise<Float32Array[]> {
    throw new Error('bench: the instant embedder only embeds queries');
  }

  async embedQuery(): Promise<Float32Array> {
    return this.current;
  }

  async close(): Promise<void> {}
}

/** CPU milliseconds (user + system) since `c0` (a `process.cpuUsage()` reading). */
export function cpuSince(c0: NodeJS.CpuUsage): number {
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

/** Latencies of one mode over every query, after a warm-up: wall and CPU time, stage medians, statements. */
export async function timeMode(kb: SearchKb, queries: BenchQuery[], mode: SearchMode, topK: number, options: SearchOptions = {}) {
  const embedder = new InstantEmbedder(kb.modelId);
  const got = async () => embedder;
  const run = async (q: BenchQuery) => {
    embedder.current = q.vector;
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    const result = await searchKnowledgeBase(kb.db, { query: q.text, topK, mode }, got, { rankingFeatures: RANKING_FEATURES, ...options });
    return { ms: since(t0), cpu: cpuSince(c0), result };
  };
  for (const q of queries.slice(0, 30)) await run(q);
  const wall: number[] = [];
  const cpu: number[] = [];
  const statements: number[] = [];
  const stage = { keyword: [] as number[], vector: [] as number[], fuse: [] as number[] };
  let empty = 0;
  for (const q of queries) {
    const { ms, cpu: used, result } = await run(q);
    if (result.mode !== mode) throw new Error(`bench:search: asked for ${mode}, ran ${result.mode} (${result.keywordOnlyReason})`);
    wall.push(ms);
    cpu.push(used);
    statements.push(result.timings.statements.total);
    if (result.passages.length === 0) empty++;
    if (result.timings.keywordMs !== null) stage.keyword.push(result.timings.keywordMs);
    if (result.timings.vectorMs !== null) stage.vector.push(result.timings.vectorMs);
    stage.fuse.push(result.timings.fuseMs);
  }
  const cpuMean = cpu.reduce((a, b) => a + b, 0) / cpu.length;
  return { p50: percentile(wall, 50), p95: percentile(wall, 95), cpuP50: percentile(cpu, 50), cpuMean, empty, stage, statements };
}
