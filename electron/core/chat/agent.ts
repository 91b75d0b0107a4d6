/**
 * The agent loop of a chat turn: stream the model's answer; when it calls `kb_search` or
 * `read_page`, run the tool (inside a per-turn search budget counted before each search), append
 * new passages with continued numbering, and let it go on — for a bounded number of rounds.
 * Broken tool arguments from small models are recovered or answered with a retry hint. With a
 * glossary, `lookup_glossary` gives a term's definition as a passage (outside the search budget).
 */
import { SiftError } from '../../../shared/errors';
import { say, saidMapOf } from '../../../shared/said';
import type { Passage, SearchResult } from '../../../shared/models';
import { parseWikiRefs } from '../../../shared/wiki-refs';
import type { EventBus } from '../base/events';
import type { LlmClient, LlmMessage, LlmToolCall } from '../llm/types';
import { GLOSSARY_TOOL, TOOLS, formatPassage, noExactMatchNote } from './prompt';
import { recoverToolArguments } from './tool-args';
import type { EnhanceAsk } from '../search/enhance/plan';

/** Limits of one turn. */
export interface AgentLimits {
  /** Searches per turn, the automatic one included. Default 3 (1–10). */
  searchBudget: number;
  /** Model rounds per turn (each tool round is one). Default 4 (1–10). */
  maxRounds: number;
  /** Broken tool calls answered with a hint before the model is told to stop calling tools. Default 2. */
  maxBadArguments: number;
  /** Sent as `num_predict` with every model round. Default 8192 (setting `maxAnswerTokens`, 256–65536). */
  maxAnswerTokens: number;
  /** The answer text is cut here, whatever the server does with `num_predict`. Default 8 × maxAnswerTokens. */
  maxAnswerChars: number;
}

/** A knowledge base's glossary as a turn uses it (set only when the glossary has entries). */
export interface TurnGlossary {
  /** Passages of the entries whose terms occur in `text`, in the order they occur (a few at most). */
  mentioned(text: string): Passage[];
  /** Passages of a term's entries, else of the glossary terms the text mentions; none when it has none. */
  lookup(term: string): Passage[];
}

/** What the loop needs from the turn. */
export interface AgentDeps {
  turnId: string;
  llm: LlmClient;
  model: string;
  think: boolean | undefined;
  numCtx: number;
  events: EventBus;
  signal: AbortSignal;
  limits: AgentLimits;
  /** Search the turn's knowledge base, or null when the turn has none. */
  search: ((query: string, topK: number, more?: { enhanceArgs?: EnhanceAsk }) => Promise<SearchResult>) | null;
  /** Read `[start, end)` of a page as a passage. */
  readPage: ((path: string, start: number | undefined, end: number | undefined) => Promise<Passage>) | null;
  /** The glossary, offered as `lookup_glossary` (not counted in the search budget: it reads no index). Default none. */
  glossary?: TurnGlossary | null;
  /** Passages so far (mutated: tools append). Passage i is `[i + 1]`. */
  passages: Passage[];
  /** Searches already made this turn (the automatic one counts). */
  searchesUsed: number;
  onToken(text: string): void;
  /** Reasoning as it streams; `takesBack`: that many characters of the answer given so far were reasoning (the caller
   *  removes them; they lead `text`). Default: reasoning is only gathered into the result. */
  onThinking?(text: string, takesBack: number): void;
}

const EXPECTED: Record<string, string> = {
  kb_search: '{"query": "what to look for", "topK": 5}',
  read_page: '{"path": "wiki/…", "start": 0, "end": 2000}',
  lookup_glossary: '{"term": "RRF"}',
};

/** Add a passage unless one of the same page and overlapping span is there; returns its number. */
function addPassage(passages: Passage[], p: Passage): { number: number; added: boolean } {
  const i = passages.findIndex((q) => q.pagePath === p.pagePath && q.start < p.end && p.start < q.end);
  if (i >= 0) return { number: i + 1, added: false };
  passages.push(p);
  return { number: passages.length, added: true };
}

