/**
 * One chat turn, start to end: trigger policy → search within the context budget → the model
 * answers (agent loop), or without a model an extractive answer → citations checked by code →
 * the assistant message persisted → `answer.done` (or `answer.failed`) → one retrieval-log line.
 * Every step emits its event, in the contract's order.
 */
import type Database from 'better-sqlite3';
import type { ChatMessage, Citation, TurnInfo } from '../../../shared/chat-models';
import { SiftError } from '../../../shared/errors';
import type { Passage, SearchResult } from '../../../shared/models';
import { parseWikiRefs } from '../../../shared/wiki-refs';
import { now } from '../context';
import type { EventBus } from '../events';
import type { LlmClient } from '../llm/types';
import { runAgent, type AgentLimits } from './agent';
import { checkCitations, decide, referencesOf } from './answer-check';
import { addMessage } from './conversations';
import { extractiveAnswer, isOnlyHeading } from './extractive';
import { contextBudget, fitPassages, historyMessages, systemPrompt, userMessageWithContext, type RetrievalState } from './prompt';
import { appendRetrievalLog } from './retrieval-log';
import { shouldSearch } from './trigger';

/** Passages quoted by the answer given without a model. */
const EXTRACTIVE_PASSAGES = 5;

/** Chat settings of a turn. */
export interface ChatSettings extends AgentLimits {
  /** Model to use when the request names none; default the first installed. */
  model?: string;
  think?: boolean;
  /** Context window sent as `num_ctx` and used for the budget, capped by the model's own. Default 8192. */
  numCtx: number;
  /** Share of the window for passages, percent. Default 20. */
  contextPercent: number;
  /** Passages the automatic search asks for. Default 8 (1–50). */
  topK: number;
}

/** What a turn needs. */
export interface TurnDeps {
  appDb: Database.Database;
  events: EventBus;
  llm: LlmClient;
  logsDir: string;
  settings: ChatSettings;
  search: ((query: string, topK: number) => Promise<SearchResult>) | null;
  readPage: ((path: string, start: number | undefined, end: number | undefined) => Promise<Passage>) | null;
}

/** The turn asked for. */
export interface TurnRequest {
  turnId: string;
  kbId: string | null;
  conversationId: string;
  message: string;
  /** Earlier messages of the conversation (without this one). */
  history: ChatMessage[];
  model?: string;
  think?: boolean;
  /** The asker's UI language (BCP 47); default: read from the question's script. */
  language?: string;
}

interface Retrieval {
  state: RetrievalState;
  passages: Passage[];
  error: string | null;
  ms: number | null;
  refs: string[];
}

async function retrieve(req: TurnRequest, deps: TurnDeps, search: boolean, budget: number): Promise<Retrieval> {
  const refs = parseWikiRefs(req.message).refs;
  if (!search || !deps.search) return { state: 'none', passages: [], error: null, ms: null, refs };
  const t = performance.now();
  deps.events.emit('search.started', { turnId: req.turnId, query: req.message });
  try {
    const result = await deps.search(req.message, deps.settings.topK);
    const passages = fitPassages(result.passages, budget);
    const ms = Math.round(performance.now() - t);
    if (passages.length === 0) {
      deps.events.emit('search.empty', { turnId: req.turnId });
      return { state: 'empty', passages, error: null, ms, refs };
    }
    deps.events.emit('search.done', { turnId: req.turnId, count: passages.length, paths: [...new Set(passages.map((p) => p.pagePath))] });
    return { state: 'found', passages, error: null, ms, refs };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.events.emit('search.failed', { turnId: req.turnId, message });
    return { state: 'failed', passages: [], error: message, ms: Math.round(performance.now() - t), refs };
  }
}

/** The model to answer with and its window, or why no model can answer. */
async function pickModel(req: TurnRequest, deps: TurnDeps): Promise<{ model: string; window: number | null } | { down: string }> {
  try {
    const model = req.model ?? deps.settings.model ?? (await deps.llm.listModels())[0]?.name;
    if (!model) return { down: 'Ollama has no model installed' };
    const own = await deps.llm.contextLength(model).catch(() => null);
    return { model, window: own ? Math.min(own, deps.settings.numCtx) : null };
  } catch (err) {
    if (err instanceof SiftError && err.code === 'llm_unavailable') return { down: `Ollama is not reachable at ${deps.llm.host}` };
    throw err;
  }
}

