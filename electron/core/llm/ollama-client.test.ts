import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { startMockOllama, type MockOllama, type MockOllamaOptions } from '../testing/ollama-mock';
import { createLlmClient, type LlmChunk, type LlmClient, type LlmClientOptions } from './ollama-client';

let mock: MockOllama | null = null;
const sockets = new Set<net.Socket>();
const servers: net.Server[] = [];
afterEach(async () => {
  await mock?.close();
  mock = null;
  for (const socket of sockets) socket.destroy(); // undici may keep a spare connection open for a few seconds
  sockets.clear();
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

async function setup(options: MockOllamaOptions = {}, client: LlmClientOptions = {}): Promise<LlmClient> {
  mock = await startMockOllama(options);
  return createLlmClient({ host: mock.url, ...client });
}

const ask = { model: 'qwen3:4b', messages: [{ role: 'user' as const, content: '你好 hello' }] };

/** Everything the stream yielded, and the error that ended it (null when it finished). */
async function drain(stream: AsyncIterable<LlmChunk>): Promise<{ chunks: LlmChunk[]; error: SiftError | null }> {
  const chunks: LlmChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks, error: null };
  } catch (error) {
    if (!(error instanceof SiftError)) throw error;
    return { chunks, error };
  }
}

/** A port with nothing listening on it. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('chat streaming', () => {
  it('streams tokens in order and ends with done', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'Sift ' }, { content: '索引' }, { content: ' [1]' }], doneReason: 'length' });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(error).toBeNull();
    expect(chunks).toEqual([
      { type: 'token', text: 'Sift ' },
      { type: 'token', text: '索引' },
      { type: 'token', text: ' [1]' },
      { type: 'done', reason: 'length', evalCount: 3 },
    ]);
    expect(mock!.requests.at(-1)).toMatchObject({ path: '/api/chat', body: { model: 'qwen3:4b', stream: true } });
    expect(mock!.requests.at(-1)!.body.messages).toEqual([{ role: 'user', content: '你好 hello' }]);
  });

  it('keeps thinking apart from the answer', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ thinking: 'The user greets. ' }, { thinking: 'Reply.' }, { content: 'Hi!' }] });
    const { chunks } = await drain(llm.chat(ask));
    expect(chunks.filter((c) => c.type === 'thinking').map((c) => (c as { text: string }).text)).toEqual(['The user greets. ', 'Reply.']);
    expect(chunks.filter((c) => c.type === 'token')).toEqual([{ type: 'token', text: 'Hi!' }]);
  });

  it('passes tool calls through as received: object arguments and raw strings', async () => {
    const llm = await setup();
    const calls = [
      { name: 'kb_search', arguments: { query: '部署 E_CONN_RESET', limit: 5 } },
      { name: 'kb_search', arguments: '{"query": "broken' },
    ];
    mock!.onChat({ chunks: [{ toolCalls: calls }] });
    const { chunks } = await drain(llm.chat(ask));
    expect(chunks[0]).toEqual({ type: 'tool_calls', calls });
  });

  it('sends think, tools, options and earlier tool calls in the request body', async () => {
    const llm = await setup();
    const tool = { name: 'kb_search', description: 'Search the knowledge base', parameters: { type: 'object', properties: { query: { type: 'string' } } } };
    const messages = [
      { role: 'user' as const, content: 'q' },
      { role: 'assistant' as const, content: '', toolCalls: [{ name: 'kb_search', arguments: '{"query":"q"}' }, { name: 'kb_search', arguments: 'nonsense' }] },
      { role: 'tool' as const, content: '[1] passage', toolName: 'kb_search' },
    ];
    await drain(llm.chat({ model: 'qwen3:4b', messages, tools: [tool], think: false, options: { num_ctx: 4096 } }));
    const body = mock!.requests.at(-1)!.body;
    expect(body.think).toBe(false);
    expect(body.options).toEqual({ num_ctx: 4096 });
    expect(body.tools).toEqual([{ type: 'function', function: tool }]);
    expect(body.messages[1].tool_calls).toEqual([
      { function: { name: 'kb_search', arguments: { query: 'q' } } },
      { function: { name: 'kb_search', arguments: {} } },
    ]);
    expect(body.messages[2]).toEqual({ role: 'tool', content: '[1] passage', tool_name: 'kb_search' });
  });

  it('leaves think and tools out when the caller does not choose', async () => {
    const llm = await setup();
    await drain(llm.chat({ ...ask, tools: [] }));
    const body = mock!.requests.at(-1)!.body;
    expect('think' in body).toBe(false);
    expect('tools' in body).toBe(false);
  });
});

describe('chat failures', () => {
  it('HTTP 500 is llm_error with the server text', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [], status: 500, error: 'llama runner process has terminated' });
    const { error } = await drain(llm.chat(ask));
    expect(error?.code).toBe('llm_error');
    expect(error?.message).toContain('llama runner process has terminated');
  });

  it('an unknown model is llm_error suggesting ollama pull', async () => {
    const llm = await setup();
    const { error } = await drain(llm.chat({ ...ask, model: 'llama9:1b' }));
    expect(error?.code).toBe('llm_error');
    expect(error?.message).toContain('model "llama9:1b" not found');
    expect(error?.message).toContain('ollama pull llama9:1b');
  });

  it('a connection cut after 2 chunks keeps the 2 tokens, then fails', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'one ' }, { content: 'two ' }, { content: 'three' }], cutAfter: 2 });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(chunks).toEqual([{ type: 'token', text: 'one ' }, { type: 'token', text: 'two ' }]);
    expect(error?.code).toBe('llm_error');
    expect(error?.message).toMatch(/connection to Ollama was cut mid-answer/);
  });

  it('a stream that ends cleanly without done is a cut too', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'one' }], cutAfter: 1 });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(chunks).toEqual([{ type: 'token', text: 'one' }]);
    expect(error?.message).toMatch(/cut mid-answer/);
  });

  it('an error sent mid-stream is llm_error with its text, after the tokens before it', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'half' }], streamError: 'llama runner process no longer running' });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(chunks).toEqual([{ type: 'token', text: 'half' }]);
    expect(error?.code).toBe('llm_error');
    expect(error?.message).toContain('llama runner process no longer running');
  });

  it('a stalled server ends with timeout within the idle limit', async () => {
    const llm = await setup({}, { idleTimeoutMs: 300 });
    mock!.onChat({ chunks: [{ content: 'never' }], stall: true });
    const started = Date.now();
    const { error } = await drain(llm.chat(ask));
    const took = Date.now() - started;
    expect(error?.code).toBe('timeout');
    expect(error?.message).toContain('300 ms');
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2000);
    await expect.poll(() => mock!.openChats).toBe(0);
  });

  it('a server that goes silent between tokens times out after the tokens it sent', async () => {
    const llm = await setup({}, { idleTimeoutMs: 300 });
    mock!.onChat({ chunks: [{ content: 'a' }, { content: 'b' }], delayMs: 5_000 });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(chunks).toEqual([{ type: 'token', text: 'a' }]);
    expect(error?.code).toBe('timeout');
  });

  it('a server that never sends headers ends with timeout within the connect limit', async () => {
    const silent = net.createServer((socket) => {
      sockets.add(socket);
      socket.resume(); // reads the request, never answers
    });
    servers.push(silent);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const llm = createLlmClient({ host: `http://127.0.0.1:${(silent.address() as net.AddressInfo).port}`, connectTimeoutMs: 300 });
    const started = Date.now();
    const { error } = await drain(llm.chat(ask));
    expect(error?.code).toBe('timeout');
    expect(error?.message).toContain('300 ms');
    expect(Date.now() - started).toBeLessThan(2000);
    const models = await llm.listModels().catch((e: SiftError) => e);
    expect(models).toMatchObject({ code: 'timeout' });
  });

  it('abort mid-stream throws cancelled, keeps what came before, and closes the request', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'a' }, { content: 'b' }, { content: 'c' }, { content: 'd' }], delayMs: 200 });
    const controller = new AbortController();
    const chunks: LlmChunk[] = [];
    let error: unknown = null;
    try {
      for await (const chunk of llm.chat({ ...ask, signal: controller.signal })) {
        chunks.push(chunk);
        if (chunks.length === 2) setTimeout(() => controller.abort(), 50);
      }
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SiftError);
    expect((error as SiftError).code).toBe('cancelled');
    expect(chunks).toEqual([{ type: 'token', text: 'a' }, { type: 'token', text: 'b' }]);
    await expect.poll(() => mock!.requests.at(-1)!.closedByClient).toBe(true);
    await expect.poll(() => mock!.openChats).toBe(0);
  });

  it('breaking out of the loop closes the request', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'a' }, { content: 'b' }], delayMs: 2_000 });
    for await (const chunk of llm.chat(ask)) {
      expect(chunk).toEqual({ type: 'token', text: 'a' });
      break;
    }
    await expect.poll(() => mock!.requests.at(-1)!.closedByClient).toBe(true);
    await expect.poll(() => mock!.openChats).toBe(0);
  });

  it('a signal aborted before the call sends nothing', async () => {
    const llm = await setup();
    const { error } = await drain(llm.chat({ ...ask, signal: AbortSignal.abort() }));
    expect(error?.code).toBe('cancelled');
    expect(mock!.requests.filter((r) => r.path === '/api/chat')).toHaveLength(0);
  });

  it('an unreachable port is llm_unavailable, naming the host and ollama serve', async () => {
    const host = `http://127.0.0.1:${await closedPort()}`;
    const llm = createLlmClient({ host });
    const { error } = await drain(llm.chat(ask));
    expect(error?.code).toBe('llm_unavailable');
    expect(error?.message).toContain(host);
    expect(error?.message).toContain('ollama serve');
    await expect(llm.listModels()).rejects.toMatchObject({ code: 'llm_unavailable' });
  });
});

describe('models, context length and ping', () => {
  it('lists installed models sorted by name with their sizes', async () => {
    const llm = await setup({ models: [{ name: 'qwen3:4b' }, { name: 'gemma3:1b' }, { name: 'nomic-embed-text:latest' }] });
    const models = await llm.listModels();
    expect(models.map((m) => m.name)).toEqual(['gemma3:1b', 'nomic-embed-text:latest', 'qwen3:4b']);
    expect(models.every((m) => typeof m.sizeBytes === 'number' && m.sizeBytes > 0)).toBe(true);
  });

  it.each([
    { model: { name: 'qwen3:4b', contextLength: 40960, numCtx: 8192 }, expected: 40960, why: 'model_info wins' },
    { model: { name: 'qwen3:4b', numCtx: 8192 }, expected: 8192, why: 'num_ctx in parameters as fallback' },
    { model: { name: 'qwen3:4b' }, expected: null, why: 'neither: unknown' },
  ])('context length: $why', async ({ model, expected }) => {
    const llm = await setup({ models: [model] });
    expect(await llm.contextLength('qwen3:4b')).toBe(expected);
  });

  it('context length of an unknown model is llm_error suggesting ollama pull', async () => {
    const llm = await setup();
    await expect(llm.contextLength('nope:1b')).rejects.toMatchObject({ code: 'llm_error', message: expect.stringContaining('ollama pull nope:1b') });
  });

  it('ping reports the version, or why not, without throwing', async () => {
    const llm = await setup();
    expect(await llm.ping()).toEqual({ ok: true, version: expect.any(String), message: null });
    const down = await createLlmClient({ host: `http://127.0.0.1:${await closedPort()}` }).ping();
    expect(down).toMatchObject({ ok: false, version: null, message: expect.stringContaining('ollama serve') });
  });
});

describe('client options', () => {
  it.each([
    { options: {}, host: 'http://127.0.0.1:11434' },
    { options: { host: 'http://localhost:11434/' }, host: 'http://localhost:11434' },
    { options: { host: ' 192.168.1.5:11500 ' }, host: 'http://192.168.1.5:11500' },
    { options: { host: 'gpu-box' }, host: 'http://gpu-box:11434' },
    { options: { host: 'https://ollama.example.org' }, host: 'https://ollama.example.org' },
  ])('host $options.host → $host', ({ options, host }) => {
    expect(createLlmClient(options).host).toBe(host);
  });

  it.each([{ host: 'not a url' }, { host: 'ftp://x' }, { host: '' }, { connectTimeoutMs: 0 }, { idleTimeoutMs: Number.NaN }])(
    'rejects %o',
    (options) => {
      expect(() => createLlmClient(options)).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
    },
  );
});