/** Run one tool call; returns the text the model gets back. */
async function runTool(deps: AgentDeps, call: LlmToolCall, bad: { count: number }): Promise<string> {
  const { events, turnId } = deps;
  events.emit('tool.called', { turnId, name: call.name, arguments: call.arguments });
  const result = (ok: boolean, summary: string, content: string) => {
    const said = saidMapOf([summary]);
    events.emit('tool.result', { turnId, name: call.name, ok, summary, ...(Object.keys(said).length ? { said } : {}) });
    return content;
  };
  const unavailable = (call.name === 'kb_search' && !deps.search) || (call.name === 'read_page' && !deps.readPage)
    || (call.name === 'lookup_glossary' && !deps.glossary);
  if (!(call.name in EXPECTED) || unavailable) {
    return result(false, say('tool.unknown').text, `There is no tool "${call.name}" here. Answer with the passages you have.`);
  }
  const args = recoverToolArguments(call.name, call.arguments, EXPECTED[call.name]!);
  if (!args.ok) {
    bad.count++;
    const stop = bad.count > deps.limits.maxBadArguments ? ' Do not call tools again; answer now with the passages you have.' : '';
    return result(false, `${args.problem} arguments`, args.hint + stop);
  }
  if (call.name === 'kb_search') return result(...(await searchTool(deps, args.args)));
  if (call.name === 'lookup_glossary') return result(...glossaryTool(deps, args.args));
  return result(...(await readTool(deps, args.args)));
}

/** `lookup_glossary`: the term's entries as passages (numbered like any), or that the glossary has none. */
function glossaryTool(deps: AgentDeps, args: Record<string, unknown>): [boolean, string, string] {
  const term = typeof args.term === 'string' ? args.term.trim() : '';
  if (!term) return [false, say('tool.noTerm').text, 'lookup_glossary needs a "term" string, e.g. {"term": "RRF"}.'];
  const found = deps.glossary!.lookup(term);
  if (found.length === 0) return [true, say('tool.notInGlossary').text, `The glossary has no entry for "${term}".`];
  const lines = found.map((p) => {
    const { number, added } = addPassage(deps.passages, p);
    return added ? formatPassage(p, number) : `[${number}] (already given above: ${p.pagePath})`;
  });
  return [true, `${found.length} entr${found.length === 1 ? 'y' : 'ies'}`, lines.join('\n\n')];
}

async function searchTool(deps: AgentDeps, args: Record<string, unknown>): Promise<[boolean, string, string]> {
  const query = typeof args.query === 'string' ? args.query.trim() : '';
  if (!query) return [false, say('tool.noQuery').text, 'kb_search needs a "query" string, e.g. {"query": "retry policy"}.'];
  if (deps.searchesUsed >= deps.limits.searchBudget) {
    return [false, say('tool.budgetSpent').text, `The search budget for this question is spent (${deps.limits.searchBudget} searches). Answer now with the passages you have, citing them as [n].`];
  }
  deps.searchesUsed++;
  const topK = typeof args.topK === 'number' && Number.isInteger(args.topK) ? Math.min(10, Math.max(1, args.topK)) : 5;
  let found: SearchResult;
  try {
    found = await deps.search!(query, topK, { enhanceArgs: enhanceArgsOf(args) });
  } catch (err) {
    return [false, say('tool.searchFailed').text, `The search failed: ${(err as Error).message}. Answer with what you have and say the search failed.`];
  }
  if (found.passages.length === 0) return [true, say('tool.nothingFound').text, `Nothing in the knowledge base matches "${query}".`];
  const lines = found.passages.map((p) => {
    const { number, added } = addPassage(deps.passages, p);
    return added ? formatPassage(p, number) : `[${number}] (already given above: ${p.pagePath})`;
  });
  if (found.noExactMatch.length > 0) lines.unshift(noExactMatchNote(found.noExactMatch));
  return [true, say('tool.passages', { count: found.passages.length }).text, lines.join('\n\n')];
}

/** The enhancements the model asked for in its `kb_search` arguments (wrong types are ignored, never guessed). */
export function enhanceArgsOf(args: Record<string, unknown>): EnhanceAsk | undefined {
  const out: EnhanceAsk = {};
  if (typeof args.multiQuery === 'number' && Number.isInteger(args.multiQuery) && args.multiQuery >= 1) out.multiQuery = Math.min(8, args.multiQuery);
  if (typeof args.hyde === 'boolean') out.hyde = args.hyde;
  if (typeof args.rerank === 'boolean') out.rerank = args.rerank ? 'llm' : null;
  return Object.keys(out).length > 0 ? out : undefined;
}

async function readTool(deps: AgentDeps, args: Record<string, unknown>): Promise<[boolean, string, string]> {
  const raw = typeof args.path === 'string' ? args.path.trim() : '';
  const refs = parseWikiRefs(`[[${raw}]]`);
  const path = refs.refs[0];
  if (!path) return [false, say('tool.badPath').text, `read_page needs a page path such as "wiki/notes.md"; "${raw}" is not one (${refs.rejected[0]?.reason ?? 'empty'}).`];
  const start = typeof args.start === 'number' ? args.start : undefined;
  const end = typeof args.end === 'number' ? args.end : undefined;
  try {
    const passage = await deps.readPage!(path, start, end);
    const { number } = addPassage(deps.passages, passage);
    return [true, say('tool.read', { path }).text, formatPassage(passage, number)];
  } catch (err) {
    return [false, say('tool.notFound').text, err instanceof SiftError ? err.message : `Could not read ${path}.`];
  }
}

