/**
 * The LLM enhancements around one search, in the order they run: plan (precedence, limits, the model check) →
 * rewrite → multi-query → HyDE → (the stages and the one fusion, in search.ts) → rerank. Each step that cannot run,
 * fails or is late leaves a note and the search goes on without it; none is silent.
 */
import { SiftError } from '../../../../shared/errors';
import type { Passage, SearchEnhancement, SearchMode } from '../../../../shared/models';
import type { EnhanceSettings } from '../../../../shared/settings';
import type { Embedder } from '../../embed/embedder';
import { llmReranker } from '../rerank/llm';
import type { Reranker, RerankKind } from '../rerank/types';
import { failureNote, type Completer, type CompleterSource } from './completer';
import { needsModel, planEnhancements, type EnhanceAsk, type EnhancePlan } from './plan';
import { alternativeQueries, hypotheticalPassage } from './probes';
import { rewriteFollowUp, type HistoryTurn } from './rewrite';

/** What the enhancements need from the host. */
export interface EnhanceProviders {
  /** The chat model's completer, or why there is none; asked only when a planned enhancement needs a model. */
  completer: CompleterSource;
  /** The reranker of `kind`, or null when that provider is not available here. Default {@link defaultRerankers}. */
  reranker?: (kind: RerankKind, completer: Completer | null) => Reranker | null;
  /** Defaults and limits (the settings' `enhance`). */
  settings: () => EnhanceSettings;
  /** The caller's cancel (a chat turn's). */
  signal?: AbortSignal;
}

/** The LLM reranker when there is a model; the core adds the cross-encoder (sift.ts) through `reranker`. */
export function defaultRerankers(kind: RerankKind, completer: Completer | null): Reranker | null {
  return kind === 'llm' && completer ? llmReranker(completer) : null;
}

/** One probe of the search: a query searched by both stages, or a HyDE passage's vector. */
export interface Probe {
  kind: SearchEnhancement['probes'][number]['kind'];
  text: string;
  /** HyDE: the passage's vector. */
  vector?: Float32Array;
}

/** The probes of a search and, when enhanced, the plan and the report being filled in. */
export interface Probes {
  probes: Probe[];
  enhanced: boolean;
  plan: EnhancePlan;
  completer: Completer | null;
  report: SearchEnhancement;
}

/** Passages a reranker reads at most; the rest keep their fused order after them. */
export const RERANK_CANDIDATES = 20;

const took = (t0: number) => Math.round(performance.now() - t0);

/** The search as it ran: its mode, and the query embedder when a vector stage can run. */
export interface SearchRun {
  mode: SearchMode;
  keywordOnlyReason: string | null;
  embedder: Embedder | null;
}

function report(plan: EnhancePlan, probes: Probe[], mode: SearchMode): SearchEnhancement {
  const stagesOf = (p: Probe): ('keyword' | 'vector')[] =>
    p.kind === 'hyde' ? ['vector'] : mode === 'keyword' ? ['keyword'] : mode === 'vector' ? ['vector'] : ['keyword', 'vector'];
  return {
    probes: probes.map((p) => ({ kind: p.kind, text: p.text, stages: stagesOf(p) })),
    rewrittenFrom: null,
    applied: { rewrite: plan.rewrite, multiQuery: plan.multiQuery, hyde: plan.hyde, rerank: plan.rerank },
    rerank: null,
    notes: [...plan.notes],
    ms: { rewrite: null, multiQuery: null, hyde: null, rerank: null },
  };
}

/** Decide the plan and find the model it needs (a plan needing one it cannot have is decided again without). */
async function planned(req: { enhance?: EnhanceAsk; enhanceArgs?: EnhanceAsk }, hasHistory: boolean, providers: EnhanceProviders) {
  const input = { caller: req.enhance, args: req.enhanceArgs, settings: providers.settings() };
  let plan = planEnhancements({ ...input, noModel: null });
  let completer: Completer | string = 'not needed';
  if (needsModel(plan, hasHistory)) {
    completer = await providers.completer();
    if (typeof completer === 'string') plan = { ...planEnhancements({ ...input, noModel: completer }), rewrite: plan.rewrite };
  }
  return { plan, completer };
}

/**
 * The probes of `text`: its rewrite (or itself) first, then the alternative queries, then the HyDE passage.
 * Without `providers`, or when nothing was asked and the settings add nothing, just the query (not enhanced).
 */
