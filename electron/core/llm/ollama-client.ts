/**
 * The Ollama client: the `ollama` package for the wire format, wrapped so that every call has a time limit, can be
 * cancelled, and fails with a SiftError whose code says what went wrong (not running, too slow, server error, cut).
 * Each call gets its own abort switch, handed to the package through its custom `fetch`, because the package itself
 * has no per-request AbortSignal.
 */
import { Ollama, type ChatResponse, type Message, type Tool } from 'ollama';
import { SiftError } from '../../../shared/errors';
import { say } from '../../../shared/said';
import { positiveMs, RequestLimits } from './request-limits';
import { ThinkSplitter } from './think-tags';
import type { LlmChatRequest, LlmChunk, LlmClient, LlmClientOptions, LlmMessage, LlmModel, LlmPing, LlmTool } from './types';

export type {
  LlmChatRequest,
  LlmChunk,
  LlmClient,
  LlmClientOptions,
  LlmMessage,
  LlmModel,
  LlmPing,
  LlmTool,
  LlmToolCall,
} from './types';

const DEFAULT_PORT = '11434';
const DEFAULT_HOST = `http://127.0.0.1:${DEFAULT_PORT}`;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
/** What the package throws when a stream ends without its final `done` message. */
const NO_DONE_MESSAGE = 'Did not receive done or success response in stream.';
/** undici's own time limits; they mean "too slow", not "unreachable". */
const UNDICI_TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

interface Settings {
  host: string;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
}

/** Where a call was when it failed: before the answer's headers, or while its body streamed. */
type Phase = 'connecting' | 'streaming';

/**
 * A client for the Ollama server at `options.host`. Creating it sends nothing; every method is one HTTP request.
 * Throws SiftError('invalid_argument') for a host that is not an http(s) URL or a time limit that is not positive.
 */
export function createLlmClient(options: LlmClientOptions = {}): LlmClient {
  const settings: Settings = {
    host: normaliseHost(options.host ?? DEFAULT_HOST),
    connectTimeoutMs: positiveMs(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS, 'connectTimeoutMs', 'Ollama'),
    idleTimeoutMs: positiveMs(options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS, 'idleTimeoutMs', 'Ollama'),
  };
  return {
    host: settings.host,
    listModels: () => listModels(settings),
    contextLength: (model) => contextLength(settings, model),
    chat: (request) => streamChat(settings, request),
    ping: () => ping(settings),
  };
}

/** Accepts what people paste: a URL, or `host:port` / `host` as in OLLAMA_HOST (http, port 11434 then). */
function normaliseHost(host: string): string {
  const text = host.trim();
  const bare = !/^[a-z][a-z0-9+.-]*:\/\//i.test(text);
  let url: URL | null = null;
  try {
    url = new URL(bare ? `http://${text}` : text);
    if (bare && !url.port) url.port = DEFAULT_PORT;
  } catch {
    // fall through to the error below
  }
  if (!url || !url.hostname || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SiftError('invalid_argument', `Ollama address "${host}" is not an http(s) URL; use e.g. ${DEFAULT_HOST}.`);
  }
  return url.href.replace(/\/+$/, '');
}

/** One HTTP exchange with Ollama: its abort switch and time limits (RequestLimits), the package client on them. */
class Exchange extends RequestLimits {
  readonly client: Ollama;
  /** NDJSON lines of a streamed answer that were not JSON, dropped before the package (which drops them silently)
   *  sees them; the caller takes them to report. */
  readonly unreadable: string[] = [];

  constructor(
    private readonly settings: Settings,
    userSignal?: AbortSignal,
    private readonly checkLines = false,
  ) {
    super('The request to Ollama was cancelled.', userSignal);
    this.client = new Ollama({ host: settings.host, fetch: this.fetch });
  }