/** What the loop produced. */
export interface AgentResult {
  answer: string;
  /** Why the answer was cut short (answer-length limit), or null when the model finished. */
  truncated: string | null;
  /** Lines of the model server's stream that could not be read and were dropped. */
  unreadableLines: number;
  /** Rounds that ended in tool calls. */
  toolRounds: number;
  /** The model's reasoning, every round's joined (empty when it showed none). */
  thinking: string;
  /** How long the model reasoned, ms: from a round's first chunk to the end of its reasoning, summed over rounds. */
  thinkingMs: number;
}

/** One round's stream: its text and tool calls, or why it was cut. */
interface Round {
  text: string;
  calls: LlmToolCall[];
  truncated: string | null;
}

/** The longest prefix of `text` within `room` characters, never splitting a surrogate pair. */
function fitText(text: string, room: number): string {
  if (text.length <= room) return text;
  const end = Math.max(0, room);
  const code = text.charCodeAt(end - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}

async function streamRound(
  deps: AgentDeps,
  messages: LlmMessage[],
  tools: typeof TOOLS | undefined,
  result: AgentResult,
): Promise<Round> {
  const round: Round = { text: '', calls: [], truncated: null };
  const { maxAnswerChars, maxAnswerTokens } = deps.limits;
  const options = { num_ctx: deps.numCtx, num_predict: maxAnswerTokens };
  const request = { model: deps.model, messages, tools, think: deps.think, signal: deps.signal, options };
  const clock = { start: performance.now(), thought: null as number | null };
  for await (const chunk of deps.llm.chat(request)) {
    if (chunk.type === 'thinking') {
      takeThinking(deps, round, result, chunk);
      clock.thought = performance.now();
    } else if (chunk.type === 'token') {
      const text = fitText(chunk.text, maxAnswerChars - result.answer.length);
      round.text += text;
      result.answer += text;
      if (text) deps.onToken(text);
      if (text.length < chunk.text.length) {
        // Leaving the loop closes the request: an endless model stops costing anything here.
        round.truncated = say('turn.cutAtLength', { chars: maxAnswerChars }).text;
        break;
      }
    } else if (chunk.type === 'tool_calls') round.calls.push(...chunk.calls);
    else if (chunk.type === 'unreadable') {
      result.unreadableLines++;
      const line = chunk.line.slice(0, 200);
      console.warn(`[sift] turn ${deps.turnId}: dropped an unreadable line from the model server: ${line}`);
    } else if (chunk.type === 'done' && chunk.reason === 'length') {
      round.truncated = say('turn.modelLength', { tokens: maxAnswerTokens }).text;
    }
  }
  if (clock.thought !== null) result.thinkingMs += Math.round(clock.thought - clock.start);
  return round;
}

/** Gather reasoning; answer text it takes back (an orphan `</think>`) leaves the round's and the turn's answer. */
function takeThinking(deps: AgentDeps, round: Round, result: AgentResult, chunk: { text: string; takesBack?: number }) {
  const back = Math.min(chunk.takesBack ?? 0, round.text.length);
  if (back > 0) {
    round.text = round.text.slice(0, round.text.length - back);
    result.answer = result.answer.slice(0, result.answer.length - back);
  }
  result.thinking += chunk.text;
  deps.onThinking?.(chunk.text, back);
}

/**
 * Stream the answer, running tools as the model asks, until it answers without calling a tool or
 * the rounds run out (the last round offers no tools, so the model has to answer), or the answer
 * reaches its length limit. Throws SiftError (cancelled, timeout, llm_error, llm_unavailable) with
 * the text so far kept by `onToken`.
 */
export async function runAgent(deps: AgentDeps, messages: LlmMessage[]): Promise<AgentResult> {
  const result: AgentResult = {
    answer: '', truncated: null, unreadableLines: 0, toolRounds: 0, thinking: '', thinkingMs: 0,
  };
  const bad = { count: 0 };
  for (let round = 0; round < deps.limits.maxRounds; round++) {
    const lastRound = round === deps.limits.maxRounds - 1;
    const offered = deps.glossary ? [...TOOLS, GLOSSARY_TOOL] : TOOLS;
    const tools = deps.search && !lastRound ? offered : undefined;
    const { text, calls, truncated } = await streamRound(deps, messages, tools, result);
    if (truncated) {
      result.truncated = truncated;
      break;
    }
    if (calls.length === 0) break;
    result.toolRounds++;
    messages.push({ role: 'assistant', content: text, toolCalls: calls });
    for (const call of calls) messages.push({ role: 'tool', toolName: call.name, content: await runTool(deps, call, bad) });
  }
  return result;
}
