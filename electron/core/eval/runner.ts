/**
 * Running an evaluation: the dataset's documents are ingested into a throw-away knowledge base (a
 * temporary data folder, deleted afterwards) through the real pipeline, every judged query is
 * searched through the core's validated `search.query`, passages are mapped to their documents
 * (first occurrence kept), and the rankings are scored against the qrels.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SiftError } from '../../../shared/errors';
import type { EnhanceRequest, IngestStatus, PageSummary, SearchMode, SearchResult } from '../../../shared/models';
import type { EmbeddingConfig } from '../embed/embedding';
import { createSift, type Sift } from '../sift';
import { writeBeirCorpus } from './beir-corpus';
import { judgedQueries, type EvalDataset, type EvalQuery } from './dataset';
import { meanScores, percentile, scoreQuery, type QueryScores } from './metrics';

/** How to run an evaluation. */
export interface EvalOptions {
  /** Search mode. Default 'hybrid'. Keyword mode indexes without an embedding model (vectors cannot change it). */
  mode?: SearchMode;
  /** Documents in each query's ranking. Default 20 (1–50, the most `search.query` returns); figures @20 see no further. */
  topK?: number;
  /** The embedding model for hybrid and vector mode. Default: transformers.js with its default model. */
  embedding?: EmbeddingConfig;
  /** A models folder to use instead of the temporary one, so a model is downloaded once, not on every run. Default none. */
  modelsDir?: string;
  /** Only read `modelsDir`: a model downloaded now goes to the temporary folder and is deleted. Default false. */
  modelsReadOnly?: boolean;
  /** Folder the temporary knowledge base is made in (and removed from). Default the OS temp folder. */
  tempRoot?: string;
  /** Called with short progress lines for a person (indexing, searching). Default none. */
  onProgress?: (line: string) => void;
  /** LLM enhancements of every search (rewrite, multi-query, HyDE, rerank). Default: the settings' defaults, so
   *  follow-ups are rewritten when a model answers and widened with key terms when none does. */
  enhance?: EnhanceRequest;
  /** The chat model writing the enhancements: its Ollama host and name. Default: 127.0.0.1:11434, first installed. */
  chat?: { host?: string; model?: string };
}

/** One query's outcome. */
export interface QueryOutcome {
  id: string;
  category: string | null;
  /** Document ids, best first, at most topK. */
  ranking: string[];
  scores: QueryScores;
  latencyMs: number;
}

/** Everything `sift eval` reports. */
export interface EvalReport {
  dataset: string;
  format: 'beir' | 'folder';
  split: string;
  /** The mode asked for. */
  mode: SearchMode;
  /** The mode the searches actually ran in (keyword when no model was available), or null when no query ran. */
  ranMode: SearchMode | null;
  keywordOnlyReason: string | null;
  embeddingModel: string | null;
  topK: number;
  /** The enhancements asked for, when any (absent: the settings' defaults). */
  enhance?: EnhanceRequest;
  documents: { indexed: number; failed: number };
  /** `skipped`: queries with no relevant document in the split's qrels. */
  queries: { total: number; evaluated: number; skipped: number };
  overall: QueryScores;
  /** Figures per category, by category name (sorted); queries without one count only overall. */
  categories: { name: string; queries: number; scores: QueryScores }[];
  latencyMs: { p50: number | null; p95: number | null };
  elapsedMs: { ingest: number; search: number };
  /** Problems with the dataset that did not stop the run (unindexed files, judgements of unknown documents). */
  warnings: string[];
  perQuery: QueryOutcome[];
}

/** The most passages `search.query` returns for one query. */
const MAX_TOP_K = 50;

const round = (ms: number) => Math.round(ms * 100) / 100;

async function must<T>(sift: Sift, op: string, args: unknown): Promise<T> {
  const result = await sift.invoke(op, args);
  if (!result.ok) throw new SiftError(result.error.code, `eval: ${op} failed: ${result.error.message}`);
  return result.value as T;
}

