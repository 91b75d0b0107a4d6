/**
 * One chat turn, start to end: trigger policy → search within the context budget → the model
 * answers (agent loop), or without a model an extractive answer → citations checked by code →
 * the assistant message persisted → `answer.done` (or `answer.failed`) → one retrieval-log line.
 * Every step emits its event, in the contract's order.
 */
import type Database from 'better-sqlite3';
import type { ChatMessage, Citation, TurnInfo, TurnStep } from '../../../shared/chat-models';
import { SiftError } from '../../../shared/errors';
import type { Passage, SearchDepth, SearchEnhancement, SearchResult } from '../../../shared/models';
import { BUILTIN_PROVIDER } from '../../../shared/settings';
import { stepOfEvent } from '../../../shared/turn-steps';
import { say, saidMapOf } from '../../../shared/said';
import { parseWikiRefs } from '../../../shared/wiki-refs';
import { now } from '../store/context';
import type { EventBus } from '../base/events';
import { redactSecrets } from '../base/redact';
import type { LlmClient } from '../llm/types';
import { completerOf } from '../search/enhance/completer';
import type { EnhanceAsk } from '../search/enhance/plan';
import { rewriteFollowUp } from '../search/enhance/rewrite';
import { runAgent, type AgentLimits, type TurnGlossary } from './agent';
import { checkCitations, decide, referencesOf } from './answer-check';
import { addMessage } from './conversations';
import { bestPassagePerPage, CATALOGUE_PAGES, catalogueAnswer, type CatalogueCount } from './catalogue';
import type { Mentions } from './mentions';
import { outlineAnswer, outlinePassages, type KbOutline } from './kb-overview';
import { extractiveAnswer, isOnlyHeading } from './extractive';
import { kbQuestionOf } from './kb-questions';
import { contextBudget, fitPassages, historyMessages, systemPrompt, userMessageWithContext, type RetrievalState } from './prompt';
import { GLOSSARY_TOOL_NOTE } from './prompt';
import { appendRetrievalLog, logEnhance, logResult } from './retrieval-log';
import { shouldSearch } from './trigger';
import { TurnInterrupted } from './turn-registry';

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
  /** The turn is stopped (partial answer kept, status `truncated`) after this long, ms. Default 300000 (setting
   *  `maxTurnSeconds`, 10–3600 s). */
  maxTurnMs: number;
}

/** What a turn needs. */
export interface TurnDeps {
  appDb: Database.Database;
  events: EventBus;
  llm: LlmClient;
  logsDir: string;
  settings: ChatSettings;
  /** Search the turn's knowledge base; `more.enhanceArgs`: the model's own choice of enhancements (tool arguments). */
  search: ((query: string, topK: number, more?: { enhanceArgs?: EnhanceAsk }) => Promise<SearchResult>) | null;
  /** Rewrite a follow-up into a standalone query before the automatic search. Default true (setting `enhance.rewrite`;
   *  the person's depth, when chosen, decides). */
  rewriteFollowUps?: boolean;
  readPage: ((path: string, start: number | undefined, end: number | undefined) => Promise<Passage>) | null;
  /** The knowledge base's meta pages (README, overview…), quoted first for questions about the whole of it. */
  metaPassages?: () => Passage[];
  /** The knowledge base's glossary, when it has one: the definitions of the question's terms are quoted first
   *  (hit reason `glossary`), and the model may call `lookup_glossary`. Default none. */
  glossary?: TurnGlossary;
  /** The digest overview's opening (hit reason `kb_meta`), when digests were written: quoted for a whole-folder
   *  question when the knowledge base has no meta page. Default none. */
  digestOverview?: () => Passage[];
  /** An outline of the knowledge base's pages (titles, top headings, sizes, by folder), made by code: the answer
   *  to a whole-folder question when there is neither a meta page nor a digest overview. Default none. */
  outline?: () => KbOutline | null;
  /** The pages that hold a term whole, truly counted, at most `limit` with a passage each (the search's `ranked`
   *  passages first): what a catalogue answer lists. Default: the search's keyword hits, counted as listed. */
  mentions?: (term: string, ranked: Passage[], limit: number) => Mentions;
  /** Keep the answer and return it as a message; default: add it to the request's conversation in `appDb`. */
  store?: (content: string, turn: TurnInfo) => ChatMessage;
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
  /** The depth the person chose for this message (recorded with the turn; the search applies it). */
  depth?: SearchDepth;
}

