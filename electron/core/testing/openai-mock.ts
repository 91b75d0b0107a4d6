/**
 * An OpenAI-compatible HTTP server on 127.0.0.1 for tests (what LM Studio, llama-server, vLLM or a hosted API speak):
 * real sockets, real Server-Sent-Events streaming, replies scripted per test with the same chunks as the Ollama mock,
 * so one turn test can run against both. It answers `/v1/models`, `/v1/chat/completions` and `/v1/embeddings`, checks
 * the API key when given one, and misbehaves on purpose (HTTP errors, 429 with retry-after, cut streams, stalls).
 * It imports no test framework, so unit tests and end-to-end tests alike can start it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, cut, readBody, sleep, unitVector, write } from './mock-http';
import type { MockChatReply, MockChunk, MockRequest } from './ollama-mock';

export type { MockChatReply, MockChunk, MockRequest } from './ollama-mock';

/** One scripted answer to `/v1/chat/completions`: the Ollama mock's reply, plus what only this API has. */
export interface MockOpenAiReply extends MockChatReply {
  /** With `status` 429 (or any): the `retry-after` header, in seconds. */
  retryAfter?: number;
  /** Send thinking as `<think>…</think>` inside `content` (llama-server, some vLLM setups) instead of
   *  `reasoning_content`. Default false. */
  thinkTags?: boolean;
  /** The delta field thinking goes in when not in tags: `reasoning_content` (DeepSeek, vLLM) or `reasoning`
   *  (OpenRouter, LM Studio, Ollama's OpenAI API). Default `reasoning_content`. */
  reasoningField?: 'reasoning_content' | 'reasoning';
  /** How the stream ends: `finish` (a last chunk with finish_reason, then `data: [DONE]`; the default), `done-only`
   *  (`data: [DONE]` and no finish_reason, as some servers and proxies send), or `quiet` (the body simply ends:
   *  neither, which a client cannot tell from a cut). */
  ending?: 'finish' | 'done-only' | 'quiet';
  /** Wait this long before sending the response headers, ms (a server loading the model on its first request). */
  headersDelayMs?: number;
}

/** A model the mock pretends to serve. */
export interface MockOpenAiModel {
  id: string;
  /** Reported as `max_model_len` (vLLM's field) in `/v1/models`; omitted when undefined. */
  contextLength?: number;
}

/** Options of {@link startMockOpenAi}. */
export interface MockOpenAiOptions {
  /** Served models. Default [{ id: 'qwen3:4b', contextLength: 8192 }] (the Ollama mock's, so turn tests match). */
  models?: MockOpenAiModel[];
  /** When set, every request must carry `Authorization: Bearer <apiKey>`; others get HTTP 401. */
  apiKey?: string;
  /** Length of the vectors `/v1/embeddings` returns. Default 16. */
  embedDimension?: number;
}

/** A running mock server. */
export interface MockOpenAi {
  /** http://127.0.0.1:PORT/v1 (the base URL an OpenAI client is given). */
  url: string;
  /** Every request received, with its `authorization` header kept apart for assertions. */
  requests: (MockRequest & { authorization: string | null })[];
  /** Script the next chat replies: an object joins a queue used in order; a function becomes the standing answer
   *  once the queue is empty. With neither, the reply is one token, "(mock reply)". */
  onChat(reply: MockOpenAiReply | ((body: any) => MockOpenAiReply)): void;
  /** Script the next `/v1/embeddings` answer as an HTTP error (status, optional retry-after seconds). */
  failEmbeddings(status: number, retryAfter?: number): void;
  close(): Promise<void>;
}

const DEFAULT_MODELS: MockOpenAiModel[] = [{ id: 'qwen3:4b', contextLength: 8192 }];
const DEFAULT_REPLY: MockOpenAiReply = { chunks: [{ content: '(mock reply)' }] };

interface State {
  options: Required<Pick<MockOpenAiOptions, 'models' | 'embedDimension'>> & { apiKey?: string };
  requests: MockOpenAi['requests'];
  queue: MockOpenAiReply[];
  standing: ((body: any) => MockOpenAiReply) | null;
  embedFailures: { status: number; retryAfter?: number }[];
  closing: boolean;
  cutByMock: WeakSet<http.ServerResponse>;
}

