/**
 * An Ollama-compatible HTTP server on 127.0.0.1 for tests: real sockets, real NDJSON streaming, replies scripted per
 * test. It speaks just enough of Ollama's API (`/api/tags`, `/api/show`, `/api/chat`, `/api/embed`, `/api/version`)
 * for Sift's client, and can misbehave on purpose (HTTP errors, cut connections, stalls) so failure paths are real.
 * It imports no test framework, so unit tests and end-to-end tests alike can start it.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { closeServer, cut, readBody, sleep, unitVector, write } from './mock-http';

/** One streamed message of a scripted answer: a text token, a thinking token, or tool calls. */
export type MockChunk =
  | { content: string }
  | { thinking: string }
  | { toolCalls: { name: string; arguments: unknown }[] };

/** One scripted answer to `/api/chat`. */
export interface MockChatReply {
  /** NDJSON chunks to stream for /api/chat: text tokens, thinking tokens, tool calls (arguments may be any JSON value or
   *  a raw string, to simulate broken models), or a raw line sent as written (e.g. not JSON, a broken server). */
  chunks: (MockChunk | { raw: string })[];
  /** Delay between chunks in ms. Default 0. */
  delayMs?: number;
  /** Answer with this HTTP status and error body instead. */
  status?: number;
  /** The error text sent with `status`. Default 'mock error'. */
  error?: string;
  /** Destroy the socket after this many chunks (connection cut mid-stream). */
  cutAfter?: number;
  /** Send headers then never send anything else (a stalled server). */
  stall?: boolean;
  /** `done_reason` of the final message. Default 'stop' ('length' simulates a truncated answer). */
  doneReason?: string;
  /** After the chunks, send `{"error": streamError}` instead of the final message, as Ollama does when the model
   *  runner fails mid-answer. */
  streamError?: string;
}

/** A model the mock pretends to have installed. */
export interface MockModel {
  name: string;
  /** Reported as model_info `<arch>.context_length`; omitted when undefined. */
  contextLength?: number;
  /** Reported as `num_ctx` in the `parameters` text; omitted when undefined. */
  numCtx?: number;
}

/** A request the mock received. */
export interface MockRequest {
  path: string;
  /** Parsed JSON body (null for GET). */
  body: any;
  /** True when the client closed the connection before the answer was complete (abort, timeout). */
  closedByClient: boolean;
}

/** A running mock server. */
export interface MockOllama {
  /** http://127.0.0.1:PORT */
  url: string;
  /** Every request received (path, parsed JSON body), for assertions (e.g. tools offered, messages sent, think flag). */
  requests: MockRequest[];
  /** Script the next /api/chat replies: an object joins a queue used in order; a function becomes the standing answer
   *  once the queue is empty. With neither, the reply is one token, "(mock reply)". */
  onChat(reply: MockChatReply | ((body: any) => MockChatReply)): void;
  /** How many /api/chat answers are still being sent. */
  readonly openChats: number;
  /** Stop the server, cutting any open streams. */
  close(): Promise<void>;
}

/** Options of {@link startMockOllama}. */
export interface MockOllamaOptions {
  /** Installed models. Default [{ name: 'qwen3:4b', contextLength: 8192 }]. */
  models?: MockModel[];
  /** Length of the vectors `/api/embed` returns. Default 16 (any positive integer). */
  embedDimension?: number;
}

const DEFAULT_MODELS: MockModel[] = [{ name: 'qwen3:4b', contextLength: 8192 }];
const DEFAULT_REPLY: MockChatReply = { chunks: [{ content: '(mock reply)' }] };
const VERSION = '0.12.0';

interface MockState {
  models: MockModel[];
  embedDimension: number;
  requests: MockRequest[];
  queue: MockChatReply[];
  standing: ((body: any) => MockChatReply) | null;
  openChats: number;
  closing: boolean;
  /** Answers the mock cut on purpose, so they are not counted as closed by the client. */
  cutByMock: WeakSet<http.ServerResponse>;
}