/** Index the dataset's documents; returns page path → corpus id and the ingest status. */
async function ingest(sift: Sift, dataset: EvalDataset, workDir: string, say: (l: string) => void) {
  let docsDir: string;
  let fileIds: Map<string, string> | null = null;
  if (dataset.corpus.format === 'beir') {
    docsDir = path.join(workDir, 'corpus');
    say(`writing ${dataset.corpus.corpusFile} as Markdown files…`);
    fileIds = await writeBeirCorpus(dataset.corpus.corpusFile, docsDir);
  } else docsDir = dataset.corpus.docsDir;
  await must(sift, 'kb.create', { name: 'eval' });
  await must(sift, 'folder.add', { kb: 'eval', path: docsDir });
  say('indexing…');
  const status: IngestStatus = await sift.ingest('eval');
  if (status.state === 'error') throw new SiftError('internal', `eval: indexing the dataset failed: ${status.error ?? 'unknown error'}`);
  const pages = await must<PageSummary[]>(sift, 'pages.list', { kb: 'eval' });
  const docOf = new Map<string, string>();
  for (const page of pages) {
    const rel = page.relPath.split(path.sep).join('/');
    docOf.set(page.path, fileIds ? (fileIds.get(rel) ?? rel) : rel);
  }
  return { docOf, status };
}

/** Document ids of the passages, best first, each once. */
function documentsOf(result: SearchResult, docOf: Map<string, string>): string[] {
  const seen = new Set<string>();
  for (const p of result.passages) {
    const doc = docOf.get(p.pagePath);
    if (doc !== undefined) seen.add(doc);
  }
  return [...seen];
}

/**
 * Search one query. When the passages name fewer than `topK` documents (several passages of one
 * document) and the list was full, it asks again for the most passages there are; the latency
 * reported is the first search's, the one a person asking for `topK` passages waits for.
 */
async function rankQuery(sift: Sift, query: EvalQuery, how: SearchHow, topK: number, docOf: Map<string, string>) {
  const args = { kb: 'eval', query: query.text, mode: how.mode, enhance: how.enhance, history: query.history };
  const search = (k: number) =>
    must<SearchResult>(sift, 'search.query', { ...args, topK: k }).catch((err: SiftError) => {
      throw new SiftError(err.code, `${err.message} (query ${query.id})`);
    });
  const t0 = performance.now();
  let result = await search(topK);
  const latencyMs = round(performance.now() - t0);
  let ranking = documentsOf(result, docOf);
  if (ranking.length < topK && result.passages.length >= topK && topK < MAX_TOP_K) {
    result = await search(MAX_TOP_K);
    ranking = documentsOf(result, docOf);
  }
  return { result, ranking: ranking.slice(0, topK), latencyMs };
}

function warningsOf(dataset: EvalDataset, status: IngestStatus, known: Set<string>): string[] {
  const warnings: string[] = [];
  const failed = status.problems.filter((p) => p.status === 'failed');
  if (failed.length) {
    const shown = failed.slice(0, 5).map((p) => `${p.relPath} (${p.reason})`).join('; ');
    warnings.push(`${failed.length} document(s) could not be indexed: ${shown}${failed.length > 5 ? '; …' : ''}`);
  }
  const queryIds = new Set(dataset.queries.map((q) => q.id));
  const orphanQueries = [...dataset.qrels.keys()].filter((id) => !queryIds.has(id));
  if (orphanQueries.length) warnings.push(`${orphanQueries.length} query id(s) of ${dataset.qrelsFile} are not in queries.jsonl: ${orphanQueries.slice(0, 5).join(', ')}`);
  const unknown = new Set<string>();
  for (const judged of dataset.qrels.values()) for (const [doc, score] of judged) if (score > 0 && !known.has(doc)) unknown.add(doc);
  if (unknown.size) warnings.push(`${unknown.size} relevant document(s) of ${dataset.qrelsFile} were not indexed and count as not found: ${[...unknown].slice(0, 5).join(', ')}`);
  return warnings;
}

function byCategory(outcomes: QueryOutcome[]): EvalReport['categories'] {
  const groups = new Map<string, QueryScores[]>();
  for (const o of outcomes) if (o.category !== null) groups.set(o.category, [...(groups.get(o.category) ?? []), o.scores]);
  return [...groups.keys()].sort().map((name) => ({ name, queries: groups.get(name)!.length, scores: meanScores(groups.get(name)!) }));
}

/** How every query is searched. */
interface SearchHow {
  mode: SearchMode;
  enhance?: EnhanceRequest;
}