/** Start a mock OpenAI-compatible server on 127.0.0.1 on a free port. Close it after the test. */
export async function startMockOpenAi(options: MockOpenAiOptions = {}): Promise<MockOpenAi> {
  const state: State = {
    options: { models: options.models ?? DEFAULT_MODELS, embedDimension: options.embedDimension ?? 16, apiKey: options.apiKey },
    requests: [], queue: [], standing: null, embedFailures: [], closing: false, cutByMock: new WeakSet(),
  };
  const server = http.createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendError(res, 500, `mock failed: ${String(error)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests: state.requests,
    onChat(reply) {
      if (typeof reply === 'function') state.standing = reply;
      else state.queue.push(reply);
    },
    failEmbeddings(status, retryAfter) {
      state.embedFailures.push({ status, retryAfter });
    },
    async close() {
      state.closing = true;
      await closeServer(server);
    },
  };
}

async function handle(state: State, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0]!;
  const raw = await readBody(req);
  let body: any = null;
  if (req.method === 'POST') {
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      return sendError(res, 400, 'We could not parse the JSON body of your request.');
    }
  }
  const authorization = req.headers.authorization ?? null;
  const record = { path, body, closedByClient: false, authorization };
  state.requests.push(record);
  res.on('close', () => {
    if (!res.writableFinished && !state.cutByMock.has(res) && !state.closing) record.closedByClient = true;
  });
  if (state.options.apiKey !== undefined && authorization !== `Bearer ${state.options.apiKey}`) {
    return sendError(res, 401, 'Incorrect API key provided.', 'invalid_api_key');
  }
  const route = `${req.method} ${path}`;
  if (route === 'GET /v1/models') return sendJson(res, 200, { object: 'list', data: state.options.models.map(describeModel) });
  if (route === 'POST /v1/embeddings') return embeddings(state, res, body);
  if (route === 'POST /v1/chat/completions') return chat(state, res, body);
  sendError(res, 404, `Unknown request URL: ${req.method} ${path}.`);
}

function describeModel(model: MockOpenAiModel) {
  return {
    id: model.id, object: 'model', created: 1_767_225_600, owned_by: 'mock',
    ...(model.contextLength !== undefined ? { max_model_len: model.contextLength } : {}),
  };
}

function sendJson(res: http.ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value));
}

function sendError(res: http.ServerResponse, status: number, message: string, code: string | null = null, headers = {}): void {
  sendJson(res, status, { error: { message, type: 'invalid_request_error', param: null, code } }, headers);
}

function retryHeaders(retryAfter: number | undefined): Record<string, string> {
  return retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : {};
}

function embeddings(state: State, res: http.ServerResponse, body: any): void {
  const failure = state.embedFailures.shift();
  if (failure) return sendError(res, failure.status, 'mock embedding failure', null, retryHeaders(failure.retryAfter));
  const model = state.options.models.find((m) => m.id === body?.model);
  if (!model) return sendError(res, 404, `The model \`${String(body?.model)}\` does not exist.`, 'model_not_found');
  const inputs: string[] = Array.isArray(body?.input) ? body.input.map(String) : [String(body?.input ?? '')];
  const data = inputs.map((text, index) => ({ object: 'embedding', index, embedding: unitVector(text, state.options.embedDimension) }));
  sendJson(res, 200, { object: 'list', data, model: model.id, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
}

/** Deterministic unit vectors: the same text always gets the same vector. */

function nextReply(state: State, body: any): MockOpenAiReply {
  return state.queue.shift() ?? (state.standing ? state.standing(body) : DEFAULT_REPLY);
}

async function chat(state: State, res: http.ServerResponse, body: any): Promise<void> {
  const model = state.options.models.find((m) => m.id === body?.model);
  if (!model) return sendError(res, 404, `The model \`${String(body?.model)}\` does not exist.`, 'model_not_found');
  const reply = nextReply(state, body);
  if (reply.status !== undefined) return sendError(res, reply.status, reply.error ?? 'mock error', null, retryHeaders(reply.retryAfter));
  if (reply.headersDelayMs) await sleep(reply.headersDelayMs);
  if (state.closing || res.destroyed) return;
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  if (reply.stall) return; // the socket stays open until the client gives up or the mock closes
  let toolCalls = false;
  for (let i = 0; i < reply.chunks.length; i++) {
    if (reply.cutAfter === i) return cut(state, res);
    const chunk = reply.chunks[i]!;
    if ('toolCalls' in chunk) toolCalls = true;
    if (i > 0 && reply.delayMs) await sleep(reply.delayMs);
    if (state.closing || res.destroyed) return;
    const own = 'raw' in chunk ? [chunk.raw] : deltas(chunk, i, reply);
    for (const delta of own) await write(res, sse(delta, model.id));
  }
  if (reply.cutAfter !== undefined && reply.cutAfter >= reply.chunks.length) return cut(state, res);
  if (state.closing || res.destroyed) return;
  if (reply.streamError !== undefined) {
    return void res.end(`data: ${JSON.stringify({ error: { message: reply.streamError, type: 'server_error' } })}\n\n`);
  }
  if (reply.ending === 'quiet') return void res.end();
  const finish = reply.doneReason ?? (toolCalls ? 'tool_calls' : 'stop');
  if (reply.ending !== 'done-only') await write(res, sse({ finish }, model.id));
  res.end('data: [DONE]\n\n');
}

type Delta = string | Record<string, unknown> | { finish: string };

/** The SSE deltas of one scripted chunk. Tool-call arguments come in two pieces, as real servers split them. */
function deltas(chunk: MockChunk, index: number, reply: MockOpenAiReply): Delta[] {
  if ('content' in chunk) return [{ content: chunk.content }];
  if ('thinking' in chunk) {
    if (reply.thinkTags) return [{ content: `<think>${chunk.thinking}</think>` }];
    return [{ [reply.reasoningField ?? 'reasoning_content']: chunk.thinking }];
  }
  return chunk.toolCalls.flatMap((call, i) => {
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    const half = Math.floor(args.length / 2);
    const id = `call_${index}_${i}`;
    return [
      { tool_calls: [{ index: i, id, type: 'function', function: { name: call.name, arguments: args.slice(0, half) } }] },
      { tool_calls: [{ index: i, function: { arguments: args.slice(half) } }] },
    ];
  });
}

/** One `data:` event: a raw line as written, or a chat.completion.chunk around a delta. */
function sse(delta: Delta, model: string): string {
  if (typeof delta === 'string') return `data: ${delta}\n\n`;
  const finish = 'finish' in delta ? (delta.finish as string) : null;
  const choice = { index: 0, delta: finish ? {} : { role: 'assistant', ...delta }, finish_reason: finish };
  const chunk = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1_767_225_600, model, choices: [choice] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

/** Drop the connection without finishing the chunked body: the client sees a cut, not an end. */