interface Retrieval {
  state: RetrievalState;
  passages: Passage[];
  error: string | null;
  ms: number | null;
  refs: string[];
  /** Set for a catalogue question ("which notes mention X?"): its topic X and how many pages hold it. */
  catalogue?: { topic: string; counted: CatalogueCount };
  /** Set for a whole-folder question with no meta page and no digest overview: the outline that answers it. */
  outline?: KbOutline;
  /** Identifiers of the question found nowhere in the knowledge base. */
  noExactMatch?: string[];
  /** The query searched and how it was rewritten. */
  query?: NonNullable<TurnInfo['query']>;
  /** Why a follow-up was not rewritten by the model (it was widened with key terms instead). */
  rewriteNote?: string;
  enhance?: SearchEnhancement;
}

/** The automatic search's query: the follow-up rewritten (by the model, else with key terms), or the message. */
async function queryOf(req: TurnRequest, deps: TurnDeps, model: string | null, down: string, signal?: AbortSignal) {
  if (deps.rewriteFollowUps === false || req.history.length === 0) return { text: req.message, via: null, note: null };
  const history = req.history.map((m) => ({ role: m.role, content: m.content }));
  const completer = model ? completerOf(deps.llm, model) : down;
  const rewritten = await rewriteFollowUp(req.message, history, completer, signal);
  return { text: rewritten.query, via: rewritten.via, note: rewritten.note };
}

async function retrieve(req: TurnRequest, deps: TurnDeps, search: boolean, budget: number, model: ModelPick, signal?: AbortSignal): Promise<Retrieval> {
  const refs = parseWikiRefs(req.message).refs;
  if (!search || !deps.search) return { state: 'none', passages: [], error: null, ms: null, refs };
  const t = performance.now();
  // A whole-folder question searches differently: a catalogue looks for its topic across many pages.
  const asked = refs.length === 0 ? kbQuestionOf(req.message) : null;
  const picked = 'model' in model ? model.model : null;
  const rewritten = asked?.kind === 'catalogue'
    ? { text: asked.topic, via: null, note: null }
    : await queryOf(req, deps, picked, 'down' in model ? model.down : '', signal);
  const query = rewritten.text;
  const from = rewritten.via ? { rewrittenFrom: req.message } : {};
  deps.events.emit('search.started', { turnId: req.turnId, query, ...from, ...(rewritten.note ? { note: rewritten.note } : {}) });
  const said = {
    query: { text: query, rewrittenFrom: rewritten.via ? req.message : null, via: rewritten.via },
    ...(rewritten.note ? { rewriteNote: rewritten.note } : {}),
  };
  try {
    // A whole-folder question is answered from what describes the whole: the meta pages, else the digest
    // overview, else an outline of the pages (a search for "what is in here" finds nothing of the kind).
    const meta = asked?.kind === 'overview' ? overviewPassages(deps) : [];
    const outline = asked?.kind === 'overview' && meta.length === 0 ? deps.outline?.() ?? null : null;
    if (outline) {
      const passages = outlinePassages(outline);
      const paths = [...new Set(passages.map((p) => p.pagePath))];
      deps.events.emit('search.done', { turnId: req.turnId, count: passages.length, paths, noExactMatch: [] });
      return { state: 'found', passages, error: null, ms: Math.round(performance.now() - t), refs, outline, ...said };
    }
    const topK = asked?.kind === 'catalogue' ? Math.max(CATALOGUE_SEARCH, deps.settings.topK) : deps.settings.topK;
    const result = await deps.search(query, topK);
    const found = result.passages;
    // "Mentions" means the words occur: a catalogue lists pages the keyword stage found. When none did, the
    // question goes the ordinary way (the passages nearest in meaning, for the model or quoted).
    const listing = asked?.kind === 'catalogue' ? catalogueOf(asked.topic, found, deps) : null;
    const catalogue = listing?.catalogue;
    const searched = asked?.kind === 'overview' ? withMetaFirst(meta, found) : found;
    // Definitions of the glossary terms the question names come first (the same overlap rule as meta pages).
    const defined = withMetaFirst(deps.glossary?.mentioned(req.message) ?? [], searched);
    const passages = listing ? listing.passages : fitPassages(defined, budget);
    const ms = Math.round(performance.now() - t);
    const { noExactMatch } = result;
    const enhance = result.enhance ? { enhance: result.enhance } : {};
    if (passages.length === 0) {
      deps.events.emit('search.empty', { turnId: req.turnId, noExactMatch });
      return { state: 'empty', passages, error: null, ms, refs, noExactMatch, ...said, ...enhance };
    }
    const paths = [...new Set(passages.map((p) => p.pagePath))];
    // A catalogue shows some of the pages that mention its topic; the step says how many there are in all.
    const total = catalogue && catalogue.counted.count > paths.length ? { total: catalogue.counted.count } : {};
    deps.events.emit('search.done', { turnId: req.turnId, count: passages.length, paths, ...total, noExactMatch });
    return { state: 'found', passages, error: null, ms, refs, catalogue, noExactMatch, ...said, ...enhance };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    deps.events.emit('search.failed', { turnId: req.turnId, message });
    return { state: 'failed', passages: [], error: message, ms: Math.round(performance.now() - t), refs, ...said };
  }
}

