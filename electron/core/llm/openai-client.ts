/**
 * The OpenAI-compatible client: LM Studio, llama.cpp's `llama-server`, vLLM, LocalAI, Jan or a hosted API, through the
 * official `openai` package, behind the same {@link LlmClient} the turn uses with Ollama. Streamed tool-call deltas are
 * assembled into whole calls; reasoning (`reasoning_content`, `<think>` blocks) comes out as `thinking`, never as
 * answer text; every failure is a SiftError saying what to do (a refused key, a rate limit, a cut stream).
 */
import OpenAI from 'openai';
import { redactSecrets } from '../base/redact';
import { SiftError } from '../../../shared/errors';
import { chatBody, StreamAssembly } from './openai-wire';
import { positiveMs, RequestLimits } from './request-limits';
import { doneWatchingFetch, sawDoneLine } from './stream-end';
import type { LlmChatRequest, LlmChunk, LlmClient, LlmModel, LlmPing } from './types';
import { retryAfterMs } from '../base/retry-after';

export { toOpenAiMessages } from './openai-wire';

/** Options of {@link createOpenAiClient}. */
export interface OpenAiClientOptions {
  /** The server's base URL, ending in `/v1` as the servers document it, e.g. `http://127.0.0.1:1234/v1`. Required. */
  baseUrl: string;
  /** The API key, or null for a local server that wants none (a placeholder is sent then). Never logged. */
  apiKey: string | null;
  /** The provider's name as the person gave it, used in messages. Default 'OpenAI-compatible server'. */
  name?: string;
  /** Where the key comes from, as a refused key's message names it (e.g. "SIFT_API_KEY / OPENAI_API_KEY", "the key
   *  file /k"). Default "the key of this provider in Settings". */
  keySource?: string;
  /** Context window to assume when the server does not report one; null: unknown. Default null. */
  contextLength?: number | null;
  /** Time to get response headers, ms. Default 10000; sensible 1000–120000. */
  connectTimeoutMs?: number;
  /** Longest silence between streamed chunks, ms. Default 60000; sensible 1000–600000. */
  idleTimeoutMs?: number;
  /** Longest `retry-after` a rate-limited request waits before its one retry, ms; a longer one fails at once with
   *  a message. Default 20000; sensible 0–120000. */
  maxRetryWaitMs?: number;
}

/** How option errors name this client. */
const CLIENT = 'OpenAI-compatible';
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;
const DEFAULT_IDLE_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_RETRY_WAIT_MS = 20_000;
/** Sent when the person configured no key: the package insists on one, and local servers ignore it. */
const NO_KEY = 'sift-no-key';

interface Settings {
  name: string;
  keySource: string;
  hasKey: boolean;
  baseUrl: string;
  contextLength: number | null;
  connectTimeoutMs: number;
  idleTimeoutMs: number;
  maxRetryWaitMs: number;
  client: OpenAI;
}

/**
 * A client for the OpenAI-compatible server at `options.baseUrl`. Creating it sends nothing. Throws
 * SiftError('invalid_argument') for a base URL that is not http(s) or a time limit that is not positive.
 */
export function createOpenAiClient(options: OpenAiClientOptions): LlmClient {
  const baseUrl = normaliseBaseUrl(options.baseUrl);
  const settings: Settings = {
    name: options.name ?? 'OpenAI-compatible server',
    keySource: options.keySource ?? 'the key of this provider in Settings',
    hasKey: Boolean(options.apiKey),
    baseUrl,
    contextLength: options.contextLength ?? null,
    connectTimeoutMs: positiveMs(options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS, 'connectTimeoutMs', CLIENT),
    idleTimeoutMs: positiveMs(options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS, 'idleTimeoutMs', CLIENT),
    maxRetryWaitMs: options.maxRetryWaitMs ?? DEFAULT_MAX_RETRY_WAIT_MS,
    // Retries are ours (one, for a 429 with retry-after): the package's own would hide the wait from the turn's limits.
    client: new OpenAI({ baseURL: baseUrl, apiKey: options.apiKey || NO_KEY, maxRetries: 0, fetch: doneWatchingFetch() }),
  };
  return {
    host: baseUrl,
    label: settings.name,
    listModels: () => listModels(settings),
    contextLength: (model) => contextLength(settings, model),
    chat: (request) => streamChat(settings, request),
    ping: () => ping(settings),
  };
}