/** Run a turn to its end. Never throws: failures become `answer.failed` with the partial answer kept. */
export async function runTurn(req: TurnRequest, deps: TurnDeps, signal: AbortSignal): Promise<ChatMessage | null> {
  const t0 = performance.now();
  let firstTokenMs: number | null = null;
  let answer = '';
  // An extractive answer brings its citations with it; a model's are parsed from its text and checked.
  let builtCitations: Citation[] | null = null;
  const onToken = (text: string) => {
    firstTokenMs ??= Math.round(performance.now() - t0);
    deps.events.emit('answer.token', { turnId: req.turnId, text });
  };
  const trigger = shouldSearch(req.message, req.kbId !== null);
  let picked: Awaited<ReturnType<typeof pickModel>> = { down: 'not asked yet' };
  let retrieval: Retrieval = { state: 'none', passages: [], error: null, ms: null, refs: [] };
  let status: TurnInfo['status'] = 'complete';
  let failure: SiftError | null = null;
  try {
    picked = await pickModel(req, deps).catch((err: unknown) => ({ down: err instanceof Error ? err.message : String(err) }));
    const budget = contextBudget('model' in picked ? picked.window : null, deps.settings.contextPercent);
    retrieval = await retrieve(req, deps, trigger.search, budget);
    if ('down' in picked) {
      status = 'llm_unavailable';
      // Quoted passages are read, not skimmed by a model: the best few, numbered as cited.
      const quotable = retrieval.passages.filter((p) => !isOnlyHeading(p.text)).slice(0, EXTRACTIVE_PASSAGES);
      const extractive = extractiveAnswer(req.message, quotable, picked.down, req.language);
      retrieval.passages = extractive.passages;
      answer = extractive.text;
      builtCitations = extractive.citations;
      onToken(answer);
    } else {
      const messages = [
        { role: 'system' as const, content: systemPrompt(retrieval.state, retrieval.error) },
        ...historyMessages(req.history, budget * 2),
        { role: 'user' as const, content: userMessageWithContext(req.message, retrieval.passages, budget) },
      ];
      answer = await runAgent(
        {
          turnId: req.turnId, llm: deps.llm, model: picked.model, think: req.think ?? deps.settings.think,
          numCtx: picked.window ?? deps.settings.numCtx, events: deps.events, signal, limits: deps.settings,
          search: req.kbId ? deps.search : null, readPage: req.kbId ? deps.readPage : null,
          passages: retrieval.passages, searchesUsed: retrieval.state === 'none' ? 0 : 1,
          onToken: (text) => {
            answer += text;
            onToken(text);
          },
        },
        messages,
      );
    }
  } catch (err) {
    failure = err instanceof SiftError ? err : new SiftError('internal', err instanceof Error ? err.message : String(err));
    status = failure.code === 'cancelled' ? 'cancelled' : 'failed';
  }
  const { citations, references } = builtCitations
    ? { citations: builtCitations, references: referencesOf(builtCitations, retrieval.passages) }
    : checkCitations(answer, retrieval.passages);
  const decision = decide(answer, citations, retrieval.state === 'empty');
  const totalMs = Math.round(performance.now() - t0);
  const turn: TurnInfo = {
    turnId: req.turnId, status, searched: retrieval.state !== 'none', trigger: trigger.reason, passages: retrieval.passages,
    citations, references, decision, searchError: retrieval.error, model: 'model' in picked ? picked.model : null,
    timings: { totalMs, searchMs: retrieval.ms, firstTokenMs },
  };
  const message = answer || status !== 'failed' ? addMessage(deps.appDb, req.conversationId, 'assistant', answer, turn) : null;
  if (status === 'failed') deps.events.emit('answer.failed', { turnId: req.turnId, code: failure!.code, message: failure!.message, partial: message });
  else deps.events.emit('answer.done', { turnId: req.turnId, message: message!, citations, references, decision });
  appendRetrievalLog(deps.logsDir, {
    time: now(), conversationId: req.conversationId, kbId: req.kbId, messagePreview: req.message.slice(0, 120),
    triggered: trigger.search, trigger: trigger.reason, explicitRefs: retrieval.refs,
    results: retrieval.passages.map((p) => ({ path: p.pagePath, hitReason: p.hitReason, score: p.rrfScore, start: p.start, end: p.end })),
    contextChars: retrieval.passages.reduce((n, p) => n + p.text.length, 0), error: retrieval.error ?? failure?.message ?? null,
    timings: turn.timings,
  });
  return message;
}