/**
 * What a catalogue question lists: the pages that hold the topic whole, with their true count; when none
 * does, the pages the keyword stage found for its parts, said to be that; when the keyword stage found
 * nothing either, null (the question goes the ordinary way: the passages nearest in meaning).
 */
function catalogueOf(topic: string, found: Passage[], deps: TurnDeps): { catalogue: NonNullable<Retrieval['catalogue']>; passages: Passage[] } | null {
  const mentioned = deps.mentions?.(topic, found, CATALOGUE_PAGES) ?? null;
  if (mentioned && mentioned.count > 0) return { catalogue: { topic, counted: { count: mentioned.count } }, passages: mentioned.passages };
  const byKeyword = bestPassagePerPage(found.filter((p) => p.keywordRank !== null));
  if (byKeyword.length === 0) return null;
  const counted: CatalogueCount = mentioned
    ? { count: 0, parts: mentioned.parts, partCount: Math.max(mentioned.partCount, byKeyword.length) }
    : { count: byKeyword.length };
  return { catalogue: { topic, counted }, passages: byKeyword };
}

/** The passages that describe the whole knowledge base: its meta pages, else the digest overview. */
function overviewPassages(deps: TurnDeps): Passage[] {
  const meta = deps.metaPassages?.() ?? [];
  return meta.length > 0 ? meta : deps.digestOverview?.() ?? [];
}

/** Passages a catalogue question's search asks for (it lists pages, so it looks wider). */
const CATALOGUE_SEARCH = 30;

/** Meta pages first (hit reason `kb_meta`), then the search's passages that do not overlap them. */
function withMetaFirst(meta: Passage[], found: Passage[]): Passage[] {
  const overlaps = (p: Passage) => meta.some((m) => m.pagePath === p.pagePath && m.start < p.end && p.start < m.end);
  return [...meta, ...found.filter((p) => !overlaps(p))];
}

/** The model to answer with and its window, or why no model can answer. */
type ModelPick = { model: string; window: number | null } | { down: string };

async function pickModel(req: TurnRequest, deps: TurnDeps): Promise<ModelPick> {
  try {
    const model = req.model ?? deps.settings.model ?? (await deps.llm.listModels())[0]?.name;
    const name = deps.llm.label;
    if (!model) return { down: name ? say('llm.listsNoModel', { name }).text : say('llm.noModelInstalled').text };
    // An unknown window is fine (the default is used); an unreachable server means no model can answer.
    const own = await deps.llm.contextLength(model).catch((err: unknown) => {
      if (err instanceof SiftError && err.code === 'llm_unavailable') throw err;
      return null;
    });
    return { model, window: own ? Math.min(own, deps.settings.numCtx) : null };
  } catch (err) {
    if (err instanceof SiftError && err.code === 'llm_unavailable') {
      return { down: say('llm.unreachable', { name: deps.llm.label ?? 'Ollama', host: deps.llm.host }).text };
    }
    throw err;
  }
}