  /** The package's fetch, with our abort switch joined to the package's own (it has one for streams). */
  private readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const signal = init?.signal ? AbortSignal.any([init.signal, this.controller.signal]) : this.controller.signal;
    const response = await fetch(input, { ...init, signal });
    if (!this.checkLines || !response.ok || !response.body) return response;
    const body = response.body.pipeThrough(readableLines((line) => this.unreadable.push(line)));
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };

  /** Turn whatever was thrown into the SiftError a person can act on. */
  explain(error: unknown, phase: Phase, model: string | null): SiftError {
    if (this.stopReason) return this.stopReason;
    if (error instanceof SiftError) return error;
    const host = this.settings.host;
    const status = httpStatus(error);
    const message = error instanceof Error ? error.message : String(error);
    if (status !== null) return httpError(host, status, message, model);
    if (error instanceof TypeError) {
      const code = causeCode(error);
      if (code && UNDICI_TIMEOUTS.has(code)) return new SiftError('timeout', `Ollama at ${host} was too slow (${code}).`);
      if (phase === 'connecting') return unavailable(host, code ?? message);
      return cutMidAnswer(host);
    }
    if (phase === 'streaming' && message === NO_DONE_MESSAGE) return cutMidAnswer(host);
    return new SiftError('llm_error', `Ollama at ${host} reported an error: ${message}`);
  }
}

/** Pass whole NDJSON lines that parse as JSON; hand every other non-blank line to `onUnreadable` instead. */
function readableLines(onUnreadable: (line: string) => void): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const pass = (line: string, out: TransformStreamDefaultController<Uint8Array>) => {
    if (!line.trim()) return;
    try {
      JSON.parse(line);
    } catch {
      onUnreadable(line);
      return;
    }
    out.enqueue(encoder.encode(`${line}\n`));
  };
  return new TransformStream({
    transform(chunk, out) {
      const lines = (pending + decoder.decode(chunk, { stream: true })).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) pass(line, out);
    },
    flush(out) {
      pass(pending + decoder.decode(), out);
    },
  });
}

function httpStatus(error: unknown): number | null {
  const status = (error as { status_code?: unknown } | null)?.status_code;
  return typeof status === 'number' ? status : null;
}

/** The system error code (ECONNREFUSED, ENOTFOUND, …) buried in undici's `fetch failed` chain. */
function causeCode(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return null;
}

function httpError(host: string, status: number, text: string, model: string | null): SiftError {
  if (status === 404 && model) {
    return new SiftError(
      'llm_error',
      `Ollama at ${host} does not have the model "${model}" (${text}). Download it with \`ollama pull ${model}\`, ` +
        'or choose an installed model in Settings.',
    );
  }
  return new SiftError('llm_error', `Ollama at ${host} answered HTTP ${status}: ${text}`);
}

function unavailable(host: string, detail: string): SiftError {
  return new SiftError('llm_unavailable', say('llm.cannotReach', { host, detail }).text);
}

function cutMidAnswer(host: string): SiftError {
  return new SiftError('llm_error', say('llm.cutMidAnswer', { host }).text);
}

async function* streamChat(settings: Settings, request: LlmChatRequest): AsyncGenerator<LlmChunk> {
  const exchange = new Exchange(settings, request.signal, true);
  let phase: Phase = 'connecting';
  try {
    const connect = `Ollama at ${settings.host} did not start answering within ${settings.connectTimeoutMs} ms (connect limit).`;
    const started = exchange.client.chat(chatBody(request));
    const stream = await exchange.within(settings.connectTimeoutMs, connect, started);
    phase = 'streaming';
    const idle = `Ollama at ${settings.host} sent nothing for ${settings.idleTimeoutMs} ms mid-answer (idle limit).`;
    const messages = stream[Symbol.asyncIterator]();
    const think = new ThinkSplitter();
    for (;;) {
      const next = await exchange.within(settings.idleTimeoutMs, idle, messages.next());
      for (const line of exchange.unreadable.splice(0)) yield { type: 'unreadable', line };
      if (next.done) return yield* think.flush();
      yield* chunksOf(next.value, think);
    }
  } catch (error) {
    throw exchange.explain(error, phase, request.model);
  } finally {
    exchange.finish();
  }
}

function chatBody(request: LlmChatRequest) {
  return {
    model: request.model,
    messages: request.messages.map(toOllamaMessage),
    stream: true as const,
    ...(request.tools?.length ? { tools: request.tools.map(toOllamaTool) } : {}),
    ...(request.think !== undefined ? { think: request.think } : {}),
    ...(request.options ? { options: request.options } : {}),
  };
}