/** Start a mock Ollama on 127.0.0.1 on a free port. Close it after the test. */
export async function startMockOllama(options: MockOllamaOptions = {}): Promise<MockOllama> {
  const state: MockState = {
    models: options.models ?? DEFAULT_MODELS,
    embedDimension: options.embedDimension ?? 16,
    requests: [],
    queue: [],
    standing: null,
    openChats: 0,
    closing: false,
    cutByMock: new WeakSet(),
  };
  const server = http.createServer((req, res) => {
    handle(state, req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: `mock failed: ${String(error)}` });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: state.requests,
    onChat(reply) {
      if (typeof reply === 'function') state.standing = reply;
      else state.queue.push(reply);
    },
    get openChats() {
      return state.openChats;
    },
    async close() {
      state.closing = true;
      await closeServer(server);
    },
  };
}

async function handle(state: MockState, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0]!;
  const raw = await readBody(req);
  let body: any = null;
  if (req.method === 'POST') {
    try {
      body = raw ? JSON.parse(raw) : {};
    } catch {
      sendJson(res, 400, { error: 'invalid character in request body' });
      return;
    }
  }
  const record: MockRequest = { path, body, closedByClient: false };
  state.requests.push(record);
  res.on('close', () => {
    if (!res.writableFinished && !state.cutByMock.has(res) && !state.closing) record.closedByClient = true;
  });
  const route = `${req.method} ${path}`;
  if (route === 'GET /api/version') return sendJson(res, 200, { version: VERSION });
  if (route === 'GET /api/tags') return sendJson(res, 200, { models: state.models.map(describeModel) });
  if (route === 'POST /api/show') return withModel(state, res, body, (m) => sendJson(res, 200, showModel(m)));
  if (route === 'POST /api/embed') return withModel(state, res, body, (m) => sendJson(res, 200, embed(state, m, body)));
  if (route === 'POST /api/chat') return withModel(state, res, body, (m) => chat(state, res, m, body));
  res.writeHead(404, { 'content-type': 'text/plain' }).end('404 page not found');
}

function sendJson(res: http.ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
}

/** Find the model a request names (Ollama reads `model`, older clients send `name`; `x` means `x:latest`). */
async function withModel(
  state: MockState,
  res: http.ServerResponse,
  body: any,
  then: (model: MockModel) => void | Promise<void>,
): Promise<void> {
  const name = String(body?.model ?? body?.name ?? '');
  const model = state.models.find((m) => m.name === name || m.name === `${name}:latest`);
  if (!model) return sendJson(res, 404, { error: `model "${name}" not found, try pulling it first` });
  await then(model);
}

function architectureOf(model: MockModel): string {
  return model.name.split(':')[0]!.replace(/[^a-z0-9]/gi, '') || 'llama';
}

function describeModel(model: MockModel) {
  return {
    name: model.name,
    model: model.name,
    modified_at: '2026-01-01T00:00:00Z',
    size: 1_000_000 + model.name.length,
    digest: createHash('sha256').update(model.name).digest('hex'),
    details: { format: 'gguf', family: architectureOf(model), parameter_size: '4B', quantization_level: 'Q4_K_M' },
  };
}

function showModel(model: MockModel) {
  const arch = architectureOf(model);
  const info: Record<string, unknown> = { 'general.architecture': arch, [`${arch}.embedding_length`]: 2560 };
  if (model.contextLength !== undefined) info[`${arch}.context_length`] = model.contextLength;
  const parameters = ['stop "<|im_end|>"', 'temperature 0.6'];
  if (model.numCtx !== undefined) parameters.push(`num_ctx ${model.numCtx}`);
  return {
    modelfile: `FROM ${model.name}`,
    parameters: parameters.join('\n'),
    template: '{{ .Prompt }}',
    details: describeModel(model).details,
    model_info: info,
    capabilities: ['completion', 'tools', 'thinking'],
  };
}