/**
 * Abort reason for a turn whose conversation (or knowledge base) is being deleted: nothing is stored and the turn
 * ends with `answer.failed` code `cancelled`, carrying this message.
 */
export class TurnDiscarded extends SiftError {
  constructor(message: string) {
    super('cancelled', message);
  }
}

/** What a turn did, gathered as it runs, for storing and reporting at its end. */
interface TurnState {
  t0: number;
  firstTokenMs: number | null;
  answer: string;
  trigger: ReturnType<typeof shouldSearch>;
  picked: Awaited<ReturnType<typeof pickModel>>;
  retrieval: Retrieval;
  status: TurnInfo['status'];
  failure: SiftError | null;
  warnings: string[];
  toolRounds: number;
  /** An extractive answer brings its citations with it; a model's are parsed from its text and checked. */
  builtCitations: Citation[] | null;
  /** The model's reasoning and how long it took (kept with the answer, shown folded, exported only when asked). */
  thinking: { text: string; ms: number };
  /** The turn's steps as its events said them, stored so a reloaded thread shows them. */
  steps: TurnStep[];
}

/** Search, then answer with the model (or extractively without one), filling `st`. Throws what the model throws. */
async function answer(req: TurnRequest, deps: TurnDeps, signal: AbortSignal, st: TurnState): Promise<void> {
  const onToken = (text: string) => {
    st.firstTokenMs ??= Math.round(performance.now() - st.t0);
    deps.events.emit('answer.token', { turnId: req.turnId, text });
  };
  st.picked = await pickModel(req, deps).catch((err: unknown) => ({ down: messageOf(err) }));
  const picked = st.picked;
  const budget = contextBudget('model' in picked ? picked.window : null, deps.settings.contextPercent);
  st.retrieval = await retrieve(req, deps, st.trigger.search, budget, picked, signal);
  const retrieval = st.retrieval;
  if (retrieval.rewriteNote) st.warnings.push(retrieval.rewriteNote);
  if (retrieval.outline && retrieval.state === 'found') {
    // The outline is the answer, built by code with or without a model: each line opens its page.
    const outlined = outlineAnswer(retrieval.outline, req.language ? /^zh\b/i.test(req.language) : /\p{Script=Han}/u.test(req.message));
    st.answer = outlined.text;
    st.builtCitations = outlined.citations;
    onToken(st.answer);
    return;
  }
  if (retrieval.catalogue !== undefined && retrieval.state === 'found') {
    // The list of pages is the answer, built by code with or without a model: each entry opens its passage.
    const zh = req.language ? /^zh\b/i.test(req.language) : /\p{Script=Han}/u.test(req.message);
    const listed = catalogueAnswer(retrieval.catalogue.topic, retrieval.passages, zh, retrieval.catalogue.counted);
    st.answer = listed.text;
    st.builtCitations = listed.citations;
    onToken(st.answer);
    return;
  }
  if ('down' in picked) {
    st.status = 'llm_unavailable';
    // Quoted passages are read, not skimmed by a model: the best few, numbered as cited.
    const quotable = retrieval.passages.filter((p) => !isOnlyHeading(p.text)).slice(0, EXTRACTIVE_PASSAGES);
    const options = { language: req.language, noExactMatch: retrieval.noExactMatch };
    const extractive = extractiveAnswer(req.message, quotable, picked.down, options);
    retrieval.passages = extractive.passages;
    st.answer = extractive.text;
    st.builtCitations = extractive.citations;
    onToken(st.answer);
    return;
  }
  const glossaryNote = req.kbId && deps.glossary ? `\n${GLOSSARY_TOOL_NOTE}` : '';
  const messages = [
    { role: 'system' as const, content: systemPrompt(retrieval.state, retrieval.error, retrieval.noExactMatch) + glossaryNote },
    ...historyMessages(req.history, budget * 2),
    { role: 'user' as const, content: userMessageWithContext(req.message, retrieval.passages, budget) },
  ];
  const agentDeps = {
    turnId: req.turnId, llm: deps.llm, model: picked.model, think: req.think ?? deps.settings.think,
    numCtx: picked.window ?? deps.settings.numCtx, events: deps.events, signal, limits: deps.settings,
    search: req.kbId ? deps.search : null, readPage: req.kbId ? deps.readPage : null,
    glossary: req.kbId ? deps.glossary : null,
    passages: retrieval.passages, searchesUsed: retrieval.state === 'none' ? 0 : 1,
    onToken: (text: string) => {
      st.answer += text;
      onToken(text);
    },
    onThinking: (text: string, takesBack: number) => {
      if (takesBack > 0) st.answer = st.answer.slice(0, st.answer.length - takesBack);
      st.thinking.text += text;
      deps.events.emit('answer.thinking', { turnId: req.turnId, text, ...(takesBack > 0 ? { takesBack } : {}) });
    },
  };
  const result = await runAgent(agentDeps, messages);
  st.thinking.ms = result.thinkingMs;
  st.toolRounds = result.toolRounds;
  if (result.truncated) {
    st.status = 'truncated';
    st.warnings.push(result.truncated);
  }
  if (result.unreadableLines > 0) {
    if (st.status === 'complete') st.status = 'incomplete';
    st.warnings.push(say('turn.unreadable', { count: result.unreadableLines }).text);
  }
}