function toOllamaMessage(message: LlmMessage): Message {
  const out: Message = { role: message.role, content: message.content };
  if (message.toolCalls?.length) {
    out.tool_calls = message.toolCalls.map((call) => ({
      function: { name: call.name, arguments: argumentsObject(call.arguments) },
    }));
  }
  if (message.toolName !== undefined) out.tool_name = message.toolName;
  return out;
}

/** Ollama only accepts an object as a call's arguments; a broken model's raw string is parsed if it can be, else `{}`. */
function argumentsObject(value: unknown): Record<string, unknown> {
  let parsed = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch {
      parsed = null;
    }
  }
  return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
}

function toOllamaTool(tool: LlmTool): Tool {
  const parameters = tool.parameters as Tool['function']['parameters'];
  return { type: 'function', function: { name: tool.name, description: tool.description, parameters } };
}

/**
 * One NDJSON message can carry thinking, text and tool calls at once; they come out in that order, then `done`. The
 * text goes through `think`: a model Ollama has no thinking parser for writes its reasoning as `<think>…</think>`.
 */
function chunksOf(response: ChatResponse, think: ThinkSplitter): LlmChunk[] {
  const chunks: LlmChunk[] = [];
  const message = response.message ?? { content: '' };
  if (message.thinking) chunks.push({ type: 'thinking', text: message.thinking });
  if (message.content) chunks.push(...think.push(message.content));
  if (response.done) chunks.push(...think.flush());
  if (message.tool_calls?.length) {
    const calls = message.tool_calls.map((call) => ({
      name: String(call.function?.name ?? ''),
      arguments: call.function?.arguments,
    }));
    chunks.push({ type: 'tool_calls', calls });
  }
  if (response.done) {
    const reason = typeof response.done_reason === 'string' && response.done_reason ? response.done_reason : null;
    const evalCount = typeof response.eval_count === 'number' ? response.eval_count : null;
    chunks.push({ type: 'done', reason, evalCount });
  }
  return chunks;
}

/** A small non-streamed request; the connect limit covers the whole answer. */
async function smallRequest<T>(settings: Settings, model: string | null, work: (client: Ollama) => Promise<T>): Promise<T> {
  const exchange = new Exchange(settings);
  try {
    const limit = `Ollama at ${settings.host} did not answer within ${settings.connectTimeoutMs} ms (connect limit).`;
    return await exchange.within(settings.connectTimeoutMs, limit, work(exchange.client));
  } catch (error) {
    throw exchange.explain(error, 'connecting', model);
  } finally {
    exchange.finish();
  }
}

async function listModels(settings: Settings): Promise<LlmModel[]> {
  const list = await smallRequest(settings, null, (client) => client.list());
  const models = (Array.isArray(list?.models) ? list.models : []).map((m) => ({
    name: String(m.name ?? m.model ?? ''),
    sizeBytes: typeof m.size === 'number' ? m.size : null,
  }));
  return models.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

async function contextLength(settings: Settings, model: string): Promise<number | null> {
  const shown = await smallRequest(settings, model, (client) => client.show({ model }));
  return contextFromModelInfo(shown?.model_info) ?? contextFromParameters(shown?.parameters);
}

/** `model_info` is a JSON object keyed `<architecture>.context_length` (the package types it as a Map; JSON never is). */
function contextFromModelInfo(info: unknown): number | null {
  if (!info || typeof info !== 'object') return null;
  const entries = info instanceof Map ? [...info.entries()] : Object.entries(info);
  for (const [key, value] of entries) {
    if (String(key).endsWith('.context_length') && typeof value === 'number' && value > 0) return value;
  }
  return null;
}

/** `parameters` is Modelfile text, one `name value` per line. */
function contextFromParameters(parameters: unknown): number | null {
  if (typeof parameters !== 'string') return null;
  const match = /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters);
  const value = match ? Number(match[1]) : NaN;
  return value > 0 ? value : null;
}

async function ping(settings: Settings): Promise<LlmPing> {
  try {
    const answer = await smallRequest(settings, null, (client) => client.version());
    return { ok: true, version: typeof answer?.version === 'string' ? answer.version : null, message: null };
  } catch (error) {
    return { ok: false, version: null, message: error instanceof Error ? error.message : String(error) };
  }
}