/** Deterministic unit vectors: the same text always gets the same vector, different texts almost surely differ. */
function embed(state: MockState, model: MockModel, body: any) {
  const inputs: string[] = Array.isArray(body?.input) ? body.input.map(String) : [String(body?.input ?? '')];
  const embeddings = inputs.map((text) => unitVector(text, state.embedDimension));
  return { model: model.name, embeddings, total_duration: 1000, load_duration: 0, prompt_eval_count: inputs.length };
}

function nextReply(state: MockState, body: any): MockChatReply {
  const queued = state.queue.shift();
  if (queued) return queued;
  return state.standing ? state.standing(body) : DEFAULT_REPLY;
}

async function chat(state: MockState, res: http.ServerResponse, model: MockModel, body: any): Promise<void> {
  const reply = nextReply(state, body);
  if (reply.status !== undefined) return sendJson(res, reply.status, { error: reply.error ?? 'mock error' });
  state.openChats++;
  res.on('close', () => state.openChats--);
  const streaming = body?.stream !== false;
  res.writeHead(200, { 'content-type': streaming ? 'application/x-ndjson' : 'application/json; charset=utf-8' });
  res.flushHeaders();
  if (reply.stall) return; // the socket stays open until the client gives up or the mock closes
  const messages = reply.chunks.map((chunk) => ('raw' in chunk ? chunk.raw : chatMessage(model, chunk, false)));
  if (!streaming) return answerWhole(state, res, model, reply, messages.filter((m) => typeof m !== 'string'));
  for (let i = 0; i < messages.length; i++) {
    if (reply.cutAfter === i) return cut(state, res);
    if (i > 0 && reply.delayMs) await sleep(reply.delayMs);
    if (state.closing || res.destroyed) return;
    const message = messages[i];
    await write(res, (typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
  }
  if (reply.cutAfter !== undefined && reply.cutAfter >= messages.length) return cut(state, res);
  if (reply.delayMs) await sleep(reply.delayMs);
  if (state.closing || res.destroyed) return;
  const last = reply.streamError !== undefined ? { error: reply.streamError } : finalMessage(model, reply, messages.length);
  res.end(JSON.stringify(last) + '\n');
}

function answerWhole(state: MockState, res: http.ServerResponse, model: MockModel, reply: MockChatReply, messages: any[]): void {
  if (reply.cutAfter !== undefined) return cut(state, res);
  const whole = finalMessage(model, reply, messages.length);
  const content = messages.map((m) => m.message.content).join('');
  const thinking = messages.map((m) => m.message.thinking ?? '').join('');
  const toolCalls = messages.flatMap((m) => m.message.tool_calls ?? []);
  whole.message = { role: 'assistant', content, ...(thinking && { thinking }), ...(toolCalls.length && { tool_calls: toolCalls }) };
  res.end(JSON.stringify(whole));
}

function chatMessage(model: MockModel, chunk: MockChunk, done: boolean) {
  const message: Record<string, unknown> = { role: 'assistant', content: '' };
  if ('content' in chunk) message.content = chunk.content;
  if ('thinking' in chunk) message.thinking = chunk.thinking;
  if ('toolCalls' in chunk) message.tool_calls = chunk.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } }));
  return { model: model.name, created_at: new Date().toISOString(), message, done };
}

function finalMessage(model: MockModel, reply: MockChatReply, count: number): Record<string, unknown> {
  return {
    ...chatMessage(model, { content: '' }, true),
    done_reason: reply.doneReason ?? 'stop',
    total_duration: 5_000_000,
    load_duration: 1_000_000,
    prompt_eval_count: 10,
    prompt_eval_duration: 1_000_000,
    eval_count: count,
    eval_duration: 3_000_000,
  };
}

/** Drop the connection without finishing the chunked body: the client sees a cut, not an end. */

/** Resolves once the text is handed to the socket, or the socket is gone (so a closed client never stalls the loop). */