/** Record why the work stopped: the turn's time limit (truncated), a cancel, or a failure. */
function stopped(st: TurnState, err: unknown, deadline: AbortSignal, signal: AbortSignal, maxTurnMs: number): void {
  st.failure = err instanceof SiftError ? err : new SiftError('internal', messageOf(err));
  if (deadline.aborted && !signal.aborted && st.failure.code === 'cancelled') {
    st.status = 'truncated';
    const seconds = Math.round(maxTurnMs / 1000);
    st.warnings.push(say('turn.maxTime', { seconds }).text);
    st.failure = null;
  } else if (signal.reason instanceof TurnInterrupted) {
    // The status says it (the UI words it); a warning would say it twice.
    st.status = 'interrupted';
    st.failure = null;
  } else st.status = st.failure.code === 'cancelled' ? 'cancelled' : 'failed';
}

/**
 * Run a turn to its end. Never rejects: failures become `answer.failed` with the partial answer kept, a turn stopped
 * at `settings.maxTurnMs` is stored as `truncated`, and a turn discarded by {@link TurnDiscarded} stores nothing.
 */
export async function runTurn(req: TurnRequest, deps: TurnDeps, signal: AbortSignal): Promise<ChatMessage | null> {
  const st: TurnState = {
    t0: performance.now(), firstTokenMs: null, answer: '', trigger: shouldSearch(req.message, req.kbId !== null),
    picked: { down: 'not asked yet' }, retrieval: { state: 'none', passages: [], error: null, ms: null, refs: [] },
    status: 'complete', failure: null, warnings: [], toolRounds: 0, builtCitations: null, thinking: { text: '', ms: 0 },
    steps: [],
  };
  const unheard = deps.events.onAny((event, payload) => {
    if ((payload as { turnId?: unknown }).turnId !== req.turnId) return;
    const next = stepOfEvent(event, payload, st.steps.some((x) => x.kind === 'answering'));
    if (next) st.steps.push(next);
  });
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), deps.settings.maxTurnMs);
  try {
    await answer(req, deps, AbortSignal.any([signal, deadline.signal]), st);
  } catch (err) {
    stopped(st, err, deadline.signal, signal, deps.settings.maxTurnMs);
  } finally {
    clearTimeout(timer);
    unheard();
  }
  try {
    return finish(req, deps, st, signal.reason instanceof TurnDiscarded ? signal.reason : null);
  } catch (err) {
    // Storing can fail (the conversation deleted under the turn, a full disk); the turn still ends, once.
    console.error(`[sift] turn ${req.turnId}: could not store the answer:`, err);
    const message = `The answer could not be stored: ${messageOf(err)}`;
    deps.events.emit('answer.failed', { turnId: req.turnId, code: 'internal', message, partial: null });
    return null;
  }
}

/**
 * Whatever a turn says about failures (a model server's error, a warning, a search error) leaves the core through
 * the `answer.failed` event, the stored message, the retrieval log and the MCP `ask` result: nothing shaped like
 * an API key may be in it, even when a server quotes one back (the clients already remove their own key).
 */
