import { afterEach, describe, expect, it } from 'vitest';
import { startMockOllama, type MockOllama } from '../testing/ollama-mock';
import { complete } from './complete';
import { createLlmClient } from './ollama-client';

let server: MockOllama | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('complete: one short model reply', () => {
  it('gathers the streamed tokens, drops reasoning and sends a small, deterministic request', async () => {
    server = await startMockOllama();
    server.onChat({ chunks: [{ thinking: 'hmm' }, { content: '<think>x</think>  how to ' }, { content: 'install on Windows ' }] });
    const text = await complete(createLlmClient({ host: server.url }), 'qwen3:4b', [{ role: 'user', content: 'q' }], { maxTokens: 40 });
    expect(text).toBe('how to install on Windows');
    const body = server.requests.find((r) => r.path === '/api/chat')!.body;
    expect(body.think).toBe(false);
    expect(body.options).toEqual({ num_predict: 40, temperature: 0 });
  });

  it('fails with a timeout when the whole reply takes longer than its limit', async () => {
    server = await startMockOllama();
    server.onChat({ chunks: [{ content: 'a' }, { content: 'b' }, { content: 'c' }], delayMs: 400 });
    const llm = createLlmClient({ host: server.url });
    await expect(complete(llm, 'qwen3:4b', [{ role: 'user', content: 'q' }], { timeoutMs: 300 })).rejects.toMatchObject({ code: 'timeout' });
  });

  it("ends with 'cancelled' when the caller aborts", async () => {
    server = await startMockOllama();
    server.onChat({ chunks: [{ content: 'a' }], stall: true });
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    const llm = createLlmClient({ host: server.url });
    await expect(complete(llm, 'qwen3:4b', [{ role: 'user', content: 'q' }], { signal: stop.signal, timeoutMs: 5000 })).rejects.toMatchObject({ code: 'cancelled' });
  });
});
