import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { SiftError } from '../../../shared/errors';
import { startMockOpenAi, type MockOpenAi, type MockOpenAiOptions } from '../testing/openai-mock';
import { createOpenAiClient, toOpenAiMessages, type OpenAiClientOptions } from './openai-client';
import { ThinkSplitter } from './think-tags';
import type { LlmChunk, LlmClient } from './types';

let mock: MockOpenAi | null = null;
afterEach(async () => {
  await mock?.close();
  mock = null;
});

async function setup(options: MockOpenAiOptions = {}, client: Partial<OpenAiClientOptions> = {}): Promise<LlmClient> {
  mock = await startMockOpenAi(options);
  return createOpenAiClient({ baseUrl: mock.url, apiKey: options.apiKey ?? null, name: 'LM Box', ...client });
}

const ask = { model: 'qwen3:4b', messages: [{ role: 'user' as const, content: '你好 hello' }] };

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

const textOf = (chunks: LlmChunk[], type: 'token' | 'thinking') =>
  chunks.filter((c) => c.type === type).map((c) => (c as { text: string }).text).join('');

describe('OpenAI-compatible chat streaming', () => {
  it('streams tokens in order, sends the key as a bearer token and ends with done', async () => {
    const llm = await setup({ apiKey: 'sk-test-123' });
    mock!.onChat({ chunks: [{ content: 'Sift ' }, { content: '索引' }, { content: ' [1]' }] });
    const { chunks, error } = await drain(llm.chat({ ...ask, options: { num_predict: 300, num_ctx: 8192 } }));
    expect(error).toBeNull();
    expect(chunks).toEqual([
      { type: 'token', text: 'Sift ' },
      { type: 'token', text: '索引' },
      { type: 'token', text: ' [1]' },
      { type: 'done', reason: 'stop', evalCount: null },
    ]);
    const sent = mock!.requests.at(-1)!;
    expect(sent).toMatchObject({ path: '/v1/chat/completions', authorization: 'Bearer sk-test-123' });
    expect(sent.body).toMatchObject({ model: 'qwen3:4b', stream: true, max_tokens: 300, messages: [{ role: 'user', content: '你好 hello' }] });
    expect(sent.body.num_ctx).toBeUndefined();
  });

  it('turns reasoning_content and <think> blocks into thinking, never answer text', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ thinking: 'The user greets. ' }, { content: 'Hi!' }] });
    const first = await drain(llm.chat(ask));
    expect(textOf(first.chunks, 'thinking')).toBe('The user greets. ');
    expect(textOf(first.chunks, 'token')).toBe('Hi!');
    mock!.onChat({ chunks: [{ thinking: 'hmm, tags' }, { content: 'Hello [1].' }], thinkTags: true });
    const second = await drain(llm.chat(ask));
    expect(textOf(second.chunks, 'thinking')).toBe('hmm, tags');
    expect(textOf(second.chunks, 'token')).toBe('Hello [1].');
  });

  it('assembles tool calls from their deltas and keeps malformed arguments raw', async () => {
    const llm = await setup();
    const calls = [
      { name: 'kb_search', arguments: { query: '部署 E_CONN_RESET', topK: 5 } },
      { name: 'kb_search', arguments: '{"query": "broken' },
    ];
    mock!.onChat({ chunks: [{ toolCalls: calls }] });
    const { chunks, error } = await drain(llm.chat({ ...ask, tools: [{ name: 'kb_search', description: 'search', parameters: { type: 'object' } }] }));
    expect(error).toBeNull();
    expect(chunks).toEqual([{ type: 'tool_calls', calls }, { type: 'done', reason: 'tool_calls', evalCount: null }]);
    expect(mock!.requests.at(-1)!.body.tools).toEqual([{ type: 'function', function: { name: 'kb_search', description: 'search', parameters: { type: 'object' } } }]);
  });

  it('says "the API key was refused" on HTTP 401', async () => {
    const llm = await setup({ apiKey: 'sk-right' }, { apiKey: 'sk-wrong' });
    const { error } = await drain(llm.chat(ask));
    expect(error).toMatchObject({ code: 'llm_error' });
    expect(error!.message).toMatch(/LM Box at http:\/\/127\.0\.0\.1:\d+\/v1: the API key was refused \(HTTP 401\)/);
    expect(error!.message).not.toContain('sk-wrong');
  });

  it('retries once after a 429 with a short retry-after', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [], status: 429, error: 'Rate limit reached', retryAfter: 1 });
    mock!.onChat({ chunks: [{ content: 'after the wait' }] });
    const t = Date.now();
    const { chunks, error } = await drain(llm.chat(ask));
    expect(error).toBeNull();
    expect(textOf(chunks, 'token')).toBe('after the wait');
    expect(Date.now() - t).toBeGreaterThanOrEqual(950);
    expect(mock!.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(2);
  });

  it('fails at once with when to try again, for a retry-after longer than it waits', async () => {
    const llm = await setup({}, { maxRetryWaitMs: 5000 });
    mock!.onChat({ chunks: [], status: 429, retryAfter: 90 });
    const { error } = await drain(llm.chat(ask));
    expect(error!.message).toMatch(/LM Box .* is limiting requests \(HTTP 429: too many requests\); try again in 90 s\./);
    expect(mock!.requests.filter((r) => r.path === '/v1/chat/completions')).toHaveLength(1);
  });

  it('keeps what streamed and says the stream was cut mid-answer', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'The client ' }, { content: 'retries ' }, { content: 'never sent' }], cutAfter: 2 });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(textOf(chunks, 'token')).toBe('The client retries ');
    expect(error).toMatchObject({ code: 'llm_error' });
    expect(error!.message).toMatch(/The connection to LM Box was cut mid-answer/);
  });

  it('a stream that ends with [DONE] but no finish_reason is complete; one that just stops was cut (issue #27 item 12)', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'Three ' }, { content: 'times [1].' }], ending: 'done-only' });
    const whole = await drain(llm.chat(ask));
    expect(whole.error).toBeNull();
    expect(whole.chunks).toEqual([
      { type: 'token', text: 'Three ' }, { type: 'token', text: 'times [1].' }, { type: 'done', reason: null, evalCount: null },
    ]);
    mock!.onChat({ chunks: [{ content: 'Three ' }], ending: 'quiet' });
    const quiet = await drain(llm.chat(ask));
    expect(textOf(quiet.chunks, 'token')).toBe('Three ');
    expect(quiet.error!.message).toMatch(/The connection to LM Box was cut mid-answer/);
  });

  it('reports an error the server sends inside the stream', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'partial' }], streamError: 'CUDA out of memory' });
    const { error } = await drain(llm.chat(ask));
    expect(error!.message).toMatch(/reported an error mid-answer: CUDA out of memory/);
  });

  it('keeps what came before an event that is not JSON, and says so', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: [{ content: 'Half ' }, { raw: '{not json' }, { content: 'never read' }] });
    const { chunks, error } = await drain(llm.chat(ask));
    expect(textOf(chunks, 'token')).toBe('Half ');
    expect(error!.message).toMatch(/LM Box at .* sent something that is not JSON mid-answer/);
  });

  it('aborts with cancelled and closes the request', async () => {
    const llm = await setup();
    mock!.onChat({ chunks: Array.from({ length: 40 }, (_, i) => ({ content: `w${i} ` })), delayMs: 25 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const { chunks, error } = await drain(llm.chat({ ...ask, signal: controller.signal }));
    expect(error).toMatchObject({ code: 'cancelled' });
    expect(chunks.length).toBeGreaterThan(0);
    expect(chunks.length).toBeLessThan(40);
    await expect.poll(() => mock!.requests.at(-1)!.closedByClient).toBe(true);
  });

  it('times out on a stalled stream (idle limit) and when the server never answers (connect limit)', async () => {
    const llm = await setup({}, { idleTimeoutMs: 200, connectTimeoutMs: 200 });
    mock!.onChat({ chunks: [], stall: true });
    const { error } = await drain(llm.chat(ask));
    expect(error).toMatchObject({ code: 'timeout' });
    expect(error!.message).toMatch(/idle limit/);
    const silent = net.createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const slow = createOpenAiClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: null, connectTimeoutMs: 200 });
    const stalled = await drain(slow.chat(ask));
    expect(stalled.error).toMatchObject({ code: 'timeout' });
    silent.close();
  });

  it('is llm_unavailable when nothing listens, so the turn can answer without a model', async () => {
    const llm = createOpenAiClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, name: 'Gone' });
    const { error } = await drain(llm.chat(ask));
    expect(error).toMatchObject({ code: 'llm_unavailable' });
    expect(error!.message).toMatch(/Cannot reach Gone at http:\/\/127\.0\.0\.1:9\/v1/);
    expect(await llm.ping()).toMatchObject({ ok: false });
  });
});