function redactTurn(st: TurnState): void {
  if (st.failure) {
    const message = redactSecrets(st.failure.message);
    if (message !== st.failure.message) st.failure = new SiftError(st.failure.code, message);
  }
  st.warnings = st.warnings.map((w) => redactSecrets(w));
  if (st.retrieval.error) st.retrieval.error = redactSecrets(st.retrieval.error);
}

/** Store the answer (unless discarded), emit the turn's last event and write its retrieval-log line. */
function finish(req: TurnRequest, deps: TurnDeps, st: TurnState, discarded: TurnDiscarded | null): ChatMessage | null {
  redactTurn(st);
  const { retrieval, picked, status, failure } = st;
  const { citations, references } = st.builtCitations
    ? { citations: st.builtCitations, references: referencesOf(st.builtCitations, retrieval.passages) }
    : checkCitations(st.answer, retrieval.passages);
  const decision = decide(st.answer, citations, retrieval.state === 'empty');
  if (decision === 'no_answer' && status === 'complete') st.warnings.push(noAnswerWarning(st.toolRounds));
  const turn: TurnInfo = {
    turnId: req.turnId, status, searched: retrieval.state !== 'none', trigger: st.trigger.reason,
    passages: retrieval.passages,
    citations, references, decision, searchError: retrieval.error, model: 'model' in picked ? picked.model : null,
    ...('model' in picked ? { provider: deps.llm.label ?? BUILTIN_PROVIDER } : {}),
    timings: { totalMs: Math.round(performance.now() - st.t0), searchMs: retrieval.ms, firstTokenMs: st.firstTokenMs },
    ...(st.warnings.length > 0 ? { warnings: st.warnings } : {}),
    ...(retrieval.query ? { query: retrieval.query } : {}),
    ...(req.depth ? { depth: req.depth } : {}),
    ...(retrieval.enhance ? { enhance: retrieval.enhance } : {}),
    ...(st.thinking.text.trim() ? { thinking: st.thinking } : {}),
    ...(st.steps.length > 0 ? { steps: st.steps } : {}),
    ...saidOfTurn(st, retrieval),
  };
  for (const warning of st.warnings) console.warn(`[sift] turn ${req.turnId}: ${warning}`);
  const keep = !discarded && (st.answer || status !== 'failed');
  const store = deps.store ?? ((content: string, info: TurnInfo) => addMessage(deps.appDb, req.conversationId, 'assistant', content, info));
  const message = keep ? store(st.answer, turn) : null;
  const { turnId } = req;
  if (discarded) {
    deps.events.emit('answer.failed', { turnId, code: 'cancelled', message: discarded.message, partial: null });
  } else if (failure && status === 'failed') {
    const said = saidMapOf([failure.message]);
    deps.events.emit('answer.failed', { turnId, code: failure.code, message: failure.message, partial: message, said });
  } else deps.events.emit('answer.done', { turnId, message: message!, citations, references, decision });
  appendRetrievalLog(deps.logsDir, {
    time: now(), conversationId: req.conversationId, kbId: req.kbId, messagePreview: req.message.slice(0, 120),
    triggered: st.trigger.search, trigger: st.trigger.reason, explicitRefs: retrieval.refs,
    results: retrieval.passages.map(logResult),
    contextChars: retrieval.passages.reduce((n, p) => n + p.text.length, 0), error: retrieval.error ?? failure?.message ?? null,
    timings: turn.timings,
    ...(retrieval.query ? { query: retrieval.query.text, rewrittenFrom: retrieval.query.rewrittenFrom, rewrittenVia: retrieval.query.via } : {}),
    ...(req.depth ? { depth: req.depth } : {}),
    ...(retrieval.enhance ? { enhance: logEnhance(retrieval.enhance) } : {}),
  });
  return message;
}

function noAnswerWarning(toolRounds: number): string {
  if (toolRounds > 0) return say('turn.noAnswerTools', { rounds: toolRounds }).text;
  return say('turn.noAnswer').text;
}

/** The codes of the turn's core messages (shared/said.ts), by text: warnings, the search error, enhancement notes. */
function saidOfTurn(st: TurnState, retrieval: Retrieval): { said?: TurnInfo['said'] } {
  const e = retrieval.enhance;
  const said = saidMapOf([...st.warnings, retrieval.error, ...(e?.notes ?? []), e?.rerank?.fallback]);
  return Object.keys(said).length > 0 ? { said } : {};
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
