/**
 * Which LLM enhancements a search runs, decided in one place. Precedence per field: the caller's choice (the
 * person's per-message depth, CLI flags) beats the model's tool arguments, which beat the settings' defaults; the
 * settings' limits clamp all of them (rerank runs only if requested AND allowed); without a model every LLM
 * enhancement is off whatever was asked, and the plan says so. Pure: no model, no database.
 */
import type { EnhanceRequest, SearchDepth } from '../../../../shared/models';
import type { EnhanceSettings } from '../../../../shared/settings';
import type { RerankKind } from '../rerank/types';

/** What one party asks for; an absent field is left to the next party. */
export type EnhanceAsk = EnhanceRequest;

/** What runs. */
export interface EnhancePlan {
  /** Rewrite the query (by the model; without one, a follow-up is widened with the previous question's key terms). */
  rewrite: boolean;
  /** Queries searched, the original included (1 = only it). */
  multiQuery: number;
  hyde: boolean;
  rerank: RerankKind | null;
  /** What was asked and not done, or done differently, and why. */
  notes: string[];
}

/** The composer's depths: quick is the plain search (follow-ups still rewritten), deep asks for everything. */
export const DEPTH_PRESETS: Record<SearchDepth, Required<EnhanceAsk>> = {
  quick: { rewrite: true, multiQuery: 1, hyde: false, rerank: null },
  balanced: { rewrite: true, multiQuery: 2, hyde: false, rerank: null },
  deep: { rewrite: true, multiQuery: 3, hyde: true, rerank: 'llm' },
};

/** Everything {@link planEnhancements} weighs. */
export interface PlanInput {
  /** The caller's choice (depth preset or CLI flags). */
  caller?: EnhanceAsk;
  /** The model's tool arguments (agent `kb_search`). */
  args?: EnhanceAsk;
  settings: EnhanceSettings;
  /** Why no chat model can run the enhancements, or null when one can. */
  noModel: string | null;
}

function pick<K extends keyof EnhanceAsk>(input: PlanInput, key: K): EnhanceAsk[K] {
  if (input.caller?.[key] !== undefined) return input.caller[key];
  if (input.args?.[key] !== undefined) return input.args[key];
  return input.settings[key] as EnhanceAsk[K];
}

/** The enhancements to run, with notes for every request that was clamped, refused or switched off. */
export function planEnhancements(input: PlanInput): EnhancePlan {
  const { settings, noModel } = input;
  const notes: string[] = [];
  let multiQuery = Math.max(1, Math.round(pick(input, 'multiQuery') ?? 1));
  if (multiQuery > settings.maxMultiQuery) {
    notes.push(`multi-query: ${multiQuery} queries asked, the settings allow at most ${settings.maxMultiQuery}`);
    multiQuery = settings.maxMultiQuery;
  }
  let hyde = pick(input, 'hyde') === true;
  if (hyde && !settings.allowHyde) {
    notes.push('HyDE: turned off in the settings');
    hyde = false;
  }
  let rerank = pick(input, 'rerank') ?? null;
  if (rerank && !settings.allowRerank) {
    notes.push(`rerank (${rerank}): turned off in the settings`);
    rerank = null;
  }
  const rewrite = pick(input, 'rewrite') === true;
  if (noModel !== null) {
    const off = [multiQuery > 1 && 'multi-query', hyde && 'HyDE', rerank === 'llm' && 'LLM rerank'].filter(Boolean);
    if (off.length) notes.push(`${off.join(', ')}: off, no model (${noModel})`);
    multiQuery = 1;
    hyde = false;
    if (rerank === 'llm') rerank = null;
  }
  return { rewrite, multiQuery, hyde, rerank, notes };
}

/** True when the plan needs a chat model (a rewrite needs one only for a follow-up: without earlier questions there is
 *  nothing to rewrite against, and the query is searched as typed). */
export function needsModel(plan: EnhancePlan, hasHistory: boolean): boolean {
  return (plan.rewrite && hasHistory) || plan.multiQuery > 1 || plan.hyde || plan.rerank === 'llm';
}