describe('OpenAI-compatible models', () => {
  it('lists models and reads the context length the server reports, else the configured one', async () => {
    const llm = await setup({ models: [{ id: 'b-model', contextLength: 32768 }, { id: 'a-model' }] }, { contextLength: 4096 });
    expect((await llm.listModels()).map((m) => m.name)).toEqual(['a-model', 'b-model']);
    expect(await llm.contextLength('b-model')).toBe(32768);
    expect(await llm.contextLength('a-model')).toBe(4096);
    expect(await llm.ping()).toEqual({ ok: true, version: null, message: null });
  });

  it('rejects a base URL that is not http(s)', () => {
    expect(() => createOpenAiClient({ baseUrl: 'ftp://x/v1', apiKey: null })).toThrow(/not an http\(s\) URL/);
  });
});

describe('OpenAI message shape', () => {
  it('gives assistant tool calls ids and answers them in order from the tool messages', () => {
    const out = toOpenAiMessages([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: '', toolCalls: [{ name: 'kb_search', arguments: { query: 'a' } }, { name: 'read_page', arguments: '{"path"' }] },
      { role: 'tool', toolName: 'kb_search', content: 'r1' },
      { role: 'tool', toolName: 'read_page', content: 'r2' },
    ]);
    expect(out[1]).toEqual({
      role: 'assistant', content: null,
      tool_calls: [
        { id: 'call_1_0', type: 'function', function: { name: 'kb_search', arguments: '{"query":"a"}' } },
        { id: 'call_1_1', type: 'function', function: { name: 'read_page', arguments: '{"path"' } },
      ],
    });
    expect(out.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'call_1_0', content: 'r1' },
      { role: 'tool', tool_call_id: 'call_1_1', content: 'r2' },
    ]);
  });
});

describe('the <think> splitter', () => {
  it('splits tags cut across pieces and gives back a partial tag that never closes', () => {
    const splitter = new ThinkSplitter();
    const pieces = ['Hi <th', 'ink>plan', ' it</thi', 'nk> done <t'];
    const chunks = [...pieces.flatMap((p) => [...splitter.push(p)]), ...splitter.flush()];
    expect(textOf(chunks, 'thinking')).toBe('plan it');
    expect(textOf(chunks, 'token')).toBe('Hi  done <t');
  });
});