export async function writeProbes(
  text: string,
  req: { enhance?: EnhanceAsk; enhanceArgs?: EnhanceAsk; history?: HistoryTurn[] },
  run: SearchRun,
  providers?: EnhanceProviders,
): Promise<Probes> {
  const plain = { rewrite: false, multiQuery: 1, hyde: false, rerank: null, notes: [] };
  const asked = req.enhance !== undefined || req.enhanceArgs !== undefined;
  const history = req.history ?? [];
  const hasHistory = history.some((t) => t.role === 'user');
  if (!providers) {
    const none: Probes = { probes: [{ kind: 'query', text }], enhanced: asked, plan: plain, completer: null, report: report(plain, [{ kind: 'query', text }], run.mode) };
    if (asked) none.report.notes.push('search enhancements are not available here');
    return none;
  }
  const { plan, completer } = await planned(req, hasHistory, providers);
  const model = typeof completer === 'string' ? null : completer;
  const enhanced = asked || plan.notes.length > 0 || needsModel(plan, hasHistory) || plan.rerank !== null;
  const probes: Probe[] = [{ kind: 'query', text }];
  const out: Probes = { probes, enhanced, plan, completer: model, report: report(plan, probes, run.mode) };
  if (!enhanced) return out;
  const notes = out.report.notes;
  const signal = providers.signal;
  if (plan.rewrite && hasHistory) {
    const rewritten = await rewriteFollowUp(text, history, completer, signal);
    out.report.ms.rewrite = rewritten.ms;
    if (rewritten.note) notes.push(rewritten.note);
    if (rewritten.query !== text) {
      probes[0] = { kind: 'rewrite', text: rewritten.query };
      out.report.rewrittenFrom = text;
    }
  }
  const query = probes[0]!.text;
  if (plan.multiQuery > 1 && model) {
    const t0 = performance.now();
    try {
      for (const q of await alternativeQueries(query, plan.multiQuery - 1, model, signal)) probes.push({ kind: 'multi-query', text: q });
    } catch (err) {
      if (signal?.aborted) throw err;
      notes.push(`multi-query: the model's queries were not used (${failureNote(err)})`);
    }
    out.report.ms.multiQuery = took(t0);
  }
  if (plan.hyde && model) await addHyde(out, query, model, run, signal);
  out.report.probes = report(plan, probes, run.mode).probes;
  return out;
}

async function addHyde(out: Probes, query: string, model: Completer, run: SearchRun, signal?: AbortSignal): Promise<void> {
  if (!run.embedder) {
    out.report.notes.push(`HyDE: skipped, this search is keyword-only${run.keywordOnlyReason ? ` (${run.keywordOnlyReason})` : ''}`);
    return;
  }
  const t0 = performance.now();
  try {
    const passage = await hypotheticalPassage(query, model, signal);
    if (passage) out.probes.push({ kind: 'hyde', text: passage, vector: (await run.embedder.embedPassages([passage]))[0]! });
    else out.report.notes.push('HyDE: the model wrote no passage');
  } catch (err) {
    if (signal?.aborted) throw err;
    out.report.notes.push(`HyDE: no passage (${failureNote(err)})`);
  }
  out.report.ms.hyde = took(t0);
}

/**
 * The candidates in the reranker's order (the first {@link RERANK_CANDIDATES}; the rest after them), each with its
 * rerank position and score; unchanged, with a note, when the reranker of the plan's kind is not available.
 */
export async function rerankCandidates(query: string, candidates: Passage[], probes: Probes, providers?: EnhanceProviders): Promise<Passage[]> {
  const kind = probes.plan.rerank;
  if (!kind || !providers || candidates.length === 0) return candidates;
  const reranker = (providers.reranker ?? defaultRerankers)(kind, probes.completer);
  if (!reranker) {
    probes.report.notes.push(`rerank (${kind}): reranker not available`);
    return candidates;
  }
  const head = candidates.slice(0, RERANK_CANDIDATES);
  const outcome = await reranker.rerank(query, head.map((p) => p.text), providers.signal);
  if (outcome.order.length !== head.length || new Set(outcome.order).size !== head.length) {
    throw new SiftError('internal', `rerank (${kind}): the reranker's order does not hold every candidate once`);
  }
  probes.report.rerank = { kind, candidates: head.length, fallback: outcome.fallback, ms: outcome.ms };
  probes.report.ms.rerank = outcome.ms;
  const used = outcome.fallback === null;
  const ranked = outcome.order.map((i, position) => ({
    ...head[i]!, rerankPosition: used ? position + 1 : null, rerankScore: used ? outcome.scores[i] ?? null : null,
  }));
  return [...ranked, ...candidates.slice(RERANK_CANDIDATES)];
}