function normaliseBaseUrl(text: string): string {
  let url: URL | null = null;
  try {
    url = new URL(text.trim());
  } catch {
    // reported below
  }
  if (!url || !url.hostname || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
    throw new SiftError('invalid_argument', `The base URL "${text}" is not an http(s) URL; use e.g. http://127.0.0.1:1234/v1.`);
  }
  return url.href.replace(/\/+$/, '');
}

/** One request to the server: its abort switch and time limits (RequestLimits), and how its failures read. */
class Exchange extends RequestLimits {
  constructor(
    private readonly settings: Settings,
    userSignal?: AbortSignal,
  ) {
    super(`The request to ${settings.name} was cancelled.`, userSignal);
  }

  /**
   * Turn whatever was thrown into the SiftError a person can act on. A server's error body may quote the key it
   * was sent: the key, and anything shaped like one, never leaves the client.
   */
  explain(error: unknown, streaming: boolean, model: string | null): SiftError {
    if (this.stopReason) return this.stopReason;
    const explained = error instanceof SiftError ? error : explainError(this.settings, error, streaming, model);
    const message = redactSecrets(explained.message, [this.settings.client.apiKey]);
    return message === explained.message ? explained : new SiftError(explained.code, message);
  }
}

function explainError(settings: Settings, error: unknown, streaming: boolean, model: string | null): SiftError {
  const where = `${settings.name} at ${settings.baseUrl}`;
  if (error instanceof OpenAI.APIConnectionTimeoutError) return new SiftError('timeout', `${where} was too slow to answer.`);
  if (error instanceof OpenAI.APIConnectionError) {
    if (streaming) return cutMidAnswer(settings);
    const cause = causeText(error);
    return new SiftError('llm_unavailable', `Cannot reach ${where} (${cause}). Check that the server is running and its base URL in Settings.`);
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') return httpError(settings, error, model);
  if (error instanceof OpenAI.APIError) return new SiftError('llm_error', `${where} reported an error mid-answer: ${bodyMessage(error)}`);
  // The package stops at a streamed event that is not JSON (a broken proxy or server).
  if (streaming && error instanceof SyntaxError) {
    return new SiftError('llm_error', `${where} sent something that is not JSON mid-answer; what arrived before it is kept.`);
  }
  if (streaming) return cutMidAnswer(settings);
  const message = error instanceof Error ? error.message : String(error);
  return new SiftError('llm_error', `${where} failed: ${message}`);
}

/** The system error code (ECONNREFUSED, ENOTFOUND, …) in the connection error's cause chain, else its message. */
function causeText(error: Error): string {
  for (let e: unknown = error.cause, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return error.message;
}

function bodyMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : error.message;
}

function httpError(settings: Settings, error: InstanceType<typeof OpenAI.APIError>, model: string | null): SiftError {
  const where = `${settings.name} at ${settings.baseUrl}`;
  const status = error.status as number;
  if (status === 401 || status === 403) {
    // The same words whichever way the provider was chosen (Settings, --provider, --base-url): only where the key
    // comes from differs.
    if (!settings.hasKey) return new SiftError('llm_error', `${where}: the server wants an API key (HTTP ${status}) and none was sent. Set ${settings.keySource}.`);
    return new SiftError('llm_error', `${where}: the API key was refused (HTTP ${status}). Check ${settings.keySource}.`);
  }
  if (status === 429) {
    const wait = retryAfterMs(error.headers);
    const when = wait !== null ? `try again in ${Math.ceil(wait / 1000)} s` : 'try again later';
    return new SiftError('llm_error', `${where} is limiting requests (HTTP 429: too many requests); ${when}.`);
  }
  if (status === 404 && model) {
    return new SiftError('llm_error', `${where} has no model "${model}" (${bodyMessage(error)}); choose one of its models in Settings.`);
  }
  return new SiftError('llm_error', `${where} answered HTTP ${status}: ${bodyMessage(error)}`);
}

function cutMidAnswer(settings: Settings): SiftError {
  return new SiftError('llm_error', `The connection to ${settings.name} was cut mid-answer (${settings.baseUrl}); try again.`);
}

/**
 * Start a request; a 429 whose retry-after is within `maxRetryWaitMs` is retried once after that wait (cancellable),
 * a longer or second one fails with the rate-limit message.
 */
async function withOneRetry<T>(settings: Settings, exchange: Exchange, start: () => Promise<T>): Promise<T> {
  const limit = `${settings.name} at ${settings.baseUrl} did not start answering within ${settings.connectTimeoutMs} ms (connect limit).`;
  try {
    return await exchange.within(settings.connectTimeoutMs, limit, start());
  } catch (error) {
    const limited = error instanceof OpenAI.APIError && error.status === 429;
    const wait = limited ? retryAfterMs(error.headers) : null;
    if (wait === null || wait > settings.maxRetryWaitMs) throw error;
    await exchange.within(wait + 1000, limit, new Promise((resolve) => setTimeout(resolve, wait)));
    return await exchange.within(settings.connectTimeoutMs, limit, start());
  }
}

async function* streamChat(settings: Settings, request: LlmChatRequest): AsyncGenerator<LlmChunk> {
  const exchange = new Exchange(settings, request.signal);
  let streaming = false;
  try {
    const body = chatBody(request);
    const requestOptions = { signal: exchange.controller.signal, timeout: settings.connectTimeoutMs };
    const started = () => settings.client.chat.completions.create(body, requestOptions).withResponse();
    const { data: stream, response } = await withOneRetry(settings, exchange, started);
    streaming = true;
    const idle = `${settings.name} at ${settings.baseUrl} sent nothing for ${settings.idleTimeoutMs} ms mid-answer (idle limit).`;
    const chunks = stream[Symbol.asyncIterator]();
    const assembly = new StreamAssembly();
    for (;;) {
      const next = await exchange.within(settings.idleTimeoutMs, idle, chunks.next());
      // The package ends the stream quietly when aborted; ours was stopped for a reason.
      if (exchange.stopReason) throw exchange.stopReason;
      if (next.done) break;
      yield* assembly.add(next.value);
    }
    // A choice's finish_reason ends an answer, and so does the stream's closing `[DONE]` line without one.
    if (!assembly.finished && !sawDoneLine(response)) throw cutMidAnswer(settings);
    yield* assembly.end();
  } catch (error) {
    throw exchange.explain(error, streaming, request.model);
  } finally {
    exchange.finish();
  }
}

/** A small request; the connect limit covers the whole answer. */
async function smallRequest<T>(settings: Settings, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const exchange = new Exchange(settings);
  try {
    return await withOneRetry(settings, exchange, () => work(exchange.controller.signal));
  } catch (error) {
    throw exchange.explain(error, false, null);
  } finally {
    exchange.finish();
  }
}

interface ServedModel {
  id: string;
  /** Context fields servers add: vLLM `max_model_len`, LM Studio `max_context_length`, others `context_length`. */
  max_model_len?: unknown;
  max_context_length?: unknown;
  context_length?: unknown;
  /** llama-server: `meta.n_ctx_train`. */
  meta?: { n_ctx_train?: unknown; n_ctx?: unknown } | null;
}

async function servedModels(settings: Settings): Promise<ServedModel[]> {
  const page = await smallRequest(settings, (signal) => settings.client.models.list({ signal, timeout: settings.connectTimeoutMs }));
  return (page.data ?? []) as unknown as ServedModel[];
}

async function listModels(settings: Settings): Promise<LlmModel[]> {
  const models = (await servedModels(settings)).map((m) => ({ name: String(m.id), sizeBytes: null }));
  return models.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** The window the server reports for `model` in `/v1/models`, else the configured one, else null. */
async function contextLength(settings: Settings, model: string): Promise<number | null> {
  const served = (await servedModels(settings)).find((m) => m.id === model);
  const candidates = [served?.max_model_len, served?.max_context_length, served?.context_length, served?.meta?.n_ctx, served?.meta?.n_ctx_train];
  const reported = candidates.find((v): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0);
  return reported ?? settings.contextLength;
}

async function ping(settings: Settings): Promise<LlmPing> {
  try {
    await servedModels(settings);
    return { ok: true, version: null, message: null };
  } catch (error) {
    return { ok: false, version: null, message: error instanceof Error ? error.message : String(error) };
  }
}