/** Search every query in order (one at a time, so latencies are not skewed by each other) and score it. */
async function searchAll(sift: Sift, dataset: EvalDataset, queries: EvalQuery[], how: SearchHow, topK: number, docOf: Map<string, string>) {
  const outcomes: QueryOutcome[] = [];
  let ranMode: SearchMode | null = null;
  let keywordOnlyReason: string | null = null;
  // What the enhancements could not do (no model, a timeout), each said once; a note's numbers vary, so the first 80
  // characters count as the same note.
  const notes = new Map<string, string>();
  const fallbacks = new RerankFallbacks();
  for (const query of queries) {
    const { result, ranking, latencyMs } = await rankQuery(sift, query, how, topK, docOf);
    ranMode ??= result.mode;
    keywordOnlyReason ??= result.keywordOnlyReason;
    for (const note of result.enhance?.notes ?? []) if (!notes.has(note.slice(0, 80))) notes.set(note.slice(0, 80), note);
    fallbacks.add(result.enhance?.rerank ?? null);
    outcomes.push({ id: query.id, category: query.category, ranking, scores: scoreQuery(ranking, dataset.qrels.get(query.id)!), latencyMs });
  }
  const said = [...notes.values()].map((n) => `search enhancement: ${n}`);
  return { outcomes, ranMode, keywordOnlyReason, notes: [...said, ...fallbacks.lines()] };
}

/**
 * The reranks that kept the fused order, as `sift search` shows each one ("fused order kept: …"), counted over the
 * run: one line per rerank kind and reason.
 */
class RerankFallbacks {
  private readonly ran = new Map<string, number>();
  private readonly kept = new Map<string, { kind: string; reason: string; count: number }>();

  add(rerank: { kind: string; fallback: string | null } | null): void {
    if (!rerank) return;
    this.ran.set(rerank.kind, (this.ran.get(rerank.kind) ?? 0) + 1);
    if (rerank.fallback === null) return;
    const key = `${rerank.kind}\n${rerank.fallback.slice(0, 80)}`;
    const seen = this.kept.get(key) ?? { kind: rerank.kind, reason: rerank.fallback, count: 0 };
    seen.count += 1;
    this.kept.set(key, seen);
  }

  lines(): string[] {
    return [...this.kept.values()].map((k) => `rerank ${k.kind}: fused order kept in ${k.count} of ${this.ran.get(k.kind)} searches: ${k.reason}`);
  }
}

/** Run `dataset` and score it; the temporary knowledge base is deleted whatever happens. */
export async function runEval(dataset: EvalDataset, options: EvalOptions = {}): Promise<EvalReport> {
  const mode = options.mode ?? 'hybrid';
  const topK = options.topK ?? 20;
  if (!Number.isInteger(topK) || topK < 1 || topK > MAX_TOP_K) throw new SiftError('invalid_argument', `eval: topK must be a whole number from 1 to ${MAX_TOP_K}, got ${topK}`);
  const say = options.onProgress ?? (() => undefined);
  const workDir = fs.mkdtempSync(path.join(options.tempRoot ?? os.tmpdir(), 'sift-eval-'));
  const dataDir = path.join(workDir, 'data');
  fs.mkdirSync(dataDir);
  const embedding: EmbeddingConfig = mode === 'keyword' ? { provider: 'none' } : (options.embedding ?? { provider: 'transformers' });
  const sharedModels = options.modelsDir && embedding.provider === 'transformers'
    ? { modelsDir: options.modelsDir, modelsReadOnly: options.modelsReadOnly }
    : {};
  const sift = createSift({ dataDir, embedding, ...sharedModels, chat: options.chat });
  try {
    const t0 = performance.now();
    const { docOf, status } = await ingest(sift, dataset, workDir, say);
    const ingestMs = round(performance.now() - t0);
    const evaluated = judgedQueries(dataset);
    say(`searching ${evaluated.length} queries…`);
    const t1 = performance.now();
    const how = { mode, enhance: options.enhance };
    const { outcomes, ranMode, keywordOnlyReason, notes } = await searchAll(sift, dataset, evaluated, how, topK, docOf);
    const latencies = outcomes.map((o) => o.latencyMs);
    return {
      dataset: dataset.name, format: dataset.corpus.format, split: dataset.split, mode, ranMode, keywordOnlyReason,
      embeddingModel: status.embeddingModel, topK, ...(options.enhance ? { enhance: options.enhance } : {}),
      documents: { indexed: status.pages, failed: status.filesFailed },
      queries: { total: dataset.queries.length, evaluated: evaluated.length, skipped: dataset.queries.length - evaluated.length },
      overall: meanScores(outcomes.map((o) => o.scores)),
      categories: byCategory(outcomes),
      latencyMs: { p50: percentile(latencies, 50), p95: percentile(latencies, 95) },
      elapsedMs: { ingest: ingestMs, search: round(performance.now() - t1) },
      warnings: [...warningsOf(dataset, status, new Set(docOf.values())), ...notes],
      perQuery: outcomes,
    };
  } finally {
    await sift.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  }
}
