/**
 * A chat test bench: a real core on a temp data folder with a small indexed knowledge base (the
 * tiny test embedding model), a mock model server on 127.0.0.1 — Ollama, or an OpenAI-compatible one
 * chosen as the default provider in the settings — and helpers to send a turn and collect its events
 * until it ends.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ChatMessage } from '../../../../shared/chat-models';
import type { SearchDepth } from '../../../../shared/models';
import { writeTestModel } from '../../embed/testing/test-model';
import { createSift, type Sift, type SiftConfig } from '../../sift';
import { startMockOllama, type MockChatReply, type MockOllama, type MockRequest } from '../../testing/ollama-mock';
import { startMockOpenAi, type MockOpenAi } from '../../testing/openai-mock';
import { tempDir } from '../../testing/temp';

/** Documents of the fixture knowledge base. */
export const DOCS: Record<string, string> = {
  'runbook.md': '# 连接超时\n\n当出现 E_CONN_RESET 错误时，先检查 api-gateway 的超时设置，默认超时是 30 秒。\n\n## Retry policy\n\nThe client retries a failed connection three times, waiting two seconds between attempts.\n',
  'api.md': '# Chat API\n\nPOST v1/chat streams the answer as NDJSON. Each line carries one token.\n',
  'cooking.md': '# Tomato soup\n\nSimmer tomatoes with garlic for twenty minutes, then blend.\n',
};

/** One turn's outcome: its events in order, and the final message. */
export interface TurnOutcome {
  turnId: string;
  conversationId: string;
  events: { event: string; payload: Record<string, unknown> }[];
  end: 'answer.done' | 'answer.failed';
  message: ChatMessage | null;
}

/** Which kind of model server a bench answers with. */
export type BenchProvider = 'ollama' | 'openai';

/** The name of the OpenAI-compatible provider a bench configures. */
export const BENCH_PROVIDER_NAME = 'lm-box';

/** A chat request as either server received it, in one shape for assertions. */
export interface SentChat {
  messages: { role: string; content: string }[];
  tools?: unknown[];
  /** The request body as sent. */
  body: Record<string, unknown>;
}

export interface ChatBench {
  sift: Sift;
  /** The mock Ollama (always running; the built-in provider's server when `provider` is 'ollama'). */
  ollama: MockOllama;
  /** The OpenAI-compatible mock when `provider` is 'openai'. */
  openai: MockOpenAi | null;
  /** The server that answers this bench's turns: script replies here. */
  server: { onChat(reply: MockChatReply): void; requests: MockRequest[] };
  /** The chat requests the answering server received, in order. */
  chatRequests(): SentChat[];
  kbId: string;
  dataDir: string;
  /** Send a message and wait for the turn to end (or `waitFor` to be seen, then call `during`). */
  ask(
    message: string,
    options?: { conversationId?: string; kb?: string | null; depth?: SearchDepth; during?: (turnId: string) => Promise<void> | void },
  ): Promise<TurnOutcome>;
  close(): Promise<void>;
}

let modelDir: string | null = null;

/**
 * Start a bench. `chat` overrides chat settings (e.g. short timeouts); `ollamaDown` points at a closed port;
 * `docs` replaces the knowledge base's documents (default {@link DOCS}; a name may hold folders).
 */
export async function startChatBench(
  options: { chat?: SiftConfig['chat']; ollamaDown?: boolean; docs?: Record<string, string>; provider?: BenchProvider } = {},
): Promise<ChatBench> {
  if (!modelDir || !fs.existsSync(modelDir)) {
    modelDir = fs.mkdtempSync(path.join(path.dirname(tempDir()), 'sift-chat-model-'));
    await writeTestModel(modelDir);
  }
  const dataDir = tempDir();
  const docs = tempDir();
  for (const [name, text] of Object.entries(options.docs ?? DOCS)) {
    // A name may hold folders (`guides/setup.md`).
    fs.mkdirSync(path.dirname(path.join(docs, name)), { recursive: true });
    fs.writeFileSync(path.join(docs, name), text);
  }
  const ollama = await startMockOllama();
  const openai = options.provider === 'openai' ? await startMockOpenAi() : null;
  const host = options.ollamaDown && !openai ? 'http://127.0.0.1:9' : ollama.url;
  const sift = createSift({
    dataDir,
    embedding: { provider: 'transformers', modelId: 'sift-test/tiny-embedder', localModelDir: modelDir, allowDownload: false },
    chat: { host, connectTimeoutMs: 2000, idleTimeoutMs: 2000, ...options.chat },
  });
  if (openai) {
    // Chosen the way a person does: a provider of the list made the default.
    const baseUrl = options.ollamaDown ? 'http://127.0.0.1:9/v1' : openai.url;
    const provider = { name: BENCH_PROVIDER_NAME, kind: 'openai' as const, baseUrl, apiKeyRef: null, defaultModel: null };
    const set = await sift.invoke('settings.set', { patch: { providers: [provider], defaultProvider: BENCH_PROVIDER_NAME } });
    if (!set.ok) throw new Error(set.error.message);
  }
  const kb = await sift.invoke('kb.create', { name: 'Docs' });
  if (!kb.ok) throw new Error(kb.error.message);
  const kbId = (kb.value as { id: string }).id;
  await sift.invoke('folder.add', { kb: kbId, path: docs });
  await sift.ingest(kbId);

  async function ask(message: string, o: Parameters<ChatBench['ask']>[1] = {}): Promise<TurnOutcome> {
    const turnId = crypto.randomUUID();
    const events: TurnOutcome['events'] = [];
    let resolveEnd!: (v: { end: TurnOutcome['end']; message: ChatMessage | null }) => void;
    const ended = new Promise<{ end: TurnOutcome['end']; message: ChatMessage | null }>((r) => (resolveEnd = r));
    const stop = sift.onEvent((event, payload) => {
      const p = payload as Record<string, unknown>;
      if (p.turnId !== turnId) return;
      events.push({ event, payload: p });
      if (event === 'answer.done') resolveEnd({ end: event, message: p.message as ChatMessage });
      if (event === 'answer.failed') resolveEnd({ end: event, message: p.partial as ChatMessage | null });
    });
    const args = { kb: o.kb === undefined ? kbId : o.kb, message, conversationId: o.conversationId, turnId, depth: o.depth };
    const sent = await sift.invoke('chat.send', args);
    if (!sent.ok) throw new Error(`${sent.error.code}: ${sent.error.message}`);
    if (o.during) await o.during(turnId);
    const { end, message: final } = await ended;
    stop();
    return { turnId, conversationId: (sent.value as { conversationId: string }).conversationId, events, end, message: final };
  }

  const server = openai ?? ollama;
  const chatPath = openai ? '/v1/chat/completions' : '/api/chat';
  const chatRequests = (): SentChat[] =>
    server.requests.filter((r) => r.path === chatPath).map((r) => ({ messages: r.body.messages, tools: r.body.tools, body: r.body }));
  return {
    sift, ollama, openai, server, chatRequests, kbId, dataDir, ask,
    async close() {
      await sift.close();
      await ollama.close();
      await openai?.close();
    },
  };
}

/** Event names of an outcome, in order, with consecutive answer.token events collapsed into one. */
export function eventNames(outcome: TurnOutcome): string[] {
  const names = outcome.events.map((e) => e.event);
  return names.filter((n, i) => !(n === 'answer.token' && names[i - 1] === 'answer.token'));
}
